import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  type AdminClient,
  adminSender,
  anonymousClient,
  cookieHeader,
  signIn,
} from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import type { AccountRole } from '../../../core/db/schema.js';
import { createAdmin } from '../admins/admins.service.js';
import { inviteAdmin } from '../invitations/invitations.service.js';
import { hasSecondFactor } from './mfa.service.js';

// Multi-factor authentication for local sign-in: TOTP, recovery codes, the pending session, the
// account's and the operator's requirement, an owner's reset, and the audit log (no secret in it).

let t: TestApp;
let send: ReturnType<typeof adminSender>;
beforeAll(async () => {
  // Generous per-address budget (every sign-in of this file counts), a small per-email one.
  t = await buildTestApp({ SIGN_IN_LIMIT_PER_ADDRESS: '10000', SIGN_IN_LIMIT_PER_EMAIL: '8' });
  send = adminSender(t.app);
});

let counter = 0;
async function newAdmin(
  app: FastifyInstance,
  accountId: number | null,
  accountRole: AccountRole | null = 'owner',
): Promise<{ id: number; email: string }> {
  counter += 1;
  const email = `mfa-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const admin = await createAdmin(app.db, {
    email,
    password: ADMIN_PASSWORD,
    role: accountId === null ? 'operator' : 'account_admin',
    accountId,
  });
  if (accountId !== null) {
    await app.db
      .updateTable('admin_users')
      .set({ account_role: accountRole })
      .where('id', '=', admin.id)
      .execute();
  }
  return { id: admin.id, email };
}

/** A TOTP code of `steps` steps from now (the window accepts -1, 0, +1). */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Enrols an authenticator app for a signed-in client; returns its secret and recovery codes. */
async function enrolTotp(client: AdminClient, app = t.app) {
  const s = adminSender(app);
  const start = await s(client, 'POST', '/mfa/totp');
  expect(start.statusCode).toBe(200);
  const { factor_id, secret, qr_code, otpauth_url } = start.json();
  expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(otpauth_url).toContain(`secret=${secret}`);
  const done = await s(client, 'POST', '/mfa/totp/confirm', {
    factor_id,
    code: await codeAt(secret, -1),
    name: 'Phone',
  });
  expect(done.statusCode).toBe(200);
  return {
    secret: secret as string,
    recoveryCodes: done.json().recovery_codes as string[],
    factorId: factor_id,
  };
}

/** The client after a second step answered 200: its new session cookie and CSRF token. */
function advanced(client: AdminClient, res: Awaited<ReturnType<typeof send>>): AdminClient {
  return {
    ...client,
    headers: {
      cookie: cookieHeader(client.headers.cookie ?? '', res),
      'x-csrf-token': res.json().csrf_token,
    },
  };
}

describe('TOTP enrolment and the second step', () => {
  it('enrols with a first code, then signs in only after a code, each code used once', async () => {
    const accountId = (await makeAccount(t.app)).id;
    const me = await newAdmin(t.app, accountId);
    const full = await signIn(t.app, me.email);
    expect((await send(full, 'GET', '/mfa')).json()).toEqual({
      factors: [],
      recovery_codes_left: 0,
      required: false,
    });

    const start = await send(full, 'POST', '/mfa/totp');
    const wrong = await send(full, 'POST', '/mfa/totp/confirm', {
      factor_id: start.json().factor_id,
      code: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(await hasSecondFactor(t.app.db, me.id)).toBe(false);

    const { secret, recoveryCodes } = await enrolTotp(full);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await hasSecondFactor(t.app.db, me.id)).toBe(true);
    const overview = (await send(full, 'GET', '/mfa')).json();
    expect(overview).toMatchObject({ recovery_codes_left: 10, factors: [{ kind: 'totp', name: 'Phone' }] });

    // The password now opens a session that can do nothing but the second step.
    const pending = await signIn(t.app, me.email);
    const session = (await send(pending, 'GET', '/session')).json();
    expect(session).toMatchObject({ mfa_pending: 'verify', mfa_methods: ['totp', 'recovery_code'] });
    for (const [method, url] of [
      ['GET', `/accounts/${accountId}/admins`],
      ['GET', '/mfa'],
      ['POST', '/mfa/totp'],
      ['POST', '/mfa/recovery-codes'],
      ['POST', '/session/mfa/enrolled'],
    ] as const) {
      const res = await send(pending, method, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({
        error: 'Second step of sign-in required',
        status: 401,
        ...coded('mfa_required'),
        details: { state: 'verify' },
      });
    }

    const bad = await send(pending, 'POST', '/session/mfa', { totp_code: '123456' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({
      error: 'Invalid code or passkey',
      status: 401,
      ...coded('invalid_mfa_code'),
    });

    const code = await codeAt(secret, 1);
    const ok = await send(pending, 'POST', '/session/mfa', { totp_code: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ user: { email: me.email }, mfa_pending: null });
    const signedIn = advanced(pending, ok);
    expect((await send(signedIn, 'GET', `/accounts/${accountId}/admins`)).statusCode).toBe(200);
    // The waiting session ended: a new id.
    expect((await send(pending, 'GET', '/mfa')).statusCode).toBe(401);
    expect((await send(pending, 'GET', '/mfa')).json().code).toBe('sign_in_required');

    // The same code again, in another sign-in within its window: refused.
    const again = await signIn(t.app, me.email);
    const replay = await send(again, 'POST', '/session/mfa', { totp_code: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('invalid_mfa_code');

    // A recovery code works once (typed in capitals, without its dash).
    const recovery = recoveryCodes[0] ?? '';
    const viaRecovery = await send(again, 'POST', '/session/mfa', {
      recovery_code: recovery.replace('-', '').toUpperCase(),
    });
    expect(viaRecovery.statusCode).toBe(200);
    const third = await signIn(t.app, me.email);
    const used = await send(third, 'POST', '/session/mfa', { recovery_code: recovery });
    expect(used.statusCode).toBe(401);
    expect(used.json().code).toBe('invalid_mfa_code');

    // Not zero, not two proofs at once.
    expect((await send(third, 'POST', '/session/mfa', {})).statusCode).toBe(400);
    expect(
      (await send(third, 'POST', '/session/mfa', { totp_code: '123456', recovery_code: recovery }))
        .statusCode,
    ).toBe(400);

    // New recovery codes void the old ones.
    const fresh = await send(signedIn, 'POST', '/mfa/recovery-codes');
    expect(fresh.statusCode).toBe(200);
    const newCodes = fresh.json().recovery_codes as string[];
    const old = await send(third, 'POST', '/session/mfa', { recovery_code: recoveryCodes[1] });
    expect(old.json().code).toBe('invalid_mfa_code');
    expect((await send(third, 'POST', '/session/mfa', { recovery_code: newCodes[0] })).statusCode).toBe(200);

    // The audit log has every step, and never the seed nor a code.
    const rows = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    const actions = rows.map((r) => r.action);
    for (const action of [
      'mfa.enrolled',
      'admin.mfa_failed',
      'admin.mfa_verified',
      'mfa.recovery_codes_regenerated',
    ]) {
      expect(actions).toContain(action);
    }
    const everything = JSON.stringify(await t.app.db.selectFrom('audit_log').selectAll().execute());
    const normalized = (c: string) => c.replace('-', '');
    for (const secretText of [
      secret,
      ...recoveryCodes,
      ...recoveryCodes.map(normalized),
      ...newCodes,
      code,
    ]) {
      expect(everything).not.toContain(secretText);
    }
    // The seed is stored sealed.
    const stored = JSON.stringify(await t.app.db.selectFrom('admin_mfa_factors').selectAll().execute());
    expect(stored).not.toContain(secret);
  });

  it('throttles the second step like the password (429 with Retry-After)', async () => {
    const accountId = (await makeAccount(t.app)).id;
    const me = await newAdmin(t.app, accountId);
    await enrolTotp(await signIn(t.app, me.email));
    const pending = await signIn(t.app, me.email);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 9; i++) {
      last = await send(pending, 'POST', '/session/mfa', { totp_code: '000000' });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    expect(last?.json().code).toBe('too_many_sign_ins');
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('renames and removes factors; without a factor the password signs in fully again', async () => {
    const accountId = (await makeAccount(t.app)).id;
    const me = await newAdmin(t.app, accountId);
    const full = await signIn(t.app, me.email);
    const { factorId } = await enrolTotp(full);
    const renamed = await send(full, 'PATCH', `/mfa/factors/${factorId}`, { name: 'Old phone' });
    expect(renamed.json()).toMatchObject({ id: factorId, name: 'Old phone', kind: 'totp' });
    expect((await send(full, 'PATCH', `/mfa/factors/${factorId}`, { name: ' ' })).statusCode).toBe(400);
    expect((await send(full, 'DELETE', `/mfa/factors/${factorId + 1000}`)).json().code).toBe(
      'mfa_factor_not_found',
    );
    expect((await send(full, 'DELETE', `/mfa/factors/${factorId}`)).statusCode).toBe(204);
    expect((await send(full, 'GET', '/mfa')).json()).toMatchObject({ factors: [], recovery_codes_left: 0 });
    const again = await signIn(t.app, me.email);
    expect((await send(again, 'GET', '/session')).json().mfa_pending).toBeNull();
    const actions = (
      await t.app.db.selectFrom('audit_log').select('action').where('account_id', '=', accountId).execute()
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['mfa.enrolled', 'mfa.renamed', 'mfa.removed']));
  });

  it('refuses a passkey answer that is garbage, or without a challenge', async () => {
    const accountId = (await makeAccount(t.app)).id;
    const me = await newAdmin(t.app, accountId);
    await enrolTotp(await signIn(t.app, me.email));
    const pending = await signIn(t.app, me.email);
    const garbage = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'not-json', authenticatorData: 'x', signature: 'y' },
    };
    const res = await send(pending, 'POST', '/session/mfa', { passkey: garbage });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_mfa_code');
    const options = await send(pending, 'POST', '/session/mfa/passkey-options');
    expect(options.statusCode).toBe(200);
    expect(options.json()).toMatchObject({ challenge: expect.any(String), rpId: 'localhost' });
    expect((await send(pending, 'POST', '/session/mfa', { passkey: garbage })).json().code).toBe(
      'invalid_mfa_code',
    );
    const full = await signIn(t.app, (await newAdmin(t.app, accountId)).email);
    const register = await send(full, 'POST', '/mfa/passkeys', { response: garbage });
    expect(register.statusCode).toBe(400);
    await send(full, 'POST', '/mfa/passkeys/options');
    const registerAgain = await send(full, 'POST', '/mfa/passkeys', { response: garbage });
    expect(registerAgain.json()).toMatchObject({
      details: { response: ['is not a valid passkey registration'] },
    });
  });
});

describe('required MFA', () => {
  it('an owner requires it: those without a factor can only enrol, then their session is full', async () => {
    const accountId = (await makeAccount(t.app)).id;
    const owner = await signIn(t.app, (await newAdmin(t.app, accountId)).email);
    const colleague = await newAdmin(t.app, accountId, 'administrator');

    const notOwner = await signIn(t.app, colleague.email);
    const refused = await send(notOwner, 'PUT', `/accounts/${accountId}/security/mfa`, { require_mfa: true });
    expect(refused.statusCode).toBe(403);

    const set = await send(owner, 'PUT', `/accounts/${accountId}/security/mfa`, { require_mfa: true });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ require_mfa: true, required_by_operator: false });
    expect(
      (await send(owner, 'PUT', `/accounts/${accountId}/security/mfa`, { require_mfa: 'yes' })).statusCode,
    ).toBe(400);

    const pending = await signIn(t.app, colleague.email);
    expect((await send(pending, 'GET', '/session')).json()).toMatchObject({
      mfa_pending: 'enrol',
      mfa_methods: [],
    });
    const blocked = await send(pending, 'GET', `/accounts/${accountId}/admins`);
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json()).toMatchObject({ code: 'mfa_required', details: { state: 'enrol' } });
    // Second-step routes are not for them (nothing to verify), and they cannot finish before enrolling.
    expect((await send(pending, 'POST', '/session/mfa', { totp_code: '123456' })).json().code).toBe(
      'mfa_required',
    );
    const early = await send(pending, 'POST', '/session/mfa/enrolled');
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('mfa_enrolment_required');

    expect((await send(pending, 'GET', '/mfa')).json()).toMatchObject({ required: true });
    const { factorId } = await enrolTotp(pending);
    // Still pending until the enrolment is finished: a new session id.
    expect((await send(pending, 'GET', `/accounts/${accountId}/admins`)).statusCode).toBe(401);
    const finished = await send(pending, 'POST', '/session/mfa/enrolled');
    expect(finished.statusCode).toBe(200);
    expect(finished.json().mfa_pending).toBeNull();
    const full = advanced(pending, finished);
    expect((await send(full, 'GET', `/accounts/${accountId}/admins`)).statusCode).toBe(200);

    // The last factor stays while MFA is required.
    const last = await send(full, 'DELETE', `/mfa/factors/${factorId}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('last_mfa_factor');

    const overview = (await send(owner, 'GET', `/accounts/${accountId}/security/mfa`)).json();
    expect(overview.administrators).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: colleague.id, factors: 1 })]),
    );

    // Only an owner resets another's factors; their sessions end and they enrol again.
    expect((await send(full, 'DELETE', `/accounts/${accountId}/admins/${colleague.id}/mfa`)).statusCode).toBe(
      403,
    );
    const reset = await send(owner, 'DELETE', `/accounts/${accountId}/admins/${colleague.id}/mfa`);
    expect(reset.statusCode).toBe(204);
    expect((await send(full, 'GET', '/mfa')).json().code).toBe('sign_in_required');
    expect(await hasSecondFactor(t.app.db, colleague.id)).toBe(false);
    const afterReset = await signIn(t.app, colleague.email);
    expect((await send(afterReset, 'GET', '/session')).json().mfa_pending).toBe('enrol');
    const other = await makeAccount(t.app);
    expect(
      (
        await send(
          owner,
          'DELETE',
          `/accounts/${accountId}/admins/${(await newAdmin(t.app, other.id)).id}/mfa`,
        )
      ).json().code,
    ).toBe('admin_not_found');

    const actions = (
      await t.app.db.selectFrom('audit_log').select('action').where('account_id', '=', accountId).execute()
    ).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['security_settings.updated', 'mfa.enrolled', 'mfa.reset']),
    );
  });
});

/**
 * An owner of a fresh account invites `email`; the invited person accepts the link with a
 * password in a browser of their own. Returns the accepted answer and their client.
 */
async function acceptInvitation(app: FastifyInstance, accountId: number, requireMfa: boolean) {
  const owner = await newAdmin(app, accountId);
  if (requireMfa) {
    const set = await adminSender(app)(
      await signIn(app, owner.email),
      'PUT',
      `/accounts/${accountId}/security/mfa`,
      {
        require_mfa: true,
      },
    );
    expect(set.statusCode).toBe(200);
  }
  const email = `invited-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const { token } = await inviteAdmin(app.db, { accountId, email, invitedBy: owner.id });
  const browser = await anonymousClient(app);
  const accepted = await app.inject({
    method: 'POST',
    url: `/admin/api/invitations/${token}/accept`,
    headers: browser.headers,
    payload: { password: ADMIN_PASSWORD, name: 'Ivy' },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const client: AdminClient = {
    headers: {
      cookie: cookieHeader(browser.headers.cookie ?? '', accepted),
      'x-csrf-token': accepted.json().csrf_token,
    },
    user: accepted.json().user,
    email,
  };
  return { accepted, client, email };
}

/** What an invited person's session answers before enrolling: only enrolment opens. */
async function expectOnlyEnrolment(app: FastifyInstance, client: AdminClient, accountId: number) {
  const s = adminSender(app);
  expect((await s(client, 'GET', '/session')).json()).toMatchObject({
    mfa_pending: 'enrol',
    mfa_methods: [],
  });
  for (const [method, url, body] of [
    ['GET', `/accounts/${accountId}`],
    ['GET', `/accounts/${accountId}/admins`],
    ['GET', `/accounts/${accountId}/employees`],
    ['GET', `/accounts/${accountId}/audit-log`],
    ['GET', '/session/sessions'],
    [
      'POST',
      '/session/password',
      { current_password: ADMIN_PASSWORD, new_password: 'another long password' },
    ],
  ] as const) {
    const res = await s(client, method, url, body);
    expect(res.statusCode, url).toBe(401);
    expect(res.json(), url).toEqual({
      error: 'Second step of sign-in required',
      status: 401,
      ...coded('mfa_required'),
      details: { state: 'enrol' },
    });
  }
  // Enrolment itself is open: their factors, and starting an authenticator app.
  expect((await s(client, 'GET', '/mfa')).json()).toEqual({
    factors: [],
    recovery_codes_left: 0,
    required: true,
  });
}

describe('invitations into an account that requires MFA', () => {
  it('leads the invited person to enrolment before anything else; 401 mfa_required elsewhere until enrolled', async () => {
    const accountId = (await makeAccount(t.app)).id;
    const { accepted, client } = await acceptInvitation(t.app, accountId, true);
    expect(accepted.json()).toMatchObject({
      mfa_pending: 'enrol',
      user: { name: 'Ivy', account_id: accountId },
    });
    await expectOnlyEnrolment(t.app, client, accountId);
    // Nothing is finished before a factor is confirmed.
    expect((await send(client, 'POST', '/session/mfa/enrolled')).json().code).toBe('mfa_enrolment_required');
    const { recoveryCodes } = await enrolTotp(client);
    expect(recoveryCodes).toHaveLength(10);
    expect((await send(client, 'GET', `/accounts/${accountId}/admins`)).json().code).toBe('mfa_required');
    const finished = await send(client, 'POST', '/session/mfa/enrolled');
    expect(finished.json()).toMatchObject({ mfa_pending: null });
    const full = advanced(client, finished);
    expect((await send(full, 'GET', `/accounts/${accountId}/admins`)).statusCode).toBe(200);
    // The session that waited for enrolment is gone: the finished one has a new id.
    expect((await send(client, 'GET', '/mfa')).json().code).toBe('sign_in_required');
  });

  it('signs the invited person straight in when MFA is not required', async () => {
    const accountId = (await makeAccount(t.app)).id;
    const { accepted, client } = await acceptInvitation(t.app, accountId, false);
    expect(accepted.json().mfa_pending).toBeNull();
    expect((await send(client, 'GET', `/accounts/${accountId}/admins`)).statusCode).toBe(200);
  });

  it('leads to enrolment too when the operator requires MFA everywhere (ADMIN_MFA_REQUIRED)', async () => {
    const strict = await buildTestApp({ ADMIN_MFA_REQUIRED: 'true', SIGN_IN_LIMIT_PER_ADDRESS: '1000' });
    const accountId = (await makeAccount(strict.app)).id;
    // The account's own switch is off: the operator's setting decides.
    const { accepted, client } = await acceptInvitation(strict.app, accountId, false);
    expect(accepted.json().mfa_pending).toBe('enrol');
    await expectOnlyEnrolment(strict.app, client, accountId);
    await enrolTotp(client, strict.app);
    const finished = await adminSender(strict.app)(client, 'POST', '/session/mfa/enrolled');
    expect(finished.statusCode).toBe(200);
    const full = advanced(client, finished);
    expect((await adminSender(strict.app)(full, 'GET', `/accounts/${accountId}/admins`)).statusCode).toBe(
      200,
    );
  });
});

describe('ADMIN_MFA_REQUIRED', () => {
  it('requires a factor of operators and of every administrator', async () => {
    const strict = await buildTestApp({ ADMIN_MFA_REQUIRED: 'true', SIGN_IN_LIMIT_PER_ADDRESS: '1000' });
    const s = adminSender(strict.app);
    const operator = await newAdmin(strict.app, null);
    const pending = await signIn(strict.app, operator.email);
    expect((await s(pending, 'GET', '/session')).json().mfa_pending).toBe('enrol');
    expect((await s(pending, 'GET', '/accounts')).json()).toMatchObject({ code: 'mfa_required' });
    await enrolTotp(pending, strict.app);
    const finished = await s(pending, 'POST', '/session/mfa/enrolled');
    expect((await s(advanced(pending, finished), 'GET', '/accounts')).statusCode).toBe(200);

    const accountId = (await makeAccount(strict.app)).id;
    const admin = await newAdmin(strict.app, accountId);
    const adminPending = await signIn(strict.app, admin.email);
    expect((await s(adminPending, 'GET', '/session')).json().mfa_pending).toBe('enrol');
    expect((await s(adminPending, 'GET', '/mfa')).json().required).toBe(true);
  });
});
