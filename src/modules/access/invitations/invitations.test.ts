import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  type AdminClient,
  anonymousClient,
  cookieHeader,
  signIn,
  signInAs,
} from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { createSetupLink } from './invitations.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

/** An operator invites `email` to administer an account (`headers` added to theirs). */
function invite(
  operator: AdminClient,
  accountId: number,
  email: string,
  { app = t.app, headers = {} }: { app?: FastifyInstance; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url: `/admin/api/accounts/${accountId}/invitations`,
    headers: { ...operator.headers, ...headers },
    payload: { email },
  });
}

async function accept(token: string, payload: Record<string, unknown>) {
  const start = await anonymousClient(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: `/admin/api/invitations/${token}/accept`,
    headers: start.headers,
    payload,
  });
  return { res, cookie: cookieHeader(start.headers.cookie ?? '', res) };
}

describe('first-run setup link', () => {
  it('makes the first operator, signs them in, and works only once', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/admin/api/session' });
    expect(before.json().setup_required).toBe(true);
    const { token } = await createSetupLink(t.app.db);

    const link = await t.app.inject({ method: 'GET', url: `/admin/api/invitations/${token}` });
    expect(link.json()).toMatchObject({ kind: 'setup', email: null, role: 'operator', account: null });

    const weak = await accept(token, { email: 'ops@example.com', password: 'short' });
    expect(weak.res.statusCode).toBe(400);
    expect(weak.res.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { password: ['must be at least 12 characters'] },
    });

    const done = await accept(token, { email: 'Ops@Example.com', password: ADMIN_PASSWORD, name: 'Olga' });
    expect(done.res.statusCode).toBe(200);
    expect(done.res.json().user).toMatchObject({ email: 'Ops@Example.com', role: 'operator', name: 'Olga' });
    const session = await t.app.inject({
      method: 'GET',
      url: '/admin/api/session',
      headers: { cookie: done.cookie },
    });
    expect(session.json()).toMatchObject({ user: { role: 'operator' }, setup_required: false });

    const again = await accept(token, { email: 'second@example.com', password: ADMIN_PASSWORD });
    expect(again.res.statusCode).toBe(404);
    expect(again.res.json()).toEqual({
      error: 'This link is not valid or has expired',
      status: 404,
      ...coded('invalid_link'),
    });
    expect((await signIn(t.app, 'ops@example.com')).user.role).toBe('operator');
  });

  it('stops an older setup link from working when a new one is made', async () => {
    const older = await createSetupLink(t.app.db);
    await createSetupLink(t.app.db);
    const res = await t.app.inject({ method: 'GET', url: `/admin/api/invitations/${older.token}` });
    expect(res.statusCode).toBe(404);
  });

  it('answers a malformed or unknown token with the same 404', async () => {
    for (const token of ['x', 'A'.repeat(43), '%00', '..%2F..%2Fetc']) {
      const res = await t.app.inject({ method: 'GET', url: `/admin/api/invitations/${token}` });
      expect(res.statusCode, token).toBe(404);
    }
  });
});

describe('invitations of account administrators', () => {
  it('lets an operator invite by email; the link (shown once) makes an administrator of that account only', async () => {
    const account = await makeAccount(t.app, 'Initech');
    const other = await makeAccount(t.app);
    const operator = await signInAs(t.app, { role: 'operator' });
    const base = `/admin/api/accounts/${account.id}`;
    const invited = await invite(operator, account.id, 'peter@initech.example');
    expect(invited.statusCode).toBe(201);
    const { url, id } = invited.json();
    // Without PUBLIC_URL, the address the server listens on (HOST and PORT when not listening).
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/admin\/invite\/[\w-]{43}$/);
    const token = url.split('/').pop();

    const pending = await t.app.inject({
      method: 'GET',
      url: `${base}/invitations`,
      headers: operator.headers,
    });
    expect(pending.json()).toMatchObject({ count: 1, results: [{ id, email: 'peter@initech.example' }] });
    expect(pending.body).not.toContain(token);

    const link = await t.app.inject({ method: 'GET', url: `/admin/api/invitations/${token}` });
    expect(link.json()).toMatchObject({
      kind: 'invite',
      email: 'peter@initech.example',
      role: 'account_admin',
      account: { id: account.id, name: 'Initech' },
    });
    // The invited address is the invitation's: a different one in the body is ignored.
    const done = await accept(token, { email: 'mallory@evil.example', password: ADMIN_PASSWORD });
    expect(done.res.json().user).toMatchObject({
      email: 'peter@initech.example',
      role: 'account_admin',
      account_id: account.id,
    });
    const mine = await t.app.inject({ method: 'GET', url: base, headers: { cookie: done.cookie } });
    expect(mine.statusCode).toBe(200);
    const notMine = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${other.id}`,
      headers: { cookie: done.cookie },
    });
    expect(notMine.statusCode).toBe(404);

    const admins = await t.app.inject({ method: 'GET', url: `${base}/admins`, headers: operator.headers });
    expect(admins.json()).toMatchObject({ count: 1, results: [{ email: 'peter@initech.example' }] });
    const after = await t.app.inject({
      method: 'GET',
      url: `${base}/invitations`,
      headers: operator.headers,
    });
    expect(after.json().count).toBe(0);
  });

  it('refuses to invite an address that already signs in, and revokes a pending invitation', async () => {
    const account = await makeAccount(t.app);
    const operator = await signInAs(t.app, { role: 'operator' });
    const base = `/admin/api/accounts/${account.id}`;
    const taken = await invite(operator, account.id, operator.email);
    expect(taken.statusCode).toBe(409);
    const bad = await invite(operator, account.id, 'not-an-address');
    expect(bad.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { email: ['must be a valid email address'] },
    });

    const invited = await invite(operator, account.id, 'temp@example.com');
    const token = invited.json().url.split('/').pop();
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `${base}/invitations/${invited.json().id}`,
      headers: operator.headers,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await accept(token, { password: ADMIN_PASSWORD })).res.statusCode).toBe(404);
    const twice = await t.app.inject({
      method: 'DELETE',
      url: `${base}/invitations/${invited.json().id}`,
      headers: operator.headers,
    });
    expect(twice.json()).toEqual({
      error: 'Invitation not found',
      status: 404,
      ...coded('invitation_not_found'),
    });
  });

  it('ends the session the browser had when a link is accepted, as signing in does', async () => {
    const account = await makeAccount(t.app);
    const operator = await signInAs(t.app, { role: 'operator' });
    const invited = await invite(operator, account.id, 'handover@example.com');
    const token = invited.json().url.split('/').pop();
    // Accepted in the operator's browser: the new administrator's session replaces theirs.
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/admin/api/invitations/${token}/accept`,
      headers: operator.headers,
      payload: { password: ADMIN_PASSWORD },
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().user).toMatchObject({ role: 'account_admin', account_id: account.id });
    const sessionOf = async (cookie: string) =>
      (await t.app.inject({ method: 'GET', url: '/admin/api/session', headers: { cookie } })).json().user;
    expect(await sessionOf(operator.headers.cookie!)).toBeNull();
    expect(await sessionOf(cookieHeader(operator.headers.cookie!, accepted))).toMatchObject({
      email: 'handover@example.com',
    });
  });

  it('lets one of two simultaneous acceptances of a link win', async () => {
    const account = await makeAccount(t.app);
    const operator = await signInAs(t.app, { role: 'operator' });
    const invited = await invite(operator, account.id, 'race@example.com');
    const token = invited.json().url.split('/').pop();
    const results = await Promise.all([1, 2, 3].map(() => accept(token, { password: ADMIN_PASSWORD })));
    expect(results.map((r) => r.res.statusCode).sort()).toEqual([200, 404, 404].sort());
  });
});

describe('links shown to an operator', () => {
  it('are built from PUBLIC_URL, whatever Host or X-Forwarded-Host the request carried', async () => {
    const behindProxy = await buildTestApp({
      PUBLIC_URL: 'https://training.example.com/vigil/',
      TRUST_PROXY: 'true',
    });
    const account = await makeAccount(behindProxy.app);
    const operator = await signInAs(behindProxy.app, { role: 'operator' });
    for (const forged of [
      { host: 'evil.example' } as Record<string, string>,
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    ]) {
      const invited = await invite(operator, account.id, `${Object.keys(forged).length}@initech.example`, {
        app: behindProxy.app,
        headers: forged,
      });
      expect(invited.statusCode).toBe(201);
      expect(invited.json().url).toMatch(
        /^https:\/\/training\.example\.com\/vigil\/admin\/invite\/[\w-]{43}$/,
      );
    }
  });
});
