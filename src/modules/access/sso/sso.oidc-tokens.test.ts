import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { startIdTokenProxy, type TokenRewrite } from '../../../../test/helpers/id-token-proxy.js';
import { startOidcIdp } from '../../../../test/helpers/oidc-idp.js';
import { ssoEnvOf } from './sso.env.service.js';
import { REFUSALS, type RefusalReason } from './sso.model.js';
import { saveSsoConnection, ssoUrls } from './sso.service.js';

// ID tokens that oidc-provider would never issue, through the real openid-client code path: the
// IdP signs with a key this test generated (so it holds the private key too), and a proxy of the
// test's own between Vigil and the IdP rewrites the token endpoint's `id_token`: another
// audience, an expiry in the past, a signature by another key. Each is refused with a page that
// says why and a log line; no administrator and no session is created.

const BASE = 'http://vigil.test';
const KID = 'vigil-test-idp-key';
let t: TestApp;
let idpKey: CryptoKey;
let otherKey: CryptoKey;
let idpJwk: Record<string, unknown>;

beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: BASE, WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32' });
  const pair = await generateKeyPair('RS256', { extractable: true });
  idpKey = pair.privateKey;
  idpJwk = { ...(await exportJWK(pair.privateKey)), kid: KID, alg: 'RS256', use: 'sig' };
  otherKey = (await generateKeyPair('RS256')).privateKey;
});

const setCookie = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === name)?.value;

async function adminsOf(accountId: number) {
  return t.app.db.selectFrom('admin_users').select('email').where('account_id', '=', accountId).execute();
}

async function sessionCount() {
  const row = await t.app.db
    .selectFrom('admin_sessions')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ID token's claims changed by `change`, signed again by `key` under the IdP's key id. */
function reSigned(
  change: (claims: JWTPayload) => JWTPayload,
  key: () => CryptoKey,
  kid: string = KID,
): TokenRewrite {
  return async (answer) => {
    const idToken = answer.id_token as string;
    const header = decodeProtectedHeader(idToken);
    expect(header.kid).toBe(KID);
    const token = await new SignJWT(change(decodeJwt(idToken)))
      .setProtectedHeader({ alg: header.alg as string, kid, typ: header.typ })
      .sign(key());
    return { ...answer, id_token: token };
  };
}

/** An account whose OIDC IdP is reached through the proxy: discovery, keys, token endpoint. */
async function setUp() {
  const account = await makeAccount(t.app);
  const proxy = await startIdTokenProxy();
  const idp = await startOidcIdp({
    redirectUris: [ssoUrls(BASE, account.id).oidcRedirect],
    people: { alice: { email: `alice@${account.id}.example.com`, email_verified: true, name: 'Alice' } },
    jwks: { keys: [idpJwk] },
    issuer: proxy.url,
  });
  proxy.forwardTo(idp.upstream);
  await saveSsoConnection(t.app.db, ssoEnvOf(t.app), account.id, {
    protocol: 'oidc',
    enabled: true,
    allowed_domains: [`${account.id}.example.com`],
    oidc: { issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret },
  });
  /** Alice signs in at the IdP; Vigil's callback answer. The tokens the proxy handed out are kept. */
  const signIn = async () => {
    const started = await t.app.inject({ method: 'GET', url: `/sso/${account.id}/login` });
    expect(started.statusCode).toBe(303);
    const location = String(started.headers.location);
    expect(new URL(location).origin).toBe(proxy.url);
    const back = await idp.signIn(location, 'alice');
    return t.app.inject({
      method: 'GET',
      url: back.slice(BASE.length),
      headers: { cookie: `vigil_sso=${setCookie(started, 'vigil_sso')}` },
    });
  };
  return { account, proxy, signIn };
}

describe('OpenID Connect ID tokens the IdP would not issue', () => {
  it('accepts the IdP’s token re-signed unchanged with its own key (the proxy itself breaks nothing)', async () => {
    const { account, proxy, signIn } = await setUp();
    proxy.rewriteTokens(
      reSigned(
        (claims) => claims,
        () => idpKey,
      ),
    );
    const res = await signIn();
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/admin/');
    expect(setCookie(res, 'vigil_session')).toBeTruthy();
    expect(await adminsOf(account.id)).toEqual([{ email: `alice@${account.id}.example.com` }]);
  });

  /** What is changed, the reason shown, the check that failed (the log line's detail), the rewrite. */
  const cases: [string, RefusalReason, RegExp, TokenRewrite][] = [
    [
      'meant for another client (aud)',
      'audience_mismatch',
      /"aud" \(audience\)/,
      reSigned(
        (claims) => ({ ...claims, aud: 'another-client' }),
        () => idpKey,
      ),
    ],
    [
      'expired beyond the 60 s of clock skew',
      'expired',
      /"exp" \(expiration time\)/,
      reSigned(
        (claims) => ({
          ...claims,
          iat: Math.floor(Date.now() / 1000) - 600,
          exp: Math.floor(Date.now() / 1000) - 300,
        }),
        () => idpKey,
      ),
    ],
    [
      'signed by another key under the IdP’s key id',
      'signature_invalid',
      /signature verification failed/,
      reSigned(
        (claims) => claims,
        () => otherKey,
      ),
    ],
    [
      'signed by a key the IdP does not publish',
      'signature_invalid',
      /no applicable keys found/,
      reSigned(
        (claims) => claims,
        () => otherKey,
        'unknown-key',
      ),
    ],
  ];

  for (const [what, reason, detail, rewrite] of cases) {
    it(`refuses an ID token ${what}: a page, a log line, nothing created`, async () => {
      const { account, proxy, signIn } = await setUp();
      const handedOut: string[] = [];
      proxy.rewriteTokens(async (answer) => {
        const changed = await rewrite(answer);
        handedOut.push(changed.id_token as string);
        return changed;
      });
      const sessionsBefore = await sessionCount();
      const logsBefore = t.logs.length;

      const res = await signIn();

      expect(handedOut).toHaveLength(1);
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<h1>Sign-in refused</h1>');
      expect(res.body).toContain(REFUSALS[reason]);
      expect(res.body).toContain(`Reason: ${reason}`);
      expect(setCookie(res, 'vigil_session')).toBeUndefined();
      const lines = t.logs
        .slice(logsBefore)
        .filter((line) => line.includes('single sign-on refused'))
        .map((line) => JSON.parse(line));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          msg: 'single sign-on refused',
          sso: expect.objectContaining({
            account: account.id,
            protocol: 'oidc',
            reason,
            detail: expect.stringMatching(detail),
          }),
        }),
      ]);
      // Never the token itself in the log.
      for (const token of handedOut) {
        expect(t.logs.some((line) => line.includes(token.split('.')[2] as string))).toBe(false);
      }
      expect(await adminsOf(account.id)).toEqual([]);
      expect(await sessionCount()).toBe(sessionsBefore);
      const audit = await t.app.db
        .selectFrom('audit_log')
        .select(['action', 'changes'])
        .where('account_id', '=', account.id)
        .where('action', '!=', 'sso.created')
        .execute();
      expect(audit.map((row) => [row.action, JSON.parse(row.changes as string).reason?.to])).toEqual([
        ['admin.sign_in_refused', reason],
      ]);
    });
  }
});
