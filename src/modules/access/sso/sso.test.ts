import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn as passwordSignIn, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { startOidcIdp } from '../../../../test/helpers/oidc-idp.js';
import { startSamlIdp } from '../../../../test/helpers/saml-idp.js';
import { hashToken } from '../../../core/auth/tokens.js';
import { inviteAdmin } from '../invitations/invitations.service.js';
import { ssoEnvOf } from './sso.env.service.js';
import { serviceProviderMetadata } from './sso.saml.service.js';
import { saveSsoConnection, ssoUrls } from './sso.service.js';

// Single sign-on end to end against real identity providers started here: oidc-provider (OpenID
// Certified) and a samlify IdP. Every refusal shows a page that says why, logs a line and creates
// no administrator and no session.

const BASE = 'http://vigil.test';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: BASE, WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32' });
});

const setCookie = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === name)?.value;

async function adminsOf(accountId: number) {
  return t.app.db
    .selectFrom('admin_users')
    .select(['email', 'account_role', 'role'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

async function sessionCount() {
  const row = await t.app.db
    .selectFrom('admin_sessions')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function auditOf(accountId: number) {
  return t.app.db
    .selectFrom('audit_log')
    .select(['action', 'changes', 'actor_label'])
    .where('account_id', '=', accountId)
    .orderBy('seq')
    .execute();
}

function refusedWith(res: LightMyRequestResponse, reason: string) {
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toContain('Sign-in refused');
  expect(res.body, t.logs.filter((l) => l.includes('single sign-on refused')).at(-1)).toContain(
    `Reason: ${reason}`,
  );
  expect(
    t.logs.some((line) => line.includes('single sign-on refused') && line.includes(`"reason":"${reason}"`)),
  ).toBe(true);
}

describe('OpenID Connect', () => {
  async function setUp(options: { groups?: boolean; acr?: string } = {}) {
    const account = await makeAccount(t.app);
    const urls = ssoUrls(BASE, account.id);
    const idp = await startOidcIdp({
      redirectUris: [urls.oidcRedirect],
      people: {
        alice: {
          email: `alice@${account.id}.example.com`,
          email_verified: true,
          name: 'Alice Admin',
          groups: ['vigil-admins'],
        },
        carol: {
          email: `carol@${account.id}.example.com`,
          email_verified: true,
          name: 'Carol',
          groups: ['staff'],
        },
        mallory: { email: 'mallory@elsewhere.example.org', email_verified: true },
        unverified: { email: `unverified@${account.id}.example.com`, email_verified: false },
      },
    });
    await saveSsoConnection(t.app.db, ssoEnvOf(t.app), account.id, {
      protocol: 'oidc',
      enabled: true,
      allowed_domains: [`${account.id}.example.com`],
      groups_claim: options.groups === false ? null : 'groups',
      role_mapping: options.groups === false ? [] : [{ group: 'vigil-admins', role: 'administrator' }],
      oidc: {
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        acr_values: options.acr ?? null,
      },
    });
    return { account, idp, urls };
  }

  async function start(accountId: number) {
    const res = await t.app.inject({ method: 'GET', url: `/sso/${accountId}/login` });
    expect(res.statusCode).toBe(303);
    return { location: String(res.headers.location), binding: setCookie(res, 'vigil_sso') as string };
  }

  const callback = (back: string, binding: string | undefined) =>
    t.app.inject({
      method: 'GET',
      url: back.slice(BASE.length),
      headers: binding ? { cookie: `vigil_sso=${binding}` } : {},
    });

  it('signs a new person in with PKCE, creating them with the role their group maps to', async () => {
    const { account, idp } = await setUp({ acr: 'urn:vigil:test:mfa' });
    const { location, binding } = await start(account.id);
    const authorize = new URL(location);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('acr_values')).toBe('urn:vigil:test:mfa');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const back = await idp.signIn(location, 'alice');
    const res = await callback(back, binding);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/');
    const session = setCookie(res, 'vigil_session');
    expect(session).toBeTruthy();
    const me = await t.app.inject({
      method: 'GET',
      url: '/admin/api/session',
      headers: { cookie: `vigil_session=${session}` },
    });
    expect(me.json().user).toMatchObject({ email: `alice@${account.id}.example.com`, name: 'Alice Admin' });
    expect(await adminsOf(account.id)).toEqual([
      { email: `alice@${account.id}.example.com`, account_role: 'administrator', role: 'account_admin' },
    ]);
    const row = await t.app.db
      .selectFrom('admin_sessions')
      .select('method')
      .where('id_hash', '=', hashToken(session as string))
      .executeTakeFirstOrThrow();
    expect(row.method).toBe('oidc');
    const actions = (await auditOf(account.id)).map((r) => r.action);
    expect(actions).toEqual(['sso.created', 'admin.created', 'admin.signed_in']);
    // The client secret is sealed in the database and never written to the audit log.
    const stored = await t.app.db
      .selectFrom('sso_connections')
      .select('oidc_client_secret')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(stored.oidc_client_secret).not.toContain(idp.clientSecret);
    expect(JSON.stringify(await auditOf(account.id))).not.toContain(idp.clientSecret);
  });

  it('gives the default role without a mapped group, and signs an existing administrator in again', async () => {
    const { account, idp } = await setUp();
    for (let i = 0; i < 2; i++) {
      const { location, binding } = await start(account.id);
      const res = await callback(await idp.signIn(location, 'carol'), binding);
      expect(res.statusCode).toBe(303);
    }
    expect(await adminsOf(account.id)).toEqual([
      { email: `carol@${account.id}.example.com`, account_role: 'campaign_manager', role: 'account_admin' },
    ]);
  });

  it('refuses a callback without the browser binding, with a used state, or a bad state', async () => {
    const { account, idp } = await setUp();
    const { location, binding } = await start(account.id);
    const back = await idp.signIn(location, 'alice');
    refusedWith(await callback(back, undefined), 'state_mismatch');
    // The state was not spent by the refused attempt without a cookie? It was looked up only: try with a wrong cookie.
    refusedWith(await callback(back, 'x'.repeat(43)), 'state_mismatch');
    const ok = await callback(back, binding);
    expect(ok.statusCode).toBe(303);
    const again = await callback(back, binding);
    expect(again.statusCode).toBe(403);
    refusedWith(again, 'state_mismatch');
    const bad = await t.app.inject({
      method: 'GET',
      url: `/sso/${account.id}/oidc/callback?code=x&state=nope`,
      headers: { cookie: `vigil_sso=${binding}` },
    });
    refusedWith(bad, 'state_mismatch');
  });

  it('refuses a sign-in that took longer than ten minutes at the IdP', async () => {
    const { account, idp } = await setUp();
    const { location, binding } = await start(account.id);
    const state = new URL(location).searchParams.get('state') as string;
    await t.app.db
      .updateTable('sso_requests')
      .set({ expires_at: Date.now() - 1 })
      .where('id_hash', '=', hashToken(state))
      .execute();
    refusedWith(await callback(await idp.signIn(location, 'alice'), binding), 'state_mismatch');
    expect(await adminsOf(account.id)).toEqual([]);
  });

  it('refuses a nonce that does not match the sign-in', async () => {
    const { account, idp } = await setUp();
    const { location, binding } = await start(account.id);
    const state = new URL(location).searchParams.get('state') as string;
    await t.app.db
      .updateTable('sso_requests')
      .set({ nonce: 'another-nonce' })
      .where('id_hash', '=', hashToken(state))
      .execute();
    const res = await callback(await idp.signIn(location, 'alice'), binding);
    expect(res.statusCode).toBe(403);
    refusedWith(res, 'nonce_mismatch');
    expect(await adminsOf(account.id)).toEqual([]);
  });

  it('refuses an email domain not allowed, an unverified email, and an address of another account', async () => {
    const { account, idp } = await setUp();
    const before = await sessionCount();
    for (const [login, reason] of [
      ['mallory', 'domain_not_allowed'],
      ['unverified', 'email_missing'],
    ] as const) {
      const { location, binding } = await start(account.id);
      const res = await callback(await idp.signIn(location, login), binding);
      expect(res.statusCode).toBe(403);
      refusedWith(res, reason);
    }
    // alice's address belongs to an administrator of another account.
    const other = await makeAccount(t.app);
    await signInAs(t.app, { role: 'account_admin', accountId: other.id });
    await t.app.db
      .updateTable('admin_users')
      .set({ email: `alice@${account.id}.example.com`, email_normalized: `alice@${account.id}.example.com` })
      .where('account_id', '=', other.id)
      .execute();
    const { location, binding } = await start(account.id);
    const res = await callback(await idp.signIn(location, 'alice'), binding);
    refusedWith(res, 'other_account');
    expect(await adminsOf(account.id)).toEqual([]);
    expect(await sessionCount()).toBe(before + 1);
    const refusals = (await auditOf(account.id)).filter((r) => r.action === 'admin.sign_in_refused');
    expect(refusals.map((r) => JSON.parse(r.changes as string).reason.to)).toEqual([
      'domain_not_allowed',
      'email_missing',
      'other_account',
    ]);
  });

  it('refuses an issuer whose discovery names another issuer, when saved', async () => {
    const account = await makeAccount(t.app);
    const idp = await startOidcIdp({ redirectUris: [ssoUrls(BASE, account.id).oidcRedirect], people: {} });
    await expect(
      saveSsoConnection(t.app.db, ssoEnvOf(t.app), account.id, {
        protocol: 'oidc',
        enabled: true,
        allowed_domains: ['example.com'],
        oidc: { issuer: `${idp.issuer}/other`, client_id: idp.clientId, client_secret: idp.clientSecret },
      }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: { 'oidc.issuer': [expect.stringMatching(/^discovery failed/)] },
    });
  });
});

describe('SAML 2.0', () => {
  async function setUp(idpProps: Parameters<typeof startSamlIdp>[0] = {}) {
    const account = await makeAccount(t.app);
    const idp = await startSamlIdp(idpProps);
    await saveSsoConnection(t.app.db, ssoEnvOf(t.app), account.id, {
      protocol: 'saml',
      enabled: true,
      allowed_domains: [`${account.id}.example.com`],
      groups_claim: 'groups',
      role_mapping: [{ group: 'auditors', role: 'auditor' }],
      saml: { metadata_url: idp.metadataUrl },
    });
    return { account, idp, spMetadata: await serviceProviderMetadata(BASE, account.id) };
  }

  async function start(accountId: number) {
    const res = await t.app.inject({ method: 'GET', url: `/sso/${accountId}/login` });
    expect(res.statusCode).toBe(303);
    return String(res.headers.location);
  }

  const post = (accountId: number, samlResponse: string) =>
    t.app.inject({
      method: 'POST',
      url: `/sso/${accountId}/saml/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
    });

  it('signs a new person in from a signed assertion, with the role their group maps to', async () => {
    const { account, idp, spMetadata } = await setUp();
    const email = `dana@${account.id}.example.com`;
    const response = await idp.respond(spMetadata, await start(account.id), {
      email,
      name: 'Dana',
      groups: ['auditors'],
    });
    const res = await post(account.id, response);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/');
    expect(setCookie(res, 'vigil_session')).toBeTruthy();
    expect(await adminsOf(account.id)).toEqual([{ email, account_role: 'auditor', role: 'account_admin' }]);
    // The same response again is a replay.
    const replay = await post(account.id, response);
    expect(replay.statusCode).toBe(403);
    refusedWith(replay, 'replayed');
  });

  it('serves Vigil’s SP metadata with its entity id and ACS URL', async () => {
    const { account } = await setUp();
    const res = await t.app.inject({ method: 'GET', url: `/sso/${account.id}/saml/metadata` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.body).toContain(`entityID="${BASE}/sso/${account.id}/saml/metadata"`);
    expect(res.body).toContain(`Location="${BASE}/sso/${account.id}/saml/acs"`);
    expect(res.body).toContain('WantAssertionsSigned="true"');
  });

  it('refuses wrong audience, expired, unsigned, another key, another issuer, unknown InResponseTo: nothing created', async () => {
    const { account, idp, spMetadata } = await setUp();
    const email = `eve@${account.id}.example.com`;
    const person = { email };
    const otherKey = await startSamlIdp({ entityId: idp.entityId });
    const cases: [string, () => Promise<string>][] = [
      [
        'audience_mismatch',
        async () =>
          idp.respond(spMetadata, await start(account.id), person, {
            audience: 'https://another.example/sp',
          }),
      ],
      [
        'expired',
        async () =>
          idp.respond(spMetadata, await start(account.id), person, {
            notOnOrAfter: new Date(Date.now() - 10 * 60 * 1000),
          }),
      ],
      [
        'signature_invalid',
        async () => idp.respond(spMetadata, await start(account.id), person, { unsignedAssertion: true }),
      ],
      ['signature_invalid', async () => otherKey.respond(spMetadata, await start(account.id), person)],
      [
        'issuer_mismatch',
        async () =>
          idp.respond(spMetadata, await start(account.id), person, { issuer: 'https://rogue.example/idp' }),
      ],
      [
        'in_response_to',
        async () =>
          idp.respond(spMetadata, await start(account.id), person, { inResponseTo: '_never-asked' }),
      ],
    ];
    for (const [reason, make] of cases) {
      const res = await post(account.id, await make());
      expect(res.statusCode, reason).toBe(403);
      refusedWith(res, reason);
    }
    // A signed response altered after signing.
    const good = await idp.respond(spMetadata, await start(account.id), person);
    const tampered = Buffer.from(
      Buffer.from(good, 'base64').toString('utf8').replace(email, `boss@${account.id}.example.com`),
    ).toString('base64');
    refusedWith(await post(account.id, tampered), 'signature_invalid');
    // Garbage.
    const garbage = await post(account.id, 'not base64 at all!');
    expect(garbage.statusCode).toBe(400);
    refusedWith(garbage, 'malformed');
    expect(await adminsOf(account.id)).toEqual([]);
  });

  it('fetches metadata only from allowed addresses, and refuses what is not metadata', async () => {
    const account = await makeAccount(t.app);
    for (const [field, saml, message] of [
      [
        'saml.metadata_url',
        { metadata_url: 'https://169.254.169.254/latest/meta-data' },
        /could not be fetched: .*link-local, metadata or reserved/,
      ],
      [
        'saml.metadata_url',
        { metadata_url: 'https://10.1.2.3/metadata' },
        /could not be fetched: .*private, loopback or reserved/,
      ],
      ['saml.metadata_url', { metadata_url: 'http://idp.example.com/metadata' }, /must be an https URL/],
      [
        'saml.metadata_xml',
        { metadata_xml: '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>' },
        /document type declaration/,
      ],
      ['saml.metadata_xml', { metadata_xml: '<<<not xml' }, /is not SAML metadata/],
    ] as const) {
      await expect(
        saveSsoConnection(t.app.db, ssoEnvOf(t.app), account.id, {
          protocol: 'saml',
          allowed_domains: ['example.com'],
          saml,
        }),
      ).rejects.toMatchObject({
        code: 'validation_failed',
        details: { [field]: [expect.stringMatching(message)] },
      });
    }
    expect(
      await t.app.db
        .selectFrom('sso_connections')
        .select('account_id')
        .where('account_id', '=', account.id)
        .execute(),
    ).toEqual([]);
  });

  it('refuses a person whose domain is not allowed', async () => {
    const { account, idp, spMetadata } = await setUp();
    const res = await post(
      account.id,
      await idp.respond(spMetadata, await start(account.id), { email: 'x@not-allowed.example.org' }),
    );
    refusedWith(res, 'domain_not_allowed');
    expect(await adminsOf(account.id)).toEqual([]);
  });
});

describe('SSO only', () => {
  const api = (accountId: number) => `/admin/api/accounts/${accountId}/sso`;

  /** An owner of a fresh account with an enabled SAML connection. */
  async function ownerWithSso() {
    const account = await makeAccount(t.app);
    const owner = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    await t.app.db
      .updateTable('admin_users')
      .set({ account_role: 'owner' })
      .where('id', '=', owner.user.id)
      .execute();
    const idp = await startSamlIdp();
    const saved = await t.app.inject({
      method: 'PUT',
      url: api(account.id),
      headers: owner.headers,
      payload: {
        protocol: 'saml',
        enabled: true,
        allowed_domains: ['example.com'],
        saml: { metadata_url: idp.metadataUrl },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return { account, owner };
  }

  /** A confirmed authenticator-app factor, as enrolment leaves one (the sign-in here is by password). */
  async function giveSecondFactor(adminId: number) {
    await t.app.db
      .insertInto('admin_mfa_factors')
      .values({
        admin_id: adminId,
        kind: 'totp',
        name: 'Phone',
        created_at: Date.now(),
        confirmed_at: Date.now(),
      })
      .execute();
  }

  it('is refused without a break-glass owner who has MFA, then refuses password sign-in but theirs', async () => {
    const { account, owner } = await ownerWithSso();
    const colleague = await signInAs(t.app, {
      role: 'account_admin',
      accountId: account.id,
      accountRole: 'administrator',
    });
    const refused = await t.app.inject({
      method: 'PUT',
      url: `${api(account.id)}/sign-in`,
      headers: owner.headers,
      payload: { sso_only: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.sso_only).toEqual([
      'needs at least one break-glass owner who has a second factor (MFA)',
    ]);

    const notOwner = await t.app.inject({
      method: 'PUT',
      url: `${api(account.id)}/break-glass/${colleague.user.id}`,
      headers: owner.headers,
      payload: { break_glass: true },
    });
    expect(notOwner.statusCode).toBe(400);
    const named = await t.app.inject({
      method: 'PUT',
      url: `${api(account.id)}/break-glass/${owner.user.id}`,
      headers: owner.headers,
      payload: { break_glass: true },
    });
    expect(named.json()).toEqual({ id: owner.user.id, email: owner.email, break_glass: true });
    await giveSecondFactor(owner.user.id);
    const on = await t.app.inject({
      method: 'PUT',
      url: `${api(account.id)}/sign-in`,
      headers: owner.headers,
      payload: { sso_only: true, default_role: 'auditor' },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ sso_only: true, default_role: 'auditor' });

    await expect(passwordSignIn(t.app, colleague.email)).rejects.toThrow(/403.*sso_required/);
    await expect(passwordSignIn(t.app, owner.email)).resolves.toMatchObject({ email: owner.email });
    // The last break-glass owner with MFA stays while SSO only is on.
    const withdraw = await t.app.inject({
      method: 'PUT',
      url: `${api(account.id)}/break-glass/${owner.user.id}`,
      headers: owner.headers,
      payload: { break_glass: false },
    });
    expect(withdraw.statusCode).toBe(400);

    const view = (await t.app.inject({ method: 'GET', url: api(account.id), headers: owner.headers })).json();
    expect(view).toMatchObject({
      sso_only: true,
      default_role: 'auditor',
      connection: { protocol: 'saml', enabled: true },
    });
    expect(view.owners).toEqual([
      { id: owner.user.id, email: owner.email, name: expect.any(String), break_glass: true, has_mfa: true },
    ]);

    // Closing sign-in through the IdP ends SSO only with it.
    const closed = await t.app.inject({
      method: 'PUT',
      url: api(account.id),
      headers: owner.headers,
      payload: { protocol: 'saml', enabled: false, allowed_domains: ['example.com'] },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: api(account.id), headers: owner.headers })).json().sso_only,
    ).toBe(false);
    await expect(passwordSignIn(t.app, colleague.email)).resolves.toMatchObject({ email: colleague.email });

    // The changes to SSO and its settings (administrators made and signed in are recorded too).
    const actions = (await auditOf(account.id))
      .map((r) => r.action)
      .filter((action) => action !== 'admin.created' && action !== 'admin.signed_in');
    expect(actions).toEqual([
      'sso.created',
      'admin.updated',
      'security_settings.updated',
      'security_settings.updated',
      'sso.updated',
    ]);
  });

  it('refuses invitation links into an SSO-only account', async () => {
    const { account, owner } = await ownerWithSso();
    await t.app.db
      .insertInto('account_security')
      .values({ account_id: account.id, sso_only: 1, updated_at: Date.now() })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ sso_only: 1 }))
      .execute();
    const { token } = await inviteAdmin(t.app.db, {
      accountId: account.id,
      email: `new-${account.id}@example.com`,
      invitedBy: owner.user.id,
    });
    const anonymous = await t.app.inject({ method: 'GET', url: '/admin/api/session' });
    const accept = await t.app.inject({
      method: 'POST',
      url: `/admin/api/invitations/${token}/accept`,
      headers: {
        cookie: anonymous.headers['set-cookie']?.toString().split(';')[0] ?? '',
        'x-csrf-token': anonymous.json().csrf_token,
      },
      payload: { password: 'a long enough password' },
    });
    expect(accept.statusCode, accept.body).toBe(403);
    expect(accept.json().code).toBe('sso_required');
  });
});
