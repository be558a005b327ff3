import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, anonymousClient, cookieHeader, signIn, signInAs } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { makeAccount, makeKey } from './helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ SIGN_IN_LIMIT_PER_EMAIL: '4' });
});

const sessionCookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'vigil_session');

describe('sign-in', () => {
  it('sets an HttpOnly, SameSite session cookie scoped to /admin, and tells who is signed in', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const res = await t.app.inject({ method: 'GET', url: '/admin/api/session', headers: admin.headers });
    expect(res.json()).toMatchObject({
      user: { email: admin.email, role: 'account_admin', account_id: account.id },
      setup_required: true,
    });

    const start = await anonymousClient(t.app);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: start.headers,
      payload: { email: admin.email.toUpperCase(), password: ADMIN_PASSWORD },
    });
    expect(signedIn.statusCode).toBe(200);
    const setCookie = String(signedIn.headers['set-cookie']);
    expect(setCookie).toMatch(/vigil_session=[\w-]{43}; Max-Age=\d+; Path=\/admin; HttpOnly; SameSite=Lax/);
    expect(setCookie).not.toContain('Secure');
  });

  it('marks the cookie Secure when the request came over TLS through a trusted proxy', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: 'true' });
    const admin = await signInAs(proxied.app, { role: 'operator' });
    const start = await anonymousClient(proxied.app);
    const res = await proxied.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: { ...start.headers, 'x-forwarded-proto': 'https' },
      payload: { email: admin.email, password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/vigil_session=[^;]+;.*Secure/);
  });

  it('answers a wrong password and an unknown address alike, and sets no session', async () => {
    const admin = await signInAs(t.app, { role: 'operator' });
    for (const [email, password] of [
      [admin.email, 'not the password at all'],
      ['nobody@example.com', ADMIN_PASSWORD],
    ]) {
      const start = await anonymousClient(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: start.headers,
        payload: { email, password },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: 'Invalid email or password',
        status: 401,
        ...coded('invalid_credentials'),
      });
      expect(sessionCookieOf(res)).toBeUndefined();
    }
  });

  it('issues a new session id at every sign-in; the old one stops working', async () => {
    const first = await signInAs(t.app, { role: 'operator' });
    // The same browser signs in again: it sends its current cookies.
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: first.headers,
      payload: { email: first.email, password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const oldId = first.headers.cookie?.match(/vigil_session=([^;]+)/)?.[1];
    const newId = sessionCookieOf(res)?.value;
    expect(newId).toBeDefined();
    expect(newId).not.toBe(oldId);
    const stale = await t.app.inject({ method: 'GET', url: '/admin/api/accounts', headers: first.headers });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual({ error: 'Sign-in required', status: 401, ...coded('sign_in_required') });
    const fresh = await t.app.inject({
      method: 'GET',
      url: '/admin/api/accounts',
      headers: { cookie: cookieHeader(first.headers.cookie ?? '', res) },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('throttles repeated attempts for one address with 429 and Retry-After, even with the right password', async () => {
    const admin = await signInAs(t.app, { role: 'operator' }); // one attempt used
    const attempt = async (password: string) => {
      const start = await anonymousClient(t.app);
      return t.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: start.headers,
        payload: { email: admin.email, password },
      });
    };
    for (let i = 0; i < 3; i++) expect((await attempt('wrong password guess')).statusCode).toBe(401);
    const refused = await attempt(ADMIN_PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'Too many sign-in attempts',
      status: 429,
      ...coded('too_many_sign_ins'),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sessions', () => {
  it('signs out: 204, the cookie is cleared and the session no longer works', async () => {
    const admin = await signInAs(t.app, { role: 'operator' });
    const res = await t.app.inject({ method: 'DELETE', url: '/admin/api/session', headers: admin.headers });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/vigil_session=;.*Expires=Thu, 01 Jan 1970/);
    const after = await t.app.inject({ method: 'GET', url: '/admin/api/accounts', headers: admin.headers });
    expect(after.statusCode).toBe(401);
  });

  it('ends a session left idle too long, and one past its absolute end', async () => {
    for (const change of [
      { last_seen_at: Date.now() - 13 * 60 * 60 * 1000 },
      { expires_at: Date.now() - 1000 },
    ]) {
      const admin = await signInAs(t.app, { role: 'operator' });
      await t.app.db.updateTable('admin_sessions').set(change).where('user_id', '=', admin.user.id).execute();
      const res = await t.app.inject({ method: 'GET', url: '/admin/api/accounts', headers: admin.headers });
      expect(res.statusCode).toBe(401);
      const left = await t.app.db
        .selectFrom('admin_sessions')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', '=', admin.user.id)
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
    }
  });

  it('never accepts an API key in place of a session', async () => {
    const { key } = await makeKey(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/admin/api/accounts', headers: { apikey: key } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Sign-in required', status: 401, ...coded('sign_in_required') });
  });
});

describe('changing the password', () => {
  it('needs the current password, then signs out every other session and keeps this one', async () => {
    // An app of its own: this test signs in more often than the file's low per-email limit allows.
    const { app } = await buildTestApp();
    const here = await signInAs(app, { role: 'operator' });
    const elsewhere = await signIn(app, here.email);
    const change = (payload: object) =>
      app.inject({ method: 'POST', url: '/admin/api/session/password', headers: here.headers, payload });

    const wrong = await change({ current_password: 'not it at all', new_password: 'short' });
    expect(wrong.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: {
        new_password: ['must be at least 12 characters'],
        current_password: ['is not your current password'],
      },
    });
    expect(
      (await change({ current_password: ADMIN_PASSWORD, new_password: 'a brand new passphrase' })).statusCode,
    ).toBe(204);

    const get = (client: { headers: Record<string, string> }) =>
      app.inject({ method: 'GET', url: '/admin/api/accounts', headers: client.headers });
    expect((await get(here)).statusCode).toBe(200);
    expect((await get(elsewhere)).statusCode).toBe(401);
    await expect(signIn(app, here.email)).rejects.toThrow(/401/);
    expect((await signIn(app, here.email, 'a brand new passphrase')).user.id).toBe(here.user.id);
  });

  it('is refused without a session or without the CSRF token', async () => {
    const admin = await signInAs(t.app, { role: 'operator' });
    const payload = { current_password: ADMIN_PASSWORD, new_password: 'another long passphrase' };
    const anonymous = await t.app.inject({ method: 'POST', url: '/admin/api/session/password', payload });
    expect(anonymous.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/admin/api/session/password',
      headers: { cookie: admin.headers.cookie ?? '' },
      payload,
    });
    expect(forged.statusCode).toBe(403);
    expect((await signIn(t.app, admin.email)).user.id).toBe(admin.user.id);
  });
});

describe('removing an administrator', () => {
  it('lets an operator remove an account administrator, whose sessions end at once', async () => {
    const account = await makeAccount(t.app);
    const other = await makeAccount(t.app);
    const operator = await signInAs(t.app, { role: 'operator' });
    // Not an owner: removing administrators is the owners' (roles:write).
    const admin = await signInAs(t.app, {
      role: 'account_admin',
      accountId: account.id,
      accountRole: 'administrator',
    });
    const colleague = await signInAs(t.app, { role: 'account_admin', accountId: account.id });

    const byAdmin = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/accounts/${account.id}/admins/${colleague.user.id}`,
      headers: admin.headers,
    });
    expect(byAdmin.statusCode).toBe(403);
    const wrongAccount = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/accounts/${other.id}/admins/${admin.user.id}`,
      headers: operator.headers,
    });
    expect(wrongAccount.json()).toEqual({
      error: 'Administrator not found',
      status: 404,
      ...coded('admin_not_found'),
    });
    const anOperator = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/accounts/${account.id}/admins/${operator.user.id}`,
      headers: operator.headers,
    });
    expect(anOperator.statusCode).toBe(404);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/accounts/${account.id}/admins/${admin.user.id}`,
      headers: operator.headers,
    });
    expect(removed.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/admin/api/accounts', headers: admin.headers });
    expect(after.statusCode).toBe(401);
    await expect(signIn(t.app, admin.email)).rejects.toThrow(/401/);
    const list = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${account.id}/admins`,
      headers: operator.headers,
    });
    expect(list.json().results.map((a: { id: number }) => a.id)).toEqual([colleague.user.id]);
  });
});

describe('CSRF', () => {
  it('rejects a state-changing request without the token, and changes nothing', async () => {
    const operator = await signInAs(t.app, { role: 'operator' });
    const before = await t.app.db.selectFrom('accounts').select('id').execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/api/accounts',
      headers: { cookie: operator.headers.cookie ?? '' },
      payload: { name: 'Forged' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Invalid CSRF token', status: 403, ...coded('invalid_csrf_token') });
    expect(await t.app.db.selectFrom('accounts').select('id').execute()).toHaveLength(before.length);
  });

  it('rejects a token of another session, and the token from before sign-in', async () => {
    const operator = await signInAs(t.app, { role: 'operator' });
    const other = await signInAs(t.app, { role: 'operator' });
    const anonymous = await anonymousClient(t.app);
    for (const token of [other.headers['x-csrf-token'], anonymous.headers['x-csrf-token'], 'garbage']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/api/accounts',
        headers: { cookie: operator.headers.cookie ?? '', 'x-csrf-token': token ?? '' },
        payload: { name: 'Forged' },
      });
      expect(res.statusCode).toBe(403);
    }
  });

  it('protects sign-in itself (a login form posted from another site fails)', async () => {
    const admin = await signInAs(t.app, { role: 'operator' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      payload: { email: admin.email, password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(sessionCookieOf(res)).toBeUndefined();
  });
});

describe('roles and tenancy', () => {
  it('shows an account administrator only their own account; every other account is not found', async () => {
    const mine = await makeAccount(t.app, 'Mine');
    const theirs = await makeAccount(t.app, 'Theirs <script>alert(1)</script>');
    const theirKey = await makeKey(t.app, { accountId: theirs.id });
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: mine.id });
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.headers });

    expect((await get('/admin/api/accounts')).json()).toMatchObject({ count: 1, results: [{ id: mine.id }] });
    for (const path of [
      '',
      '/overview',
      '/keys',
      '/admins',
      '/invitations',
      '/employees',
      '/groups',
      '/campaigns',
    ]) {
      const res = await get(`/admin/api/accounts/${theirs.id}${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ error: 'Account not found', status: 404, ...coded('account_not_found') });
    }
    // Their key through my account's path: not found, and still working.
    const revoke = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${mine.id}/keys/${theirKey.keyId}/revoke`,
      headers: admin.headers,
    });
    expect(revoke.statusCode).toBe(404);
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/api_gateway/customer/groups/',
      headers: { apikey: theirKey.key },
    });
    expect(api.statusCode).toBe(200);
  });

  it('keeps operator-only actions from account administrators', async () => {
    const account = await makeAccount(t.app);
    const { keyId } = await makeKey(t.app, { accountId: account.id });
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const base = `/admin/api/accounts/${account.id}`;
    for (const [method, url, payload] of [
      ['POST', '/admin/api/accounts', { name: 'New' }],
      ['PATCH', base, { name: 'Renamed' }],
      ['PATCH', `${base}/keys/${keyId}`, { rate_limit: 5000 }],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: admin.headers, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({
        error: 'Operator access required',
        status: 403,
        ...coded('operator_required'),
      });
    }
    expect(
      (await t.app.db.selectFrom('accounts').select('name').where('id', '=', account.id).executeTakeFirst())
        ?.name,
    ).toBe(account.name);
  });

  it('lets an operator create, rename, search and open any account', async () => {
    const operator = await signInAs(t.app, { role: 'operator' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/api/accounts',
      headers: operator.headers,
      payload: { name: '  Globex 🚀  ' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Globex 🚀' });
    const id = created.json().id;
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/admin/api/accounts/${id}`,
      headers: operator.headers,
      payload: { name: 'Globex 100%_' },
    });
    expect(renamed.json()).toMatchObject({ id, name: 'Globex 100%_' });
    const found = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts?search=${encodeURIComponent('100%_')}`,
      headers: operator.headers,
    });
    expect(found.json()).toMatchObject({ count: 1, results: [{ id }] });
    const empty = await t.app.inject({
      method: 'PATCH',
      url: `/admin/api/accounts/${id}`,
      headers: operator.headers,
      payload: { name: ' ' },
    });
    expect(empty.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { name: ['must not be empty'] },
    });
    const overview = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${id}/overview`,
      headers: operator.headers,
    });
    expect(overview.json()).toMatchObject({ employees: 0, groups: 0, campaigns: 0, active_keys: 0 });
    expect(overview.json().reporting).toMatchObject({
      judged: 0,
      awaiting_verdict: 0,
      reporting_accuracy: null,
    });
  });

  it('answers unknown admin API paths with a JSON 404, and app pages with the app', async () => {
    const operator = await signInAs(t.app, { role: 'operator' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/admin/api/nothing-here',
      headers: operator.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found', status: 404, ...coded('not_found') });
    const page = await t.app.inject({ method: 'GET', url: '/admin/a/1/employees' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toMatch(/<script[^>]+src="\/admin\/assets\//);
  });
});

it('signs in with the password the helper set (sanity check of the helper itself)', async () => {
  const admin = await signInAs(t.app, { role: 'operator' });
  expect((await signIn(t.app, admin.email)).user.role).toBe('operator');
});
