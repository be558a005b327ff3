import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  isTransient,
  readError,
  request,
  setCsrfToken,
  setUnauthorizedHandler,
} from '../web/src/api/client.js';

// The web interface's API client decides what to do about an error by its code, never by its
// message or bare status. Its fetch is replaced by a script of answers.

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

const error = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  json(status, { error: message, status, code, request_id: 'req-1', ...extra });

/** Answers each fetch with the next response; records what was asked. */
function script(...answers: Response[]) {
  const calls: { url: string; method: string; csrf: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ url, method: init.method ?? 'GET', csrf: headers['X-CSRF-Token'] });
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected fetch ${url}`);
      return answer;
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => {});
});

describe('readError', () => {
  it('reads the code, details and request id of the server’s error body', async () => {
    const err = await readError(
      error(400, 'validation_failed', 'Validation failed', { details: { name: ['must not be empty'] } }),
    );
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
    const err = await readError(
      new Response('<h1>Bad gateway</h1>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'X-Request-Id': 'px-9' },
      }),
    );
    expect(err.code).toBeUndefined();
    expect(err.requestId).toBe('px-9');
    expect(err.message).toBe('Request failed (502 Bad Gateway)');
  });
});

describe('request', () => {
  it('re-reads the CSRF token and retries once on invalid_csrf_token', async () => {
    setCsrfToken('old');
    const calls = script(
      error(403, 'invalid_csrf_token', 'Invalid CSRF token'),
      json(200, { user: null, csrf_token: 'new', setup_required: false }),
      json(201, { id: 7 }),
    );
    await expect(request('/accounts', { method: 'POST', body: { name: 'A' } })).resolves.toEqual({ id: 7 });
    expect(calls.map((c) => [c.method, c.url, c.csrf])).toEqual([
      ['POST', '/admin/api/accounts', 'old'],
      ['GET', '/admin/api/session', undefined],
      ['POST', '/admin/api/accounts', 'new'],
    ]);
  });

  it('does not retry another 403, whatever its message says', async () => {
    setCsrfToken('token');
    const calls = script(error(403, 'operator_required', 'Invalid CSRF token'));
    const refused = request('/accounts', { method: 'POST', body: { name: 'A' } });
    await expect(refused).rejects.toMatchObject({ status: 403, code: 'operator_required' });
    expect(calls).toHaveLength(1);
  });

  it('goes to sign-in on sign_in_required only, not on another 401', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    script(error(401, 'invalid_credentials', 'Invalid email or password'));
    await expect(request('/session/password', { method: 'POST', body: {} })).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();

    script(error(401, 'sign_in_required', 'Sign-in required'));
    await expect(request('/accounts')).rejects.toMatchObject({ code: 'sign_in_required' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    script(error(401, 'sign_in_required', 'Sign-in required'));
    await expect(request('/session', { method: 'DELETE', skipUnauthorizedRedirect: true })).rejects.toThrow();
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
