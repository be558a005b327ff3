import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, ERRORS, type ErrorCode } from './errors.js';
import { registerErrorHandler, toAppError } from './http/errors.js';
import { requestId } from './http/logging.js';

/** A bare app with the one error handler and a route that throws any catalogue error. */
async function thrower() {
  const app = Fastify({ genReqId: requestId });
  registerErrorHandler(app);
  app.get<{ Params: { code: ErrorCode } }>('/throw/:code', async (request) => {
    throw new AppError(request.params.code);
  });
  await app.ready();
  return app;
}

const EXACT: ErrorCode[] = ['api_key_required', 'invalid_api_key', 'forbidden'];

describe('the error catalogue', () => {
  it('gives every code one status, a message and a meaning; codes are snake_case and unique', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      const entry = ERRORS[code];
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      expect(entry.message, code).toMatch(/\w/);
      expect(entry.meaning, code).toMatch(/\w/);
    }
    // Listed by status, so the table reads in order.
    const statuses = ERROR_CODES.map((code) => ERRORS[code].status);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
  });

  it('renders every error it lists with its code, status and the request id', async () => {
    const app = await thrower();
    for (const code of ERROR_CODES) {
      const id = `test-${code}`;
      const res = await app.inject({ method: 'GET', url: `/throw/${code}`, headers: { 'x-request-id': id } });
      expect(res.statusCode, code).toBe(ERRORS[code].status);
      expect(res.headers['content-type'], code).toBe('application/json; charset=utf-8');
      if (EXACT.includes(code)) {
        // The contract states these bodies exactly (Customer API authentication).
        expect(res.json(), code).toEqual({ error: ERRORS[code].message, status: ERRORS[code].status });
      } else {
        expect(res.json(), code).toEqual({
          error: ERRORS[code].message,
          status: ERRORS[code].status,
          code,
          request_id: id,
        });
      }
    }
    await app.close();
  });

  it('keeps the exact contract bodies to the Customer API’s authentication errors', () => {
    expect(ERROR_CODES.filter((code) => new AppError(code).exactBody)).toEqual(EXACT);
  });

  it('maps what Fastify, plugins and the database throw onto codes', () => {
    const request = { body: undefined } as never;
    const cases: [unknown, ErrorCode][] = [
      [
        Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }),
        'unsupported_media_type',
      ],
      [
        Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }),
        'payload_too_large',
      ],
      [
        Object.assign(new Error('x'), { code: 'FST_CSRF_INVALID_TOKEN', statusCode: 403 }),
        'invalid_csrf_token',
      ],
      [
        Object.assign(new Error('x'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }),
        'malformed_json',
      ],
      [Object.assign(new Error('x'), { statusCode: 412 }), 'precondition_failed'],
      [Object.assign(new Error('x'), { statusCode: 414 }), 'uri_too_long'],
      [Object.assign(new Error('x'), { statusCode: 416 }), 'range_not_satisfiable'],
      [Object.assign(new Error('x'), { statusCode: 418 }), 'bad_request'],
      [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'service_unavailable'],
      [new TypeError('a bug'), 'internal_error'],
    ];
    for (const [thrown, code] of cases) expect(toAppError(thrown, request).code, code).toBe(code);
  });

  it('is the table of docs/errors.md, row for row', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z0-9_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toEqual(ERROR_CODES.map((code) => [code, ERRORS[code].status]));
  });
});
