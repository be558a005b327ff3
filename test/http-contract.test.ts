import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/core/errors.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { TEST_REDIS_URL } from './helpers/database.js';
import { coded } from './helpers/errors.js';
import { client, makeCampaign, makeEmployee, makeGroup, makeKey } from './helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const PREFIX = '/api/api_gateway';
const MiB = 1024 * 1024;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

/** Any request, exactly as given (no key unless the headers carry one). */
function send(method: Method, url: string, headers: Record<string, string> = {}, payload?: string) {
  return t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
}

async function accountWithGroup() {
  const { accountId, key } = await makeKey(t.app);
  const group = await makeGroup(t.app, accountId, 'Sales');
  const employee = await makeEmployee(t.app, accountId);
  return { accountId, key, group, employee, api: client(t.app, key) };
}

/**
 * What every error body must look like: the contract's error/status/details, status equal to
 * the HTTP status, plus the error's code (one the catalogue gives this status) and the request
 * id of the `X-Request-Id` header; nothing internal.
 */
function expectContractError(res: LightMyRequestResponse, status: number, error?: string) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(
    Object.keys(body).every((k) => ['error', 'status', 'code', 'details', 'request_id'].includes(k)),
  ).toBe(true);
  expect(body.status).toBe(status);
  expect(typeof body.error).toBe('string');
  if (error !== undefined) expect(body.error).toBe(error);
  if ('code' in body) {
    expect(ERRORS[body.code as ErrorCode]?.status, `code ${body.code}`).toBe(status);
    expect(body.request_id).toBe(res.headers['x-request-id']);
  } else {
    // Only the authentication errors, whose body the contract states exactly.
    expect(Object.keys(body).sort()).toEqual(['error', 'status']);
    expect(body.error).toMatch(/^(API key required|Invalid API key|API key lacks)/);
  }
  expect(res.body).not.toMatch(
    /stack|\bat .+:\d+:\d+|select |insert |sqlite|postgres|FST_|Error:|node_modules/i,
  );
}

describe('routing', () => {
  it('answers 404 Not found for unknown routes under the API prefix, whatever the key and body', async () => {
    const { key } = await makeKey(t.app);
    const paths = [
      PREFIX,
      `${PREFIX}/`,
      `${PREFIX}/customer/`,
      `${PREFIX}/customer/nothing/`,
      `${PREFIX}/customer/employees/1/extra/`,
      `${PREFIX}/customer/groups/1/members/1/`,
      `${PREFIX}/customer/campaigns/`,
      `${PREFIX}/customer/campaigns/vishing/`,
    ];
    const keys: Record<string, string>[] = [{}, { apikey: 'garbage' }, { apikey: key }];
    for (const path of paths) {
      for (const auth of keys) {
        const res = await send('GET', path, auth);
        expect(res.statusCode, `${path} ${JSON.stringify(auth)}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Not found', status: 404, ...coded('not_found') });
      }
      for (const [type, body] of [
        ['application/json', '{broken'],
        ['text/plain', 'hello'],
      ]) {
        const res = await send('POST', path, { 'content-type': type! }, body);
        expect(res.statusCode, `POST ${path} ${type}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Not found', status: 404, ...coded('not_found') });
      }
    }
    const huge = await send(
      'POST',
      `${PREFIX}/customer/nothing/`,
      { 'content-type': 'application/json' },
      '[' + ' '.repeat(16 * MiB) + ']',
    );
    expect(huge.json()).toEqual({ error: 'Not found', status: 404, ...coded('not_found') });
  });

  it('answers 405 Method not allowed with an Allow header, whatever the key and body', async () => {
    const { key } = await makeKey(t.app, { grants: ['employees:r'] });
    const { key: full } = await makeKey(t.app);
    const cases: Array<[Method, string, string]> = [
      ['DELETE', '/customer/groups/', 'GET, HEAD, POST'],
      ['PATCH', '/customer/groups/', 'GET, HEAD, POST'],
      ['PUT', '/customer/groups/', 'GET, HEAD, POST'],
      ['POST', '/customer/groups/1/', 'DELETE, GET, HEAD, PATCH, PUT'],
      ['POST', '/customer/groups/1', 'DELETE, GET, HEAD, PATCH, PUT'],
      ['GET', '/customer/groups/1/members/', 'DELETE, POST'],
      ['PUT', '/customer/employees/', 'GET, HEAD, POST'],
      ['PUT', '/customer/employees/7/', 'DELETE, GET, HEAD, PATCH'],
      ['POST', '/customer/employees/7/', 'DELETE, GET, HEAD, PATCH'],
      ['POST', '/customer/campaigns/training/', 'GET, HEAD'],
      // The paths of v2.3's bulk upsert and deleted ids share their segment with an id's routes.
      ['PUT', '/customer/employees/bulk/', 'DELETE, GET, HEAD, PATCH, POST'],
      ['POST', '/customer/employees/deleted/', 'DELETE, GET, HEAD, PATCH'],
      ['POST', '/customer/groups/deleted/', 'DELETE, GET, HEAD, PATCH, PUT'],
      ['PUT', '/customer/webhooks/endpoints/', 'GET, HEAD, POST'],
      ['POST', '/customer/webhooks/endpoints/3/', 'DELETE, GET, HEAD, PATCH'],
      ['GET', '/customer/webhooks/endpoints/3/rotate-secret/', 'POST'],
      ['POST', '/customer/webhooks/endpoints/3/deliveries/', 'GET, HEAD'],
      ['GET', '/customer/webhooks/endpoints/3/deliveries/4/resend/', 'POST'],
      ['OPTIONS', '/customer/employees/', 'GET, HEAD, POST'],
    ];
    const variants: Array<[Record<string, string>, string | undefined]> = [
      [{}, undefined],
      [{ apikey: 'vgl_nope' }, undefined],
      [{ apikey: key, 'content-type': 'application/json' }, '{broken'],
      [{ apikey: full, 'content-type': 'text/plain' }, 'hello'],
      [{ apikey: full, 'content-type': 'application/json' }, '{"employee_ids":[]}'],
    ];
    for (const [method, path, allow] of cases) {
      for (const [headers, body] of variants) {
        const res = await send(method, `${PREFIX}${path}`, headers, body);
        const label = `${method} ${path} ${JSON.stringify(headers)}`;
        expect(res.statusCode, label).toBe(405);
        expect(res.headers.allow, label).toBe(allow);
        expect(res.json()).toEqual({
          error: 'Method not allowed',
          status: 405,
          ...coded('method_not_allowed'),
        });
      }
    }
  });

  it('serves every route with or without the trailing slash, without redirecting', async () => {
    const { api, group, employee } = await accountWithGroup();
    await makeCampaign(t.app, (await makeKey(t.app)).accountId);
    const reads = [
      '/customer/employees/',
      `/customer/employees/${employee.id}/`,
      '/customer/groups/',
      `/customer/groups/${group.id}/`,
      '/customer/campaigns/training/',
    ];
    for (const path of reads) {
      const a = await api.get(path);
      const b = await api.get(path.slice(0, -1));
      expect(a.statusCode, path).toBe(200);
      expect(b.statusCode, path).toBe(200);
      expect(b.json()).toEqual(a.json());
    }
    const put = await api.put(`/customer/groups/${group.id}`, { employee_ids: [employee.id] });
    expect(put.statusCode).toBe(200);
    expect(put.json().employee_count).toBe(1);
    const post = await api.post('/customer/employees', {
      first_name: 'No',
      last_name: 'Slash',
      email: 'noslash@example.com',
    });
    expect(post.statusCode).toBe(201);
    const queried = await api.get('/customer/employees?email=noslash@example.com');
    expect(queried.json().results).toEqual([post.json()]);
  });

  it('answers URLs the router cannot decode in the contract shape', async () => {
    const { key } = await makeKey(t.app);
    const bad = await send('GET', `${PREFIX}/customer/groups/%E0%A4%A/`, { apikey: key });
    expectContractError(bad, 400, 'Bad request');
    expect(bad.headers['x-api-version']).toBe('2.2.0');
    const long = await send('GET', `${PREFIX}/customer/groups/${'1'.repeat(9000)}/`, { apikey: key });
    expectContractError(long, 414, 'URI too long');
    expect(long.headers['x-api-version']).toBe('2.2.0');
    // A long non-numeric or out-of-range id is just an id that does not exist.
    const longButAllowed = await send('GET', `${PREFIX}/customer/groups/${'1'.repeat(1200)}/`, {
      apikey: key,
    });
    expect(longButAllowed.json()).toEqual({
      error: 'Group not found',
      status: 404,
      ...coded('group_not_found'),
    });
  });
});

describe('request bodies', () => {
  it('answers 415 Unsupported media type to a body that is not JSON, or that has no content type', async () => {
    const { api, group, key } = await accountWithGroup();
    const employee = JSON.stringify({ first_name: 'A', last_name: 'B', email: 'media@example.com' });
    const put = JSON.stringify({ employee_ids: [] });
    for (const [method, url, body] of [
      ['POST', '/customer/employees/', employee],
      ['PUT', `/customer/groups/${group.id}/`, put],
    ] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', undefined]) {
        const headers: Record<string, string> = { apikey: key };
        if (type) headers['content-type'] = type;
        const res = await send(method, `${PREFIX}${url}`, headers, body);
        expect(res.statusCode, `${method} ${type}`).toBe(415);
        expect(res.json()).toEqual({
          error: 'Unsupported media type',
          status: 415,
          ...coded('unsupported_media_type'),
        });
      }
    }
    expect((await api.get('/customer/employees/?email=media@example.com')).json().count).toBe(0);
  });

  it('accepts application/json with a charset parameter', async () => {
    const { key } = await makeKey(t.app);
    const res = await send(
      'POST',
      `${PREFIX}/customer/employees/`,
      { apikey: key, 'content-type': 'application/json; charset=utf-8' },
      JSON.stringify({ first_name: 'Zoë', last_name: 'Ørsted', email: 'zoe@example.com' }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ first_name: 'Zoë', last_name: 'Ørsted' });
  });

  it('answers 400 Malformed JSON body to invalid JSON and to an empty or absent body', async () => {
    const { group, key } = await accountWithGroup();
    for (const url of ['/customer/employees/', `/customer/groups/${group.id}/`]) {
      const method = url.includes('groups') ? 'PUT' : 'POST';
      for (const body of ['{', '{"first_name": "A",}', "{'a': 1}", 'undefined', '{"a":1}}', '']) {
        const res = await send(
          method,
          `${PREFIX}${url}`,
          { apikey: key, 'content-type': 'application/json' },
          body,
        );
        expect(res.statusCode, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toEqual({ error: 'Malformed JSON body', status: 400, ...coded('malformed_json') });
      }
      const none = await send(method, `${PREFIX}${url}`, { apikey: key });
      expect(none.statusCode, `${method} without body`).toBe(400);
      expect(none.json()).toEqual({ error: 'Malformed JSON body', status: 400, ...coded('malformed_json') });
    }
  });

  it('accepts a body of about 4 MiB and answers 413 Payload too large above the limit', async () => {
    const { api, group, employee, key } = await accountWithGroup();
    const padded = `{"employee_ids": [${employee.id}]${' '.repeat(4.5 * MiB)}}`;
    const ok = await api.put(`/customer/groups/${group.id}/`, padded);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().employee_count).toBe(1);

    const entries = Math.ceil((4.2 * MiB) / (String(employee.id).length + 1));
    const repeated = JSON.stringify({ employee_ids: Array(entries).fill(employee.id) });
    expect(repeated.length).toBeGreaterThan(4 * MiB);
    const many = await api.put(`/customer/groups/${group.id}/`, repeated);
    expect(many.statusCode).toBe(200);
    expect(many.json().employee_count).toBe(1);

    const tooLarge = await send(
      'PUT',
      `${PREFIX}/customer/groups/${group.id}/`,
      { apikey: key, 'content-type': 'application/json' },
      `{"employee_ids": []${' '.repeat(16 * MiB)}}`,
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      error: 'Payload too large',
      status: 413,
      ...coded('payload_too_large'),
    });
    const post = await api.post(
      '/customer/employees/',
      `{"first_name":"A","last_name":"B","email":"big@example.com"}${' '.repeat(16 * MiB)}`,
    );
    expect(post.json()).toEqual({ error: 'Payload too large', status: 413, ...coded('payload_too_large') });
    expect((await api.get('/customer/employees/?email=big@example.com')).json().count).toBe(0);
  });
});

describe('order of checks', () => {
  it('routing → 401 → 403 → 400 → 404 → 412 → 400 Invalid employee_ids', async () => {
    const { accountId, api, group } = await accountWithGroup();
    const { key: readOnly } = await makeKey(t.app, { accountId, grants: ['groups:r'] });
    const etag = (await api.get(`/customer/groups/${group.id}/`)).headers.etag as string;
    const url = `${PREFIX}/customer/groups/${group.id}/`;
    const json = { 'content-type': 'application/json' };

    // Routing beats everything.
    expect((await send('POST', url, json, '{broken')).statusCode).toBe(405);
    // Authentication before permission and body.
    const noKey = await send('PUT', url, { 'content-type': 'text/plain' }, 'x');
    expect(noKey.json()).toEqual({ error: 'API key required', status: 401 });
    const badKey = await send('PUT', url, { ...json, apikey: 'vgl_bad' }, '{broken');
    expect(badKey.json()).toEqual({ error: 'Invalid API key', status: 401 });
    const bigNoKey = await send('PUT', url, json, `{}${' '.repeat(16 * MiB)}`);
    expect(bigNoKey.json()).toEqual({ error: 'API key required', status: 401 });
    // Permission before the body.
    for (const [headers, body] of [
      [json, '{broken'],
      [{ 'content-type': 'text/plain' }, 'x'],
      [json, `{}${' '.repeat(16 * MiB)}`],
      [json, '{"employee_ids": "x"}'],
    ] as const) {
      const res = await send('PUT', url, { ...headers, apikey: readOnly }, body);
      expect(res.json()).toEqual({ error: 'API key lacks write permission on groups', status: 403 });
    }
    const forbiddenUnknownGroup = await send(
      'PUT',
      `${PREFIX}/customer/groups/abc/`,
      { ...json, apikey: readOnly },
      '{}',
    );
    expect(forbiddenUnknownGroup.statusCode).toBe(403);
    // Validation before existence.
    for (const id of ['999999', 'abc']) {
      const res = await api.put(`/customer/groups/${id}/`, { employee_ids: 'x' });
      expect(res.json()).toMatchObject({ error: 'Validation failed', status: 400 });
    }
    // Existence before the precondition.
    const missing = await api.put(
      '/customer/groups/999999/',
      { employee_ids: [] },
      { 'if-match': '"stale"' },
    );
    expect(missing.json()).toEqual({ error: 'Group not found', status: 404, ...coded('group_not_found') });
    // Precondition before the employee ids.
    const stale = await api.put(
      `/customer/groups/${group.id}/`,
      { employee_ids: [999_999_999] },
      { 'if-match': '"stale"' },
    );
    expect(stale.json()).toEqual({
      error: 'Precondition failed',
      status: 412,
      ...coded('precondition_failed'),
    });
    const fresh = await api.put(
      `/customer/groups/${group.id}/`,
      { employee_ids: [999_999_999] },
      { 'if-match': etag },
    );
    expect(fresh.json()).toEqual({
      error: 'Invalid employee_ids',
      status: 400,
      ...coded('invalid_employee_ids'),
      details: { invalid_ids: [999_999_999] },
    });
    // And nothing changed along the way.
    const after = await api.get(`/customer/groups/${group.id}/`);
    expect(after.headers.etag).toBe(etag);
  });

  it('POST /customer/employees/: 401 → 403 → 400 → 409', async () => {
    const { accountId, key } = await makeKey(t.app);
    const { key: readOnly } = await makeKey(t.app, { accountId, grants: ['employees:r'] });
    const url = `${PREFIX}/customer/employees/`;
    const json = { 'content-type': 'application/json' };
    expect((await send('POST', url, json, '{')).json()).toEqual({ error: 'API key required', status: 401 });
    expect((await send('POST', url, { ...json, apikey: readOnly }, '{')).statusCode).toBe(403);
    const body = JSON.stringify({ first_name: 'A', last_name: 'B', email: 'order@example.com' });
    expect((await send('POST', url, { ...json, apikey: key }, body)).statusCode).toBe(201);
    const invalidDuplicate = JSON.stringify({ first_name: '', last_name: 'B', email: 'order@example.com' });
    expect((await send('POST', url, { ...json, apikey: key }, invalidDuplicate)).json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { first_name: ['must not be empty'] },
    });
    expect((await send('POST', url, { ...json, apikey: key }, body)).statusCode).toBe(409);
  });
});

describe('headers on every response', () => {
  async function assorted() {
    const { api, group, key } = await accountWithGroup();
    const { key: noGroups } = await makeKey(t.app, { grants: ['employees:r'] });
    await api.post('/customer/employees/', { first_name: 'A', last_name: 'B', email: 'dup@example.com' });
    return {
      'GET /healthz': await send('GET', '/healthz'),
      'GET /readyz': await send('GET', '/readyz'),
      '200 list': await api.get('/customer/groups/'),
      '200 detail': await api.get(`/customer/groups/${group.id}/`),
      '201 create': await api.post('/customer/employees/', {
        first_name: 'A',
        last_name: 'B',
        email: 'x@example.com',
      }),
      '400 validation': await api.post('/customer/employees/', {}),
      '400 malformed': await api.post('/customer/employees/', '{'),
      '400 page': await api.get('/customer/groups/?page=0'),
      '401 missing': await send('GET', `${PREFIX}/customer/groups/`),
      '401 invalid': await send('GET', `${PREFIX}/customer/groups/`, { apikey: 'nope' }),
      '403': await client(t.app, noGroups).get('/customer/groups/'),
      '404 route': await send('GET', `${PREFIX}/nothing/`),
      '404 root route': await send('GET', '/nothing'),
      '404 group': await api.get('/customer/groups/999999/'),
      '404 page': await api.get('/customer/groups/?page=9'),
      '405': await send('DELETE', `${PREFIX}/customer/campaigns/training/`),
      '409': await api.post('/customer/employees/', {
        first_name: 'A',
        last_name: 'B',
        email: 'DUP@example.com',
      }),
      '412': await api.put(`/customer/groups/${group.id}/`, { employee_ids: [] }, { 'if-match': '"x"' }),
      '413': await api.post('/customer/employees/', `{}${' '.repeat(16 * MiB)}`),
      '415': await send(
        'POST',
        `${PREFIX}/customer/employees/`,
        { apikey: key, 'content-type': 'text/plain' },
        'x',
      ),
      '400 bad url': await send('GET', `${PREFIX}/customer/groups/%E0%A4%A/`),
    };
  }

  it('carries X-API-Version: 2.2.0, errors included', async () => {
    for (const [label, res] of Object.entries(await assorted())) {
      expect(res.headers['x-api-version'], label).toBe('2.2.0');
    }
  });

  it('answers as 2.3.0 when a client pins it, and on the operations 2.3.0 added; bodies stay the same', async () => {
    const { key } = await accountWithGroup();
    const json = { apikey: key, 'content-type': 'application/json' };
    const list = `${PREFIX}/customer/employees/`;
    const plain = await send('GET', list, { apikey: key });
    const pinned = await send('GET', list, { apikey: key, 'x-api-version': '2.3' });
    expect(plain.headers['x-api-version']).toBe('2.2.0');
    expect(pinned.headers['x-api-version']).toBe('2.3.0');
    expect(pinned.body).toBe(plain.body);
    for (const pin of ['2.2.0', '9.9', 'latest', '']) {
      const res = await send('GET', list, { apikey: key, 'x-api-version': pin });
      expect(res.headers['x-api-version'], pin).toBe('2.2.0');
    }
    const created = await send(
      'POST',
      `${PREFIX}/customer/groups/`,
      json,
      JSON.stringify({ name: 'Pinned' }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.headers['x-api-version']).toBe('2.3.0');
    const refused = await send(
      'POST',
      `${PREFIX}/customer/groups/`,
      { 'content-type': 'application/json' },
      '{}',
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-api-version']).toBe('2.3.0');
  });

  it('carries the security headers', async () => {
    const responses = await assorted();
    for (const [label, res] of Object.entries(responses)) {
      expect(res.headers['x-content-type-options'], label).toBe('nosniff');
    }
    for (const [label, res] of Object.entries(responses)) {
      if (label === '400 bad url') continue; // refused by the router before any hook runs
      expect(res.headers['x-frame-options'], label).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy'], label).toContain("default-src 'self'");
      expect(res.headers['referrer-policy'], label).toBe('no-referrer');
      expect(res.headers['strict-transport-security'], label).toMatch(/max-age=\d+/);
      expect(res.headers['x-powered-by'], label).toBeUndefined();
    }
  });

  it('renders every error in the contract shape, without anything internal', async () => {
    const statuses: Record<string, number> = {};
    for (const [label, res] of Object.entries(await assorted())) {
      if (res.statusCode < 400) continue;
      expectContractError(res, res.statusCode);
      statuses[label] = res.statusCode;
    }
    expect(Object.values(statuses).sort()).toEqual(
      [400, 400, 400, 400, 401, 401, 403, 404, 404, 404, 404, 405, 409, 412, 413, 415].sort(),
    );
  });
});

describe('authentication header', () => {
  it('reads the apiKey header whatever the case of its name (over a real connection)', async () => {
    const { accountId, key } = await makeKey(t.app);
    await makeEmployee(t.app, accountId);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: `${PREFIX}/customer/employees/`, headers },
          (res) => {
            let body = '';
            res.on('data', (d) => {
              body += d;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    for (const name of ['apiKey', 'apikey', 'APIKEY', 'ApiKey']) {
      const res = await get({ [name]: key });
      expect(res.status, name).toBe(200);
      expect(JSON.parse(res.body).count).toBe(1);
    }
    const wrongName = await get({ 'api-key': key });
    expect(wrongName.status).toBe(401);
    expect(JSON.parse(wrongName.body)).toEqual({ error: 'API key required', status: 401 });
  });

  it('tolerates whitespace around the key', async () => {
    const { key } = await makeKey(t.app);
    const res = await send('GET', `${PREFIX}/customer/employees/`, { apikey: `  ${key} ` });
    expect(res.statusCode).toBe(200);
  });
});

describe('Host header', () => {
  it('refuses a Host no URL can hold with 400, before creating anything', async () => {
    const { key, accountId } = await makeKey(t.app);
    const res = await send(
      'POST',
      `${PREFIX}/customer/employees/`,
      { apikey: key, host: 'bad host', 'content-type': 'application/json' },
      JSON.stringify({ first_name: 'A', last_name: 'B', email: 'host@example.com' }),
    );
    expectContractError(res, 400, 'Invalid Host header');
    const list = await client(t.app, key).get('/customer/employees/');
    expect(list.json().count).toBe(0);
    await makeEmployee(t.app, accountId);
    const page = await send('GET', `${PREFIX}/customer/employees/`, { apikey: key, host: 'a:99999999' });
    expectContractError(page, 400, 'Invalid Host header');
  });
});

describe('health', () => {
  it('GET /healthz answers 200 {"status":"ok"} without a key', async () => {
    const res = await send('GET', '/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 while the database answers', async () => {
    const res = await send('GET', '/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: TEST_REDIS_URL ? 'ok' : 'off' },
    });
  });
});

describe('unexpected failures', () => {
  let broken: TestApp;
  beforeAll(async () => {
    broken = await buildTestApp();
  });

  it('answer 500 Internal server error without SQL, and log the cause', async () => {
    const { key } = await makeKey(broken.app);
    // Its dependents first: PostgreSQL refuses to drop a table others reference.
    for (const table of [
      'messages',
      'campaign_reminders',
      'quiz_attempts',
      'enrollment_courses',
      'enrollments',
      'campaign_courses',
      'campaign_groups',
      'training_campaigns',
    ]) {
      await sql.raw(`drop table ${table}`).execute(broken.app.db);
    }
    const res = await broken.app.inject({
      method: 'GET',
      url: `${PREFIX}/customer/campaigns/training/`,
      headers: { apikey: key },
    });
    expect(res.json()).toEqual({ error: 'Internal server error', status: 500, ...coded('internal_error') });
    expectContractError(res, 500, 'Internal server error');
    expect(res.headers['x-api-version']).toBe('2.2.0');
    expect(broken.logs.join('')).toMatch(/training_campaigns/);
  });
});
