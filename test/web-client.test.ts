import { afterEach, describe, expect, it, vi } from 'vitest';

// The web interface's API client decides what to do about an error by its code, never by its
// message or bare status. Its fetch is replaced by a script of answers. Node's Request takes only
// absolute URLs (a browser resolves `/admin/api/…` against the page): the client is imported
// with one that resolves them against http://vigil.test.
const NodeRequest = globalThis.Request;
vi.stubGlobal(
  'Request',
  class extends NodeRequest {
    constructor(input: Request | string | URL, init?: RequestInit) {
      super(typeof input === 'string' && input.startsWith('/') ? `http://vigil.test${input}` : input, init);
    }
  },
);
const { ApiError, api, authApi, call, isTransient, setCsrfToken, setUnauthorizedHandler } = await import(
  '../web/src/api/client.js'
);

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

const error = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  json(status, { error: message, status, code, request_id: 'req-1', ...extra });

/** Answers each fetch with the next response; records what was asked. */
function script(...answers: Response[]) {
  const calls: { url: string; method: string; csrf: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init: RequestInit = {}) => {
      const request =
        typeof input === 'string' ? new NodeRequest(new URL(input, 'http://vigil.test'), init) : input;
      calls.push({
        url: new URL(request.url).pathname,
        method: request.method,
        csrf: request.headers.get('X-CSRF-Token'),
      });
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected fetch ${request.url}`);
      return answer;
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals(); // the client keeps the Request class it was made with
  setUnauthorizedHandler(() => {});
});

describe('call', () => {
  it('reads the code, details and request id of the server’s error body', async () => {
    script(
      error(400, 'validation_failed', 'Validation failed', { details: { name: ['must not be empty'] } }),
    );
    const err = await call(api.POST('/accounts', { body: { name: '' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Validation failed',
      requestId: 'req-1',
      details: { name: ['must not be empty'] },
    });
  });

  it('has no code for an answer that is not the server’s JSON, and keeps the X-Request-Id header', async () => {
    script(
      new Response('<h1>Bad gateway</h1>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'X-Request-Id': 'px-9' },
      }),
    );
    const err = (await call(api.GET('/accounts', {})).catch((e: unknown) => e)) as InstanceType<
      typeof ApiError
    >;
    expect(err.code).toBeUndefined();
    expect(err.requestId).toBe('px-9');
    expect(err.message).toBe('Request failed (502 Bad Gateway)');
  });

  it('re-reads the CSRF token and retries once on invalid_csrf_token', async () => {
    setCsrfToken('old');
    const calls = script(
      error(403, 'invalid_csrf_token', 'Invalid CSRF token'),
      json(200, { user: null, csrf_token: 'new', setup_required: false }),
      json(201, { id: 7 }),
    );
    await expect(call(api.POST('/accounts', { body: { name: 'A' } }))).resolves.toEqual({ id: 7 });
    expect(calls.map((c) => [c.method, c.url, c.csrf])).toEqual([
      ['POST', '/admin/api/accounts', 'old'],
      ['GET', '/admin/api/session', null],
      ['POST', '/admin/api/accounts', 'new'],
    ]);
  });

  it('does not retry another 403, whatever its message says', async () => {
    setCsrfToken('token');
    const calls = script(error(403, 'operator_required', 'Invalid CSRF token'));
    const refused = call(api.POST('/accounts', { body: { name: 'A' } }));
    await expect(refused).rejects.toMatchObject({ status: 403, code: 'operator_required' });
    expect(calls).toHaveLength(1);
  });

  it('goes to sign-in on sign_in_required only, not on another 401', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    script(error(401, 'invalid_credentials', 'Invalid email or password'));
    await expect(call(api.GET('/accounts', {}))).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(onUnauthorized).not.toHaveBeenCalled();

    script(error(401, 'sign_in_required', 'Sign-in required'));
    await expect(call(api.GET('/accounts', {}))).rejects.toMatchObject({ code: 'sign_in_required' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    // Sign-in, sign-out and links use authApi, which leaves an ended session to the page.
    script(error(401, 'sign_in_required', 'Sign-in required'));
    await expect(call(authApi.DELETE('/session', {}))).rejects.toThrow();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

describe('ApiError', () => {
  it('puts an email_taken error on the Email input, and validation messages on theirs', () => {
    const taken = new ApiError(409, 'Email already exists', { code: 'email_taken' });
    expect(taken.field).toBe('email');
    expect(taken.fieldError('email')).toBe('Email already exists');
    expect(taken.fieldError('first_name')).toBeUndefined();

    const invalid = new ApiError(400, 'Validation failed', {
      code: 'validation_failed',
      details: { email: ['must be a valid email address', 'must be at most 254 characters'] },
    });
    expect(invalid.field).toBeUndefined();
    expect(invalid.fieldError('email')).toBe('must be a valid email address; must be at most 254 characters');

    // Another conflict is not about the Email input, whatever its status.
    const other = new ApiError(409, 'Only a failed message can be retried', { code: 'message_not_failed' });
    expect(other.fieldError('email')).toBeUndefined();
  });

  it('calls transient only the network and the server failing', () => {
    expect(isTransient(new TypeError('Failed to fetch'))).toBe(true);
    expect(isTransient(new ApiError(503, 'Service unavailable', { code: 'service_unavailable' }))).toBe(true);
    expect(isTransient(new ApiError(500, 'Internal server error', { code: 'internal_error' }))).toBe(true);
    expect(isTransient(new ApiError(502, 'Request failed (502 Bad Gateway)'))).toBe(true);
    expect(isTransient(new ApiError(404, 'Group not found', { code: 'group_not_found' }))).toBe(false);
    expect(isTransient(new ApiError(429, 'Too many sign-in attempts', { code: 'too_many_sign_ins' }))).toBe(
      false,
    );
    expect(isTransient(new Error('a bug'))).toBe(false);
  });
});
