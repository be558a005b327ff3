import { STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../src/core/errors.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { client, makeKey } from './helpers/factories.js';

/**
 * What Node's HTTP layer answers by itself (parser errors, timeouts, a missing Host, an unknown
 * Expect, CONNECT) is answered in the contract's shape, over a real connection, and the server
 * keeps serving afterwards. The app runs with REQUEST_TIMEOUT_SECONDS=1.
 */

const API = '/api/api_gateway';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Well below the 10 s headers timeout and 30 s request timeout of the defaults: a 408 within
// this long comes from the configured 1 s.
const DEADLINE_MS = 6000;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({ REQUEST_TIMEOUT_SECONDS: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});

interface Exchange {
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** Whether the server closed the connection before the deadline. */
  closed: boolean;
}

/**
 * Opens a connection, writes `request` (then `more`, if given, until the server closes), and
 * collects what the server sends until it closes the connection or the deadline passes.
 */
function exchange(
  request: string | Buffer,
  options: { more?: Buffer; deadlineMs?: number; afterData?: (text: string) => string | undefined } = {},
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => finish(false), options.deadlineMs ?? DEADLINE_MS);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const reply = options.afterData?.(text);
      if (reply !== undefined) socket.write(reply);
    });
    // A reset after the answer arrived still counts as the server closing.
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.write(request);
    if (options.more) {
      const more = options.more;
      const pump = () => {
        while (!done && !socket.destroyed) {
          if (!socket.write(more)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    }
  });
}

interface Parsed {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): Parsed {
  const end = text.indexOf('\r\n\r\n');
  expect(end, `a complete answer in:\n${text.slice(0, 500)}`).toBeGreaterThan(0);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    expect(headers[name], `header ${name} sent once`).toBeUndefined();
    headers[name] = line.slice(colon + 1).trim();
  }
  return { statusLine: statusLine!, headers, body: text.slice(end + 4) };
}

/**
 * The answer is exactly one contract error, `{"error":…,"status":…}` with its code and the
 * request id of the `X-Request-Id` header, and the connection closed after it.
 */
function expectContractAnswer(result: Exchange, status: number, error: string, code: ErrorCode): Parsed {
  expect(result.closed, 'the server closed the connection').toBe(true);
  const answer = parse(result.text);
  expect(answer.statusLine).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
  expect(answer.headers['x-api-version']).toBe('2.2.0');
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-request-id']).toMatch(UUID);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers.connection).toBe('close');
  expect(answer.body).toBe(
    JSON.stringify({ error, status, code, request_id: answer.headers['x-request-id'] }),
  );
  expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
  return answer;
}

async function expectServing(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok' });
}

async function employeeCount(key: string): Promise<number> {
  return (await client(t.app, key).get('/customer/employees/')).json().count;
}

const get = (target: string, headers = 'Host: x\r\n') => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

describe('requests the HTTP parser refuses', () => {
  it('answers a header block over 16 KiB with 431', async () => {
    const res = await exchange(get('/healthz', `Host: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n`));
    expectContractAnswer(res, 431, 'Request header fields too large', 'header_fields_too_large');
    await expectServing();
  });

  it('answers a 20,000-character URL with 431: Node counts the request line against the same 16 KiB', async () => {
    const res = await exchange(get(`${API}/customer/employees/?email=${'a'.repeat(20_000)}`));
    expectContractAnswer(res, 431, 'Request header fields too large', 'header_fields_too_large');
    await expectServing();
  });

  it('answers bytes that are no HTTP request with 400', async () => {
    for (const junk of [
      'GARBAGE\r\n\r\n',
      'get /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      '\x16\x03\x01\x00\xa5\x01',
    ]) {
      expectContractAnswer(await exchange(junk), 400, 'Bad request', 'bad_request');
    }
    await expectServing();
  });

  it('answers invalid characters in a header (a NUL included) with 400', async () => {
    for (const value of ['a\x01b', 'a\x00b', 'a\x7fb']) {
      const res = await exchange(get('/healthz', `Host: x\r\nX-Odd: ${value}\r\n`));
      expectContractAnswer(res, 400, 'Bad request', 'bad_request');
    }
    const spaceBeforeColon = await exchange(get('/healthz', 'Host: x\r\nX-Odd : a\r\n'));
    expectContractAnswer(spaceBeforeColon, 400, 'Bad request', 'bad_request');
    await expectServing();
  });

  it('answers Transfer-Encoding with Content-Length (request smuggling) with 400 and creates nothing', async () => {
    const { key } = await makeKey(t.app);
    const body = JSON.stringify({ first_name: 'Smug', last_name: 'Gler', email: 'smuggler@example.com' });
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const res = await exchange(
      `POST ${API}/customer/employees/ HTTP/1.1\r\nHost: x\r\napiKey: ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${chunked.length}\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n${chunked}`,
    );
    expectContractAnswer(res, 400, 'Bad request', 'bad_request');
    expect(await employeeCount(key)).toBe(0);
    await expectServing();
  });

  it('still answers a client that keeps sending after its request was refused, then closes', async () => {
    const res = await exchange(
      `POST /healthz HTTP/1.1\r\nHost: x\r\nX-Odd: a\x01b\r\nContent-Length: 100000000\r\n\r\n`,
      { more: Buffer.alloc(64 * 1024, 'a') },
    );
    expectContractAnswer(res, 400, 'Bad request', 'bad_request');
    await expectServing();
  });

  it('gives the same security headers as the app', async () => {
    const normal = parse((await exchange(`${get('/healthz', 'Host: x\r\nConnection: close\r\n')}`)).text);
    const refused = expectContractAnswer(
      await exchange('GARBAGE\r\n\r\n'),
      400,
      'Bad request',
      'bad_request',
    );
    const own = ['content-type', 'content-length', 'date', 'connection', 'x-api-version', 'x-request-id'];
    const security = Object.keys(normal.headers).filter((name) => !own.includes(name));
    expect(security).toContain('content-security-policy');
    for (const name of security) expect(refused.headers[name], name).toBe(normal.headers[name]);
  });
});

describe('requests that do not arrive in time', () => {
  it('answers headers that never finish with 408', async () => {
    const res = await exchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: `);
    expectContractAnswer(res, 408, 'Request timeout', 'request_timeout');
    await expectServing();
  });

  it('answers a body that never finishes with 408, and the request never runs', async () => {
    const { key } = await makeKey(t.app);
    const body = JSON.stringify({ first_name: 'Slow', last_name: 'Poke', email: 'slow.poke@example.com' });
    const res = await exchange(
      `POST ${API}/customer/employees/ HTTP/1.1\r\nHost: x\r\napiKey: ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, -1)}`,
    );
    expectContractAnswer(res, 408, 'Request timeout', 'request_timeout');
    expect(await employeeCount(key)).toBe(0);
    await expectServing();
  });

  it('closes a connection that never sends a byte without answering', async () => {
    const res = await exchange(Buffer.alloc(0));
    expect(res).toEqual({ text: '', closed: true });
    await expectServing();
  });
});

describe('requests Node would answer itself', () => {
  it('answers an HTTP/1.1 request without Host, or with two, with 400', async () => {
    const without = await exchange(`GET /healthz HTTP/1.1\r\n\r\n`);
    expectContractAnswer(without, 400, 'Host header required', 'host_required');
    const twice = await exchange(get('/healthz', 'Host: a.example\r\nHost: b.example\r\n'));
    expectContractAnswer(twice, 400, 'Invalid Host header', 'invalid_host');
    // HTTP/1.0 has no Host requirement.
    const old = parse((await exchange('GET /healthz HTTP/1.0\r\n\r\n')).text);
    expect(old.statusLine).toBe('HTTP/1.1 200 OK');
    expect(old.body).toBe('{"status":"ok"}');
  });

  it('answers an Expect other than 100-continue with 417', async () => {
    const res = await exchange(get('/healthz', 'Host: x\r\nExpect: something-else\r\n'));
    expectContractAnswer(res, 417, 'Expectation failed', 'expectation_failed');
    await expectServing();
  });

  it('answers Expect: 100-continue with a body over the limit with 413, without inviting the body', async () => {
    const { key } = await makeKey(t.app);
    const res = await exchange(
      `POST ${API}/customer/employees/ HTTP/1.1\r\nHost: x\r\napiKey: ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(res.text).not.toContain('100 Continue');
    const answer = parse(res.text);
    expect(answer.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer.headers['x-api-version']).toBe('2.2.0');
    expect(JSON.parse(answer.body)).toEqual({
      error: 'Payload too large',
      status: 413,
      code: 'payload_too_large',
      request_id: answer.headers['x-request-id'],
    });
    expect(res.closed).toBe(true);
  });

  it('sends 100 Continue once the body is read, then answers the request', async () => {
    const { key } = await makeKey(t.app);
    const body = JSON.stringify({ first_name: 'Ada', last_name: 'Byron', email: 'ada.byron@example.com' });
    let sent = false;
    const res = await exchange(
      `POST ${API}/customer/employees/ HTTP/1.1\r\nHost: x\r\napiKey: ${key}\r\nConnection: close\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
      {
        afterData: (text) => {
          if (sent || !text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) return undefined;
          sent = true;
          return body;
        },
      },
    );
    expect(sent).toBe(true);
    const answer = parse(res.text.slice('HTTP/1.1 100 Continue\r\n\r\n'.length));
    expect(answer.statusLine).toBe('HTTP/1.1 201 Created');
    expect(JSON.parse(answer.body)).toMatchObject({ email: 'ada.byron@example.com' });
    expect(await employeeCount(key)).toBe(1);
  });

  it('answers CONNECT with 400: this server is no proxy', async () => {
    const res = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectContractAnswer(res, 400, 'Bad request', 'bad_request');
    await expectServing();
  });
});

describe('unusual requests the app answers', () => {
  it('answers odd methods, absolute-form targets and HTTP/1.0 in the contract shape', async () => {
    // The contract states the 401's body exactly: no code there.
    const cases: [string, number, string, ErrorCode | undefined][] = [
      [
        `PROPFIND ${API}/customer/groups/ HTTP/1.1\r\nHost: x\r\n\r\n`,
        405,
        'Method not allowed',
        'method_not_allowed',
      ],
      ['TRACE /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'Method not allowed', 'method_not_allowed'],
      [`QUERY ${API}/nothing/ HTTP/1.1\r\nHost: x\r\n\r\n`, 404, 'Not found', 'not_found'],
      [`GET http://x${API}/customer/groups/ HTTP/1.1\r\nHost: x\r\n\r\n`, 401, 'API key required', undefined],
      [`GET ${API}/customer/groups/ HTTP/1.0\r\n\r\n`, 401, 'API key required', undefined],
      ['GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'Bad request', 'bad_request'],
    ];
    for (const [request, status, error, code] of cases) {
      const answer = parse(
        (await exchange(request.replace(/\r\n\r\n$/, '\r\nConnection: close\r\n\r\n'))).text,
      );
      expect(answer.statusLine, request).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
      expect(answer.headers['x-api-version'], request).toBe('2.2.0');
      expect(answer.headers['content-type'], request).toBe('application/json; charset=utf-8');
      const extra = code ? { code, request_id: answer.headers['x-request-id'] } : {};
      expect(answer.body, request).toBe(JSON.stringify({ error, status, ...extra }));
    }
    await expectServing();
  });
});
