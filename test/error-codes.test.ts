import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../src/core/errors.js';
import { ADMIN_PASSWORD, adminSender, anonymousClient, signInAs } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { client, makeAccount, makeEmployee, makeGroup, makeKey } from './helpers/factories.js';

// Errors carry a stable code and the request id, on the Customer API and the admin API, on
// whichever database the suite runs on (TEST_DATABASE_URL).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const PREFIX = '/api/api_gateway';

/** The body is the contract's error with this code, and `request_id` is the `X-Request-Id` header. */
function expectCode(res: LightMyRequestResponse, status: number, code: ErrorCode, error: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ error, status, code });
  expect(body.request_id).toBe(res.headers['x-request-id']);
  expect(body.request_id).toMatch(/\S/);
  return body;
}

describe('Customer API', () => {
  it('email_taken: a second employee with the same address (any case)', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const fields = { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' };
    expect((await api.post('/customer/employees/', fields)).statusCode).toBe(201);
    const again = await api.post('/customer/employees/', { ...fields, email: 'ANN@example.com' });
    expectCode(again, 409, 'email_taken', 'Email already exists');
  });

  it('group_not_found, invalid_employee_ids and precondition_failed on a group', async () => {
    const { accountId, key } = await makeKey(t.app);
    const api = client(t.app, key);
    const group = await makeGroup(t.app, accountId);
    const employee = await makeEmployee(t.app, accountId);

    expectCode(await api.get('/customer/groups/999999999/'), 404, 'group_not_found', 'Group not found');
    expectCode(await api.get('/customer/groups/abc/'), 404, 'group_not_found', 'Group not found');
    const unknown = await api.put(`/customer/groups/${group.id}/`, {
      employee_ids: [employee.id, 999_999_998],
    });
    expect(expectCode(unknown, 400, 'invalid_employee_ids', 'Invalid employee_ids').details).toEqual({
      invalid_ids: [999_999_998],
    });
    const stale = await api.put(
      `/customer/groups/${group.id}/`,
      { employee_ids: [] },
      { 'if-match': '"stale"' },
    );
    expectCode(stale, 412, 'precondition_failed', 'Precondition failed');
  });

  it('validation_failed with details, malformed_json, unsupported_media_type', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const invalid = await api.post('/customer/employees/', { first_name: 'A', last_name: 'B', email: 'a@b' });
    expect(expectCode(invalid, 400, 'validation_failed', 'Validation failed').details).toEqual({
      email: ['must be a valid email address'],
    });
    expectCode(await api.post('/customer/employees/', '{'), 400, 'malformed_json', 'Malformed JSON body');
    const text = await t.app.inject({
      method: 'POST',
      url: `${PREFIX}/customer/employees/`,
      headers: { apikey: key, 'content-type': 'text/plain' },
      payload: 'x',
    });
    expectCode(text, 415, 'unsupported_media_type', 'Unsupported media type');
  });

  it('not_found and method_not_allowed for routing, whatever the key', async () => {
    expectCode(
      await t.app.inject({ method: 'GET', url: `${PREFIX}/customer/nothing/` }),
      404,
      'not_found',
      'Not found',
    );
    const wrong = await t.app.inject({ method: 'DELETE', url: `${PREFIX}/customer/groups/` });
    expectCode(wrong, 405, 'method_not_allowed', 'Method not allowed');
    expect(wrong.headers.allow).toBe('GET, HEAD, POST');
  });

  it('rate_limited once the key’s budget is spent', async () => {
    const { key } = await makeKey(t.app, { rateLimit: 1 });
    const api = client(t.app, key);
    expect((await api.get('/customer/groups/')).statusCode).toBe(200);
    const limited = await api.get('/customer/groups/');
    expectCode(limited, 429, 'rate_limited', 'Rate limit exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers the request id the client sent', async () => {
    const { key } = await makeKey(t.app);
    const res = await client(t.app, key).get('/customer/employees/999999999/', {
      'x-request-id': 'trace-42.a',
    });
    expect(res.headers['x-request-id']).toBe('trace-42.a');
    expect(expectCode(res, 404, 'employee_not_found', 'Employee not found').request_id).toBe('trace-42.a');
  });

  it('keeps the authentication errors exactly as the contract states them, the request id in the header', async () => {
    const { key: readOnly } = await makeKey(t.app, { grants: ['groups:r'] });
    const cases: [Record<string, string>, number, string][] = [
      [{}, 401, 'API key required'],
      [{ apikey: 'vgl_nope' }, 401, 'Invalid API key'],
      [
        { apikey: readOnly, 'content-type': 'application/json' },
        403,
        'API key lacks write permission on groups',
      ],
    ];
    for (const [headers, status, error] of cases) {
      const res = await t.app.inject({
        method: status === 403 ? 'PUT' : 'GET',
        url: `${PREFIX}/customer/groups/1/`,
        headers,
        ...(status === 403 ? { payload: '{"employee_ids":[]}' } : {}),
      });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ error, status });
      expect(res.headers['x-request-id']).toMatch(/\S/);
    }
  });
});

describe('admin API', () => {
  const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

  it('sign_in_required without a session, invalid_credentials for a wrong password', async () => {
    expectCode(await send(undefined, 'GET', '/accounts'), 401, 'sign_in_required', 'Sign-in required');
    const admin = await signInAs(t.app, { role: 'operator' });
    const start = await anonymousClient(t.app);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: start.headers,
      payload: { email: admin.email, password: `${ADMIN_PASSWORD}!` },
    });
    expectCode(wrong, 401, 'invalid_credentials', 'Invalid email or password');
  });

  it('invalid_csrf_token, operator_required, account_not_found', async () => {
    const mine = await makeAccount(t.app);
    const theirs = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: mine.id });
    const forged = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${mine.id}/groups`,
      headers: { cookie: admin.headers.cookie ?? '' },
      payload: { name: 'Forged' },
    });
    expectCode(forged, 403, 'invalid_csrf_token', 'Invalid CSRF token');
    expectCode(
      await send(admin, 'POST', '/accounts', { name: 'Mine now' }),
      403,
      'operator_required',
      'Operator access required',
    );
    expectCode(
      await send(admin, 'GET', `/accounts/${theirs.id}/groups`),
      404,
      'account_not_found',
      'Account not found',
    );
  });

  it('email_taken and validation_failed on the same employee form the web interface sends', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    await makeEmployee(t.app, account.id, { email: 'bo@example.com' });
    const url = `/accounts/${account.id}/employees`;
    const taken = await send(admin, 'POST', url, {
      first_name: 'Bo',
      last_name: 'Chen',
      email: 'Bo@example.com',
    });
    expectCode(taken, 409, 'email_taken', 'Email already exists');
    const empty = await send(admin, 'POST', url, {
      first_name: '',
      last_name: 'Chen',
      email: 'bo2@example.com',
    });
    expect(expectCode(empty, 400, 'validation_failed', 'Validation failed').details).toEqual({
      first_name: ['must not be empty'],
    });
  });

  it('email_taken for an administrator’s address, worded for administrators', async () => {
    const account = await makeAccount(t.app);
    const operator = await signInAs(t.app, { role: 'operator' });
    const invite = await send(operator, 'POST', `/accounts/${account.id}/invitations`, {
      email: operator.email,
    });
    expectCode(invite, 409, 'email_taken', 'An administrator with this email already exists');
  });

  it('not_found for an unknown admin API path, and the resource’s own code for a missing object', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    expectCode(await send(admin, 'GET', '/nothing-here'), 404, 'not_found', 'Not found');
    expectCode(
      await send(admin, 'GET', `/accounts/${account.id}/groups/999999999`),
      404,
      'group_not_found',
      'Group not found',
    );
    expectCode(
      await send(admin, 'GET', `/accounts/${account.id}/campaigns/999999999`),
      404,
      'campaign_not_found',
      'Campaign not found',
    );
  });
});
