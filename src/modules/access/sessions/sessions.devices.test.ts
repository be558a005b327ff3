import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, signIn, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { describeDevice } from './sessions.devices.service.js';

// Item 5 of issue 23: each administrator sees their sessions and ends any; an owner ends
// another's; disabling an administrator ends theirs at once and refuses their sign-in.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

async function signInWith(email: string, userAgent: string) {
  const start = await t.app.inject({ method: 'GET', url: '/admin/api/session' });
  const cookie = start.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/api/session',
    headers: { cookie, 'x-csrf-token': start.json().csrf_token, 'user-agent': userAgent },
    payload: { email, password: ADMIN_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const jar = new Map(start.cookies.map((c) => [c.name, c.value]));
  for (const c of res.cookies) jar.set(c.name, c.value);
  return {
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': res.json().csrf_token as string,
    'user-agent': userAgent,
  };
}

describe('sessions an administrator can see and end', () => {
  it('names the browser and system of a User-Agent, and says so when there is none', () => {
    expect(describeDevice(CHROME_LINUX)).toBe('Chrome 156 on Linux');
    expect(describeDevice(SAFARI_IPHONE)).toBe('Safari 18 on iOS');
    expect(describeDevice(null)).toBe('Unknown browser');
    expect(describeDevice('x'.repeat(400))).toBe('Unknown browser');
  });

  it('lists your sessions with device, address and method, and ends one of them', async () => {
    const account = await makeAccount(t.app);
    const first = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const laptop = await signInWith(first.email, CHROME_LINUX);
    const phone = await signInWith(first.email, SAFARI_IPHONE);

    const listed = await t.app.inject({ method: 'GET', url: '/admin/api/session/sessions', headers: laptop });
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json().results;
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ device: 'Chrome 156 on Linux', method: 'password', current: true });
    expect(sessions.map((s: { device: string }) => s.device)).toContain('Safari 18 on iOS');
    expect(sessions[0].address).toBe('127.0.0.1');
    expect(sessions[0].id).toMatch(/^[0-9a-f]{24}$/);

    const phoneSession = sessions.find((s: { device: string }) => s.device === 'Safari 18 on iOS');
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/session/sessions/${phoneSession.id}`,
      headers: laptop,
    });
    expect(ended.statusCode).toBe(204);
    const afterwards = await t.app.inject({ method: 'GET', url: '/admin/api/session', headers: phone });
    expect(afterwards.json().user).toBeNull();
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/session/sessions/${phoneSession.id}`,
      headers: laptop,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'session_not_found' });

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_label', 'object_id'])
      .where('account_id', '=', account.id)
      .where('action', '=', 'session.ended')
      .execute();
    expect(audit).toEqual([
      { action: 'session.ended', actor_label: first.email, object_id: phoneSession.id },
    ]);
  });

  it('never lists or ends another administrator’s session through your own routes', async () => {
    const account = await makeAccount(t.app);
    const ann = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const bob = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const bobs = (
      await t.app.inject({ method: 'GET', url: '/admin/api/session/sessions', headers: bob.headers })
    ).json().results;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/session/sessions/${bobs[0].id}`,
      headers: ann.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/api/session', headers: bob.headers })).json().user,
    ).not.toBeNull();
  });

  it('lets an owner see and end another administrator’s sessions', async () => {
    const account = await makeAccount(t.app);
    const owner = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const other = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const base = `/admin/api/accounts/${account.id}/admins/${other.user.id}/sessions`;
    const listed = await t.app.inject({ method: 'GET', url: base, headers: owner.headers });
    expect(listed.json()).toMatchObject({ count: 1, results: [{ current: false, method: 'password' }] });
    const ended = await t.app.inject({ method: 'DELETE', url: base, headers: owner.headers });
    expect(ended.json()).toEqual({ ended: 1 });
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/api/session', headers: other.headers })).json().user,
    ).toBeNull();
    const elsewhere = await makeAccount(t.app);
    const stranger = await signInAs(t.app, { role: 'account_admin', accountId: elsewhere.id });
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${account.id}/admins/${stranger.user.id}/sessions`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('disabling an administrator', () => {
  it('ends their sessions at once, refuses their sign-in, and is undone by enabling', async () => {
    const account = await makeAccount(t.app);
    const owner = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const other = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const base = `/admin/api/accounts/${account.id}/admins/${other.user.id}`;

    const disabled = await t.app.inject({ method: 'POST', url: `${base}/disable`, headers: owner.headers });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().disabled_at).toEqual(expect.any(String));
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/api/session', headers: other.headers })).json().user,
    ).toBeNull();
    await expect(signIn(t.app, other.email)).rejects.toThrow(/403.*admin_disabled/);

    const enabled = await t.app.inject({ method: 'POST', url: `${base}/enable`, headers: owner.headers });
    expect(enabled.json().disabled_at).toBeNull();
    expect((await signIn(t.app, other.email)).user.id).toBe(other.user.id);

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('account_id', '=', account.id)
      .where('action', 'in', ['admin.disabled', 'admin.enabled'])
      .orderBy('seq')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['admin.disabled', 'admin.enabled']);
    expect(JSON.parse(audit[0]?.changes ?? '{}')).toEqual({
      disabled: { from: false, to: true },
      sessions_ended: { from: 1, to: 0 },
    });
  });

  it('refuses to disable yourself or the last enabled owner', async () => {
    const account = await makeAccount(t.app);
    const owner = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const self = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${account.id}/admins/${owner.user.id}/disable`,
      headers: owner.headers,
    });
    expect(self.statusCode).toBe(409);
    expect(self.json()).toMatchObject({ code: 'self_change_refused' });
    const operator = await signInAs(t.app, { role: 'operator' });
    const last = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${account.id}/admins/${owner.user.id}/disable`,
      headers: operator.headers,
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'last_owner' });
  });
});
