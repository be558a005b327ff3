import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/modules/access/sessions/sessions.cookie.service.js';
import { ADMIN_PASSWORD, anonymousClient, signIn, signInAs } from './helpers/admin.js';
import { buildTestApp } from './helpers/app.js';
import { client, makeAccount } from './helpers/factories.js';
import { scimClient } from './helpers/scim.js';

/**
 * The audit log holds no secret: after a run of changes that make, use, rotate and revoke every
 * kind of secret (passwords, a failed sign-in's password, session tokens, an API key, a SCIM
 * token, a webhook's signing secrets), every column of every row is searched for each of them.
 */

describe('the audit log holds no secret', () => {
  it('after keys, tokens, passwords, sessions and webhook secrets were made, used and changed', async () => {
    const { app } = await buildTestApp({ SIGN_IN_LIMIT_PER_ADDRESS: '10000' });
    const account = await makeAccount(app);
    const admin = await signInAs(app, { role: 'account_admin', accountId: account.id });
    const base = `/admin/api/accounts/${account.id}`;
    const as = (headers: Record<string, string>) => ({
      get: (url: string) => app.inject({ method: 'GET', url, headers }),
      send: (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
        app.inject({ method, url, headers, ...(payload ? { payload } : {}) }),
    });
    const web = as(admin.headers);
    const secrets: Record<string, string> = { password: ADMIN_PASSWORD };
    const sessionOf = (cookie: string | undefined) =>
      /(?:^|; )vigil_session=([^;]+)/.exec(cookie ?? '')?.[1] as string;
    secrets.session = sessionOf(admin.headers.cookie);
    expect(SESSION_COOKIE).toBe('vigil_session');

    // An API key made, used and revoked.
    const key = await web.send('POST', `${base}/keys`, {
      name: 'SIEM',
      permissions: ['groups:write', 'groups:read', 'audit:read'],
    });
    expect(key.statusCode, key.body).toBe(201);
    const apiKey: string = key.json().key;
    secrets.apiKey = apiKey;
    const api = client(app, apiKey);
    expect((await api.post('/customer/groups/', { name: 'Made by the key' })).statusCode).toBe(201);

    // A SCIM token made and used.
    const scim = await web.send('POST', `${base}/scim-tokens`, { name: 'Okta' });
    expect(scim.statusCode, scim.body).toBe(201);
    const scimToken: string = scim.json().token;
    secrets.scimToken = scimToken;
    const created = await scimClient(app, scimToken).post('/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'ann.lee@example.com',
      name: { givenName: 'Ann', familyName: 'Lee' },
      emails: [{ value: 'ann.lee@example.com', primary: true }],
    });
    expect(created.statusCode, created.body).toBe(201);

    // A webhook endpoint, its secret rotated; both secrets are secrets.
    const hook = await web.send('POST', `${base}/webhooks/endpoints`, { url: 'https://hooks.example.com/v' });
    expect(hook.statusCode, hook.body).toBe(201);
    secrets.webhookSecret = hook.json().secret;
    const rotated = await web.send('POST', `${base}/webhooks/endpoints/${hook.json().id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const revealed = await web.get(`${base}/webhooks/endpoints/${hook.json().id}/secret`);
    secrets.webhookSecretAfter = revealed.json().secret;
    expect(secrets.webhookSecretAfter).not.toBe(secrets.webhookSecret);

    // A refused sign-in with a wrong password, a password change, a new session, a sign-out.
    const wrong = 'not the password at all, surely';
    secrets.wrongPassword = wrong;
    const start = await anonymousClient(app);
    const refused = await app.inject({
      method: 'POST',
      url: '/admin/api/session',
      headers: start.headers,
      payload: { email: admin.email, password: wrong },
    });
    expect(refused.statusCode).toBe(401);
    const next = 'a brand new long passphrase';
    secrets.newPassword = next;
    const changed = await web.send('POST', '/admin/api/session/password', {
      current_password: ADMIN_PASSWORD,
      new_password: next,
    });
    expect(changed.statusCode, changed.body).toBe(204);
    const again = await signIn(app, admin.email, next);
    secrets.secondSession = sessionOf(again.headers.cookie);
    expect((await as(again.headers).send('DELETE', '/admin/api/session')).statusCode).toBe(204);
    expect((await api.post(`/customer/groups/`, { name: 'Second' })).statusCode).toBe(201);
    expect((await web.send('POST', `${base}/keys/${key.json().id}/revoke`)).statusCode).toBe(200);

    const hashes = await app.db.selectFrom('admin_users').select('password_hash').execute();
    hashes.forEach((h, i) => {
      secrets[`passwordHash${i}`] = h.password_hash;
    });
    for (const [name, value] of Object.entries(secrets)) expect(value, name).toMatch(/.{8,}/);

    const rows = await app.db.selectFrom('audit_log').selectAll().execute();
    // What was done is there: the log is not simply empty.
    const actions = new Set(rows.map((r) => r.action));
    for (const action of [
      'api_key.created',
      'api_key.revoked',
      'scim_token.created',
      'employee.created',
      'webhook.created',
      'webhook.secret_rotated',
      'admin.signed_in',
      'admin.sign_in_failed',
      'admin.password_changed',
      'admin.signed_out',
      'group.created',
    ]) {
      expect(actions, action).toContain(action);
    }
    const text = rows.map((r) => Object.values(r).map(String).join('\u0000')).join('\n');
    for (const [name, value] of Object.entries(secrets)) {
      expect(text.includes(value), `${name} is in the audit log`).toBe(false);
    }
    // The actors are named: the key by its name and prefix, never the whole key.
    expect(rows.filter((r) => r.actor_kind === 'api_key').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.actor_kind === 'scim_token').length).toBeGreaterThan(0);
    expect(rows.find((r) => r.action === 'admin.sign_in_failed')?.actor_label).toBe(admin.email);
  });
});
