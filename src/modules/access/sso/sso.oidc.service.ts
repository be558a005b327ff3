import * as client from 'openid-client';
import { hashToken, newToken } from '../../../core/auth/tokens.js';
import type { Db } from '../../../core/db/database.js';
import type { SsoConnection, SsoEnv } from './sso.model.js';
import { CLOCK_SKEW_MS, groupsOf, REQUEST_TTL_MS, SsoRefusal } from './sso.model.js';
import { findRequest, insertRequest, takeRequest } from './sso.repository.js';

/**
 * OpenID Connect sign-in (openid-client): authorization code with PKCE (S256), the issuer
 * discovered, `state` and `nonce` bound to the browser (a server-side row, keyed by the state's
 * hash, that holds the hash of a cookie's token) and used once. The ID token's issuer, audience,
 * signature (the IdP's published keys), expiry and nonce are checked; the email must be verified.
 */

interface OidcClientSettings {
  issuer: string;
  clientId: string;
  secret: string;
}

// Discovery per sign-in would fetch the IdP's document each time: kept a few minutes per account.
const DISCOVERY_TTL_MS = 5 * 60 * 1000;
const discovered = new Map<string, { config: client.Configuration; at: number }>();

/** Discovers the issuer and returns a client configuration that checks ID token signatures. */
export async function discoverIssuer(
  env: SsoEnv,
  settings: OidcClientSettings,
): Promise<client.Configuration> {
  const url = new URL(settings.issuer);
  const execute = [client.enableNonRepudiationChecks];
  if (url.protocol === 'http:' && env.plainHttpAllowed(url)) execute.push(client.allowInsecureRequests);
  const metadata: Partial<client.ClientMetadata> = {
    client_secret: settings.secret,
    [client.clockTolerance]: CLOCK_SKEW_MS / 1000,
  };
  const config = await client.discovery(
    url,
    settings.clientId,
    metadata,
    client.ClientSecretBasic(settings.secret),
    {
      [client.customFetch]: env.fetch as client.CustomFetch,
      execute,
      timeout: 10,
    },
  );
  config.timeout = 10;
  return config;
}

async function configFor(env: SsoEnv, connection: SsoConnection): Promise<client.Configuration> {
  const oidc = connection.oidc;
  if (!oidc?.sealedSecret) throw new SsoRefusal('not_configured');
  const key = `${connection.accountId}:${connection.updatedAt}`;
  const cached = discovered.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  try {
    const config = await discoverIssuer(env, {
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      secret: env.secretBox.open(oidc.sealedSecret),
    });
    if (discovered.size > 1000) discovered.clear();
    discovered.set(key, { config, at: Date.now() });
    return config;
  } catch (err) {
    throw new SsoRefusal('idp_error', `discovery failed: ${(err as Error).message}`);
  }
}

export interface StartedSignIn {
  /** Where the browser goes: the IdP's authorization endpoint. */
  url: string;
  /** For the binding cookie: only its hash is stored. */
  bindingToken: string;
}

/** Starts a sign-in: stores the state's hash, nonce and PKCE verifier; returns the IdP's URL. */
export async function startOidcSignIn(
  db: Db,
  env: SsoEnv,
  connection: SsoConnection,
  redirectUri: string,
): Promise<StartedSignIn> {
  const config = await configFor(env, connection);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const binding = newToken();
  const now = Date.now();
  await insertRequest(db, {
    id_hash: hashToken(state),
    account_id: connection.accountId,
    protocol: 'oidc',
    binding_hash: binding.hash,
    nonce,
    code_verifier: codeVerifier,
    created_at: now,
    expires_at: now + REQUEST_TTL_MS,
  });
  const scopes = ['openid', 'email', 'profile'];
  const supported = config.serverMetadata().scopes_supported;
  if (connection.groupsClaim && supported?.includes(connection.groupsClaim))
    scopes.push(connection.groupsClaim);
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: scopes.join(' '),
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };
  if (connection.oidc?.acrValues) parameters.acr_values = connection.oidc.acrValues;
  return { url: client.buildAuthorizationUrl(config, parameters).href, bindingToken: binding.token };
}

/**
 * What the token's checks say, as a refusal reason; the detail (for the log) names the check
 * that failed, which openid-client puts in the error's causes under a generic message.
 */
function refusalOf(err: unknown): SsoRefusal {
  if (err instanceof SsoRefusal) return err;
  const messages = [(err as Error)?.message ?? String(err)];
  // The claim a check failed on is named somewhere down the error's causes (oauth4webapi's `claim`).
  let claims = '';
  // A signing key the IdP does not publish (oauth4webapi's code, on the error or a cause).
  let keyNotPublished = (err as { code?: unknown })?.code === 'OAUTH_KEY_SELECTION_FAILED';
  let cause: unknown = (err as { cause?: unknown })?.cause;
  for (let depth = 0; cause && depth < 5; depth++) {
    const c = cause as { message?: string; claim?: string; code?: unknown; cause?: unknown };
    if (c.message) messages.push(c.message);
    if (c.claim) claims += ` "${c.claim}"`;
    if (c.code === 'OAUTH_KEY_SELECTION_FAILED') keyNotPublished = true;
    cause = c.cause;
  }
  const detail = messages.join(': ');
  const text = `${detail}${claims}`;
  if (err instanceof client.AuthorizationResponseError) return new SsoRefusal('idp_error', detail);
  if (/"iss"|issuer/i.test(text)) return new SsoRefusal('issuer_mismatch', detail);
  if (/"aud"|audience|azp/i.test(text)) return new SsoRefusal('audience_mismatch', detail);
  if (/"nonce"|nonce/i.test(text)) return new SsoRefusal('nonce_mismatch', detail);
  if (/"exp"|expired|timestamp/i.test(text)) return new SsoRefusal('expired', detail);
  if (keyNotPublished || /signature|JWS|JWK|alg/i.test(text))
    return new SsoRefusal('signature_invalid', detail);
  if (/state/i.test(text)) return new SsoRefusal('state_mismatch', detail);
  return new SsoRefusal('token_invalid', detail);
}

export interface OidcCallback {
  /** The query string of the callback, as received. */
  query: string;
  state: string | undefined;
  /** The binding cookie's token. */
  bindingToken: string | undefined;
}

/**
 * Finishes a sign-in: the state must name a sign-in started from this browser (the cookie's hash
 * matches) and not used yet (it is deleted now); then the code is exchanged and the ID token
 * checked. Returns who signed in; throws SsoRefusal otherwise.
 */
export async function finishOidcSignIn(
  db: Db,
  env: SsoEnv,
  connection: SsoConnection,
  redirectUri: string,
  callback: OidcCallback,
): Promise<{ email: string; name: string | null; groups: string[] }> {
  const { state, bindingToken } = callback;
  if (!state || state.length > 200 || !bindingToken || bindingToken.length > 200)
    throw new SsoRefusal('state_mismatch');
  const row = await findRequest(db, connection.accountId, hashToken(state));
  if (
    row?.protocol !== 'oidc' ||
    row.expires_at <= Date.now() ||
    row.binding_hash !== hashToken(bindingToken)
  ) {
    throw new SsoRefusal('state_mismatch');
  }
  if (!(await takeRequest(db, connection.accountId, row.id_hash))) throw new SsoRefusal('state_mismatch');
  const config = await configFor(env, connection);
  const current = new URL(redirectUri);
  current.search = callback.query;
  let claims: client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: row.code_verifier ?? '',
      expectedState: state,
      expectedNonce: row.nonce ?? '',
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    throw refusalOf(err);
  }
  if (!claims) throw new SsoRefusal('token_invalid', 'no ID token');
  const email = claims.email;
  if (typeof email !== 'string' || email === '' || email.length > 254 || claims.email_verified !== true) {
    throw new SsoRefusal(
      'email_missing',
      typeof email === 'string' ? `email ${email} not verified` : 'no email claim',
    );
  }
  const name = typeof claims.name === 'string' ? claims.name : null;
  const groups = connection.groupsClaim ? groupsOf(claims[connection.groupsClaim]) : [];
  return { email, name, groups };
}
