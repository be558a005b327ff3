import { beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount, makeKey } from '../../../../test/helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const customerGet = (key: string, path = 'groups') =>
  t.app.inject({ method: 'GET', url: `/api/api_gateway/customer/${path}/`, headers: { apikey: key } });

describe('the Integration area (API keys in the admin API)', () => {
  it('creates a key shown once, which works against the Customer API until it is revoked', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const base = `/admin/api/accounts/${account.id}/keys`;
    const created = await t.app.inject({
      method: 'POST',
      url: base,
      headers: admin.headers,
      payload: { name: 'HR sync', permissions: ['groups:read', 'employees:read', 'employees:write'] },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({
      name: 'HR sync',
      permissions: ['employees:read', 'employees:write', 'groups:read'],
      rate_limit: 600,
      status: 'active',
      last_used_at: null,
      expires_at: null,
    });
    expect(key.key).toMatch(/^vgl_[0-9A-Za-z]{40}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    expect((await customerGet(key.key)).statusCode).toBe(200);
    expect((await customerGet(key.key, 'campaigns/training')).statusCode).toBe(403);

    const list = await t.app.inject({ method: 'GET', url: base, headers: admin.headers });
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: key.id, prefix: key.prefix }] });
    expect(list.body).not.toContain(key.key);

    const revoked = await t.app.inject({
      method: 'POST',
      url: `${base}/${key.id}/revoke`,
      headers: admin.headers,
    });
    expect(revoked.json()).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    const refused = await customerGet(key.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: 'Invalid API key', status: 401 });
  });

  it('refuses a key without a name or permissions, an unknown permission, or a past expiry', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${account.id}/keys`,
      headers: admin.headers,
      payload: { name: '', permissions: ['groups:admin'], expires_at: '2001-01-01T00:00:00Z' },
    });
    expect(res.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: {
        name: ['must not be empty'],
        expires_at: ['must be in the future'],
        permissions: ['unknown permission "groups:admin"'],
      },
    });
    const none = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${account.id}/keys`,
      headers: admin.headers,
      payload: { name: 'x', permissions: [], expires_at: 'next tuesday' },
    });
    expect(none.json().details).toEqual({
      expires_at: ['must be a date and time (ISO 8601)'],
      permissions: ['must grant at least one permission'],
    });
    const list = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${account.id}/keys`,
      headers: admin.headers,
    });
    expect(list.json().count).toBe(0);
  });

  it("lets an operator raise a key's budget, which the Customer API then reports", async () => {
    const account = await makeAccount(t.app);
    const operator = await signInAs(t.app, { role: 'operator' });
    const base = `/admin/api/accounts/${account.id}/keys`;
    const created = (
      await t.app.inject({
        method: 'POST',
        url: base,
        headers: operator.headers,
        payload: { name: 'Big sync', permissions: ['groups:read'], expires_at: '2099-01-01T00:00:00.000Z' },
      })
    ).json();
    expect(created.expires_at).toBe('2099-01-01T00:00:00.000Z');
    const raised = await t.app.inject({
      method: 'PATCH',
      url: `${base}/${created.id}`,
      headers: operator.headers,
      payload: { rate_limit: 5000 },
    });
    expect(raised.json()).toMatchObject({ rate_limit: 5000 });
    expect((await customerGet(created.key)).headers['ratelimit-limit']).toBe('5000');
    const tooHigh = await t.app.inject({
      method: 'PATCH',
      url: `${base}/${created.id}`,
      headers: operator.headers,
      payload: { rate_limit: 0 },
    });
    expect(tooHigh.json().details).toEqual({ rate_limit: ['must be an integer from 1 to 1000000'] });
    const unknown = await t.app.inject({
      method: 'PATCH',
      url: `${base}/999999`,
      headers: operator.headers,
      payload: { rate_limit: 700 },
    });
    expect(unknown.json()).toEqual({
      error: 'API key not found',
      status: 404,
      ...coded('api_key_not_found'),
    });
  });

  it("answers 404 for another account's key under one's own account, and leaves it alone", async () => {
    const mine = await makeAccount(t.app);
    const theirs = await makeKey(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: mine.id });
    const operator = await signInAs(t.app, { role: 'operator' });
    const base = `/admin/api/accounts/${mine.id}/keys/${theirs.keyId}`;
    const notFound = { error: 'API key not found', status: 404, ...coded('api_key_not_found') };
    const revoke = await t.app.inject({ method: 'POST', url: `${base}/revoke`, headers: admin.headers });
    expect(revoke.json()).toEqual(notFound);
    // Even an operator acts in the account of the path: the key is not this account's.
    const rebudget = await t.app.inject({
      method: 'PATCH',
      url: base,
      headers: operator.headers,
      payload: { rate_limit: 5 },
    });
    expect(rebudget.json()).toEqual(notFound);
    const res = await customerGet(theirs.key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-limit']).toBe('100000');
  });
});
