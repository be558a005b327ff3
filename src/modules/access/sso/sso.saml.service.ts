import type { CacheProvider, SAML } from '@node-saml/node-saml';
import { hashToken } from '../../../core/auth/tokens.js';
import type { Db } from '../../../core/db/database.js';
import {
  CLOCK_SKEW_MS,
  groupsOf,
  MAX_SAML_RESPONSE_BYTES,
  REQUEST_TTL_MS,
  type SsoConnection,
  SsoRefusal,
  ssoUrls,
} from './sso.model.js';
import {
  assertionKnown,
  findRequest,
  insertRequest,
  rememberAssertion,
  takeRequest,
} from './sso.repository.js';
import { assertionIdOf, certificatePem, commonJs, xmlReader } from './sso.saml-metadata.service.js';

/**
 * SAML 2.0 sign-in (@node-saml/node-saml), service-provider initiated: an AuthnRequest whose ID
 * is remembered server-side (the response's InResponseTo must name one, once); the response's
 * assertion must be signed by a certificate of the IdP's metadata (wantAssertionsSigned), from
 * the configured IdP, for this account's entity id (audience), within its validity (60 s of clock
 * skew); each assertion's ID is remembered until it expires, so a replay is refused.
 */

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** The request ids node-saml issues and checks, kept in `sso_requests` (by hash), per account. */
function requestCache(db: Db, accountId: number): CacheProvider {
  return {
    async saveAsync(key, value) {
      const now = Date.now();
      await insertRequest(db, {
        id_hash: hashToken(key),
        account_id: accountId,
        protocol: 'saml',
        binding_hash: null,
        nonce: null,
        code_verifier: null,
        created_at: now,
        expires_at: now + REQUEST_TTL_MS,
      });
      return { value, createdAt: now };
    },
    async getAsync(key) {
      if (typeof key !== 'string' || key.length > 200) return null;
      const row = await findRequest(db, accountId, hashToken(key));
      if (row?.protocol !== 'saml' || row.expires_at <= Date.now()) return null;
      return new Date(row.created_at).toISOString();
    },
    async removeAsync(key) {
      if (typeof key !== 'string' || key.length > 200) return null;
      await takeRequest(db, accountId, hashToken(key));
      return key;
    },
  };
}

/**
 * node-saml and what it loads (xml-crypto, xml-encryption, xpath: some 1 MB of code) are read on
 * the first SAML request, not at start: a server whose accounts sign in otherwise never holds them.
 */
let nodeSaml: Promise<typeof import('@node-saml/node-saml')> | undefined;
function loadNodeSaml(): Promise<typeof import('@node-saml/node-saml')> {
  nodeSaml ??= commonJs(import('@node-saml/node-saml'));
  return nodeSaml;
}

/**
 * Reads SAML's code now (node-saml, xmldom): the server does before it listens, so that no
 * stranger's first SAML request holds the event loop while some 1 MB of code is evaluated
 * (80–300 ms). The `vigil` command, which never needs it, does not.
 */
export async function loadSamlCode(): Promise<void> {
  await Promise.all([loadNodeSaml(), xmlReader()]);
}

async function samlFor(db: Db, baseUrl: string, connection: SsoConnection): Promise<SAML> {
  const idp = connection.saml;
  if (!idp) throw new SsoRefusal('not_configured');
  const urls = ssoUrls(baseUrl, connection.accountId);
  const { SAML, ValidateInResponseTo } = await loadNodeSaml();
  return new SAML({
    callbackUrl: urls.samlAcs,
    entryPoint: idp.ssoUrl,
    issuer: urls.samlEntityId,
    audience: urls.samlEntityId,
    idpIssuer: idp.entityId,
    idpCert: idp.certificates.map(certificatePem),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: REQUEST_TTL_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestCache(db, connection.accountId),
    identifierFormat: EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  });
}

/** Vigil's service-provider metadata for this account (what the IdP is given). */
export async function serviceProviderMetadata(baseUrl: string, accountId: number): Promise<string> {
  const urls = ssoUrls(baseUrl, accountId);
  const { generateServiceProviderMetadata } = await loadNodeSaml();
  return generateServiceProviderMetadata({
    issuer: urls.samlEntityId,
    callbackUrl: urls.samlAcs,
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
  });
}

/** Starts a sign-in: the IdP's URL with a fresh AuthnRequest (its ID remembered). */
export async function startSamlSignIn(db: Db, baseUrl: string, connection: SsoConnection): Promise<string> {
  return (await samlFor(db, baseUrl, connection)).getAuthorizeUrlAsync('', undefined, {});
}

function refusalOf(err: unknown): SsoRefusal {
  if (err instanceof SsoRefusal) return err;
  const message = (err as Error)?.message ?? String(err);
  if (/InResponseTo/i.test(message)) return new SsoRefusal('in_response_to', message);
  if (/signature/i.test(message)) return new SsoRefusal('signature_invalid', message);
  if (/audience/i.test(message)) return new SsoRefusal('audience_mismatch', message);
  if (/issuer/i.test(message)) return new SsoRefusal('issuer_mismatch', message);
  if (/expired|not yet valid|subject confirmation/i.test(message)) return new SsoRefusal('expired', message);
  if (/SAML provider returned|status/i.test(message)) return new SsoRefusal('idp_error', message);
  return new SsoRefusal('malformed', message);
}

function firstString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return null;
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  'urn:oid:2.16.840.1.113730.3.1.241',
];

/**
 * Checks a posted SAMLResponse and returns who signed in; throws SsoRefusal otherwise. The
 * assertion's ID is remembered (until NotOnOrAfter) only once every other check passed.
 */
export async function finishSamlSignIn(
  db: Db,
  baseUrl: string,
  connection: SsoConnection,
  samlResponse: unknown,
): Promise<{ email: string; name: string | null; groups: string[] }> {
  if (typeof samlResponse !== 'string' || samlResponse === '')
    throw new SsoRefusal('malformed', 'no SAMLResponse');
  if (samlResponse.length > MAX_SAML_RESPONSE_BYTES || !/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) {
    throw new SsoRefusal('malformed', 'SAMLResponse is not base64 of a bounded size');
  }
  let profile: Record<string, unknown> | null;
  try {
    ({ profile } = (await (
      await samlFor(db, baseUrl, connection)
    ).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    })) as {
      profile: Record<string, unknown> | null;
    });
  } catch (err) {
    const refusal = refusalOf(err);
    // The request it answered was used up by its first post: say why, when the assertion is one already seen.
    if (refusal.reason === 'in_response_to') {
      const id = await assertionIdOf(samlResponse);
      if (id && (await assertionKnown(db, connection.accountId, id)))
        throw new SsoRefusal('replayed', refusal.detail);
    }
    throw refusal;
  }
  if (!profile) throw new SsoRefusal('malformed', 'no profile');
  // node-saml checks the issuer of logout messages only: the signed assertion's Issuer is checked here.
  if (profile.issuer !== connection.saml?.entityId) {
    throw new SsoRefusal('issuer_mismatch', `assertion issued by ${String(profile.issuer).slice(0, 200)}`);
  }
  const assertion = (
    profile.getAssertion as
      | (() => { Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } })
      | undefined
  )?.();
  const assertionId = assertion?.Assertion?.$?.ID;
  if (!assertionId || assertionId.length > 200) throw new SsoRefusal('malformed', 'assertion without an ID');
  const notOnOrAfter = Date.parse(assertion?.Assertion?.Conditions?.[0]?.$?.NotOnOrAfter ?? '');
  const now = Date.now();
  const keepUntil =
    (Number.isFinite(notOnOrAfter) ? Math.max(notOnOrAfter, now) : now + REQUEST_TTL_MS) + CLOCK_SKEW_MS;
  if (!(await rememberAssertion(db, connection.accountId, assertionId, keepUntil, now))) {
    throw new SsoRefusal('replayed', `assertion ${assertionId.slice(0, 80)} already used`);
  }
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  let email: string | null = null;
  for (const name of EMAIL_ATTRIBUTES) {
    email = firstString(attributes[name]) ?? firstString(profile[name]);
    if (email) break;
  }
  if (!email && profile.nameIDFormat === EMAIL_FORMAT) email = firstString(profile.nameID);
  if (!email || email.length > 254 || !email.includes('@'))
    throw new SsoRefusal('email_missing', 'no email attribute');
  let name: string | null = null;
  for (const attribute of NAME_ATTRIBUTES) {
    name = firstString(attributes[attribute]);
    if (name) break;
  }
  const groups = connection.groupsClaim ? groupsOf(attributes[connection.groupsClaim]) : [];
  return { email, name, groups };
}
