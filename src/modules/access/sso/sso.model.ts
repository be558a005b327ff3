import type { SecretBox } from '../../../core/auth/secret-box.js';
import type { AccountRole, SsoProtocol } from '../../../core/db/schema.js';
import type { FieldErrorCollector } from '../../../core/errors.js';
import { linkTo } from '../../../core/http/links.js';
import { isAccountRole, ROLE_NAMES } from '../roles/roles.model.js';
import type { SsoConnectionRow } from './sso.repository.js';

/** Single sign-on's pure rules: allowed domains, the group → role mapping, what a refusal says. */

/**
 * Reads what Vigil needs from an identity provider's SAML metadata: its entity id, where
 * AuthnRequests go (HTTP-Redirect binding, else HTTP-POST) and its signing certificates. A
 * document with a DTD is refused (no entity is ever expanded); each certificate must parse.
 */
export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER, as the metadata holds them. */
  certificates: string[];
}

export const MAX_DOMAINS = 50;
export const MAX_MAPPINGS = 50;
export const MAX_TEXT = 500;
export const MAX_URL = 2000;
/** An IdP's metadata document, pasted or fetched: at most this many bytes. */
export const MAX_METADATA_BYTES = 256 * 1024;
/** A SAMLResponse form field: at most this many bytes (base64 of the XML). */
export const MAX_SAML_RESPONSE_BYTES = 512 * 1024;
/** How long a sign-in may take at the identity provider. */
export const REQUEST_TTL_MS = 10 * 60 * 1000;
/** The clock skew accepted between Vigil and the identity provider. */
export const CLOCK_SKEW_MS = 60 * 1000;

export interface RoleMapping {
  group: string;
  role: Exclude<AccountRole, 'owner'>;
}

/** Why a sign-in is refused: shown to the person, written to the log and the audit log. */
export const REFUSALS = {
  not_configured: 'Single sign-on is not set up or not enabled for this account.',
  state_mismatch:
    'This sign-in was not started from this browser, was already used or has expired. Start again.',
  idp_error: 'The identity provider did not sign you in.',
  token_invalid: 'The identity provider’s answer could not be verified.',
  issuer_mismatch: 'The answer comes from another identity provider than the one configured.',
  audience_mismatch: 'The answer was meant for another service.',
  nonce_mismatch: 'The answer does not belong to this sign-in.',
  expired: 'The answer has expired. Start again.',
  signature_invalid: 'The answer’s signature is missing or does not match the identity provider’s key.',
  replayed: 'This answer was already used. Start again.',
  in_response_to: 'The answer does not belong to a sign-in started here. Start again.',
  email_missing: 'The identity provider did not give a verified email address.',
  domain_not_allowed: 'Your email domain is not allowed to sign in to this account.',
  other_account: 'This email address belongs to an administrator of another account or to an operator.',
  disabled: 'Your administrator account is disabled.',
  malformed: 'The answer could not be read.',
} as const;
export type RefusalReason = keyof typeof REFUSALS;

/** A refused sign-in: the reason's code, and a detail for the log (never a token or an assertion). */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly detail?: string,
  ) {
    super(REFUSALS[reason]);
  }
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

/** Whether this is a valid (lower-case) domain name. */
export const isDomain = (text: string) => DOMAIN.test(text);

/** Lower-case domains, each valid and listed once; at least one. */
export function checkDomains(errors: FieldErrorCollector, field: string, value: unknown): string[] {
  if (!Array.isArray(value)) {
    errors.add(field, 'must be a list of domains');
    return [];
  }
  if (value.length === 0) errors.add(field, 'must name at least one domain');
  if (value.length > MAX_DOMAINS) errors.add(field, `must have at most ${MAX_DOMAINS} domains`);
  const domains: string[] = [];
  for (const item of value.slice(0, MAX_DOMAINS)) {
    const domain = typeof item === 'string' ? item.trim().toLowerCase().replace(/^@/, '') : '';
    if (!DOMAIN.test(domain))
      errors.add(field, `${JSON.stringify(String(item).slice(0, 80))} is not a domain`);
    else if (!domains.includes(domain)) domains.push(domain);
  }
  return domains;
}

export function checkRoleMapping(errors: FieldErrorCollector, field: string, value: unknown): RoleMapping[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    errors.add(field, 'must be a list of { group, role }');
    return [];
  }
  if (value.length > MAX_MAPPINGS) errors.add(field, `must have at most ${MAX_MAPPINGS} entries`);
  const mapping: RoleMapping[] = [];
  for (const item of value.slice(0, MAX_MAPPINGS)) {
    const group = (item as { group?: unknown })?.group;
    const role = (item as { role?: unknown })?.role;
    if (typeof group !== 'string' || group.trim() === '' || group.length > MAX_TEXT) {
      errors.add(field, 'each entry needs a group (text of 1 to 500 characters)');
      continue;
    }
    if (!isAccountRole(role) || role === 'owner') {
      errors.add(
        field,
        `the role of ${JSON.stringify(group.slice(0, 80))} must be one of ${Object.keys(ROLE_NAMES)
          .filter((r) => r !== 'owner')
          .join(', ')}`,
      );
      continue;
    }
    mapping.push({ group: group.trim(), role });
  }
  return mapping;
}

/** The domain of an address, lower case, or null. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return email.slice(at + 1).toLowerCase();
}

export function domainAllowed(email: string, allowed: readonly string[]): boolean {
  const domain = domainOf(email);
  return domain !== null && allowed.includes(domain);
}

/** The groups a claim or attribute holds: a list of strings, or one string. */
export function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').slice(0, 1000);
  return [];
}

/** The role the first matching mapping names, or null when none matches. */
export function mappedRole(
  mapping: readonly RoleMapping[],
  groups: readonly string[],
): RoleMapping['role'] | null {
  for (const entry of mapping) if (groups.includes(entry.group)) return entry.role;
  return null;
}

/** A URL of http(s) of at most MAX_URL characters, or null with the error added. */
export function checkUrl(errors: FieldErrorCollector, field: string, value: unknown): URL | null {
  if (typeof value !== 'string' || value.trim() === '') {
    errors.add(field, 'is required');
    return null;
  }
  if (value.length > MAX_URL) {
    errors.add(field, `must be at most ${MAX_URL} characters`);
    return null;
  }
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    if (url.username || url.password) throw new Error('credentials');
    return url;
  } catch {
    errors.add(field, 'must be an https URL');
    return null;
  }
}

/** Single-line text of 1..MAX_TEXT characters. */
export function checkLine(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  required = true,
): string | null {
  if (value === undefined || value === null || value === '') {
    if (required) errors.add(field, 'is required');
    return null;
  }
  if (typeof value !== 'string') {
    errors.add(field, 'must be text');
    return null;
  }
  const text = value.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (text.length > MAX_TEXT || /[\u0000-\u001f\u007f]/.test(text) || !text.isWellFormed()) {
    errors.add(field, `must be one line of at most ${MAX_TEXT} characters`);
    return null;
  }
  if (text === '' && required) errors.add(field, 'is required');
  return text === '' ? null : text;
}

/** What SSO needs from the app: the secret box, a fetch that only reaches allowed addresses, the public URL. */
export interface SsoEnv {
  secretBox: SecretBox;
  /** SSRF-safe (core/http/guarded-fetch.ts). */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** PUBLIC_URL (else the listening address): every URL an identity provider is given. */
  baseUrl: string;
  /** Whether plain http may be used for this URL (only for hosts the operator lists). */
  plainHttpAllowed: (url: URL) => boolean;
}

/** An account's connection as the rest of SSO reads it (secrets still sealed). */
export interface SsoConnection {
  accountId: number;
  protocol: SsoProtocol;
  enabled: boolean;
  allowedDomains: string[];
  groupsClaim: string | null;
  roleMapping: RoleMapping[];
  oidc: { issuer: string; clientId: string; sealedSecret: string | null; acrValues: string | null } | null;
  saml: IdpMetadata | null;
  updatedAt: number;
}

export function toConnection(row: SsoConnectionRow): SsoConnection {
  return {
    accountId: row.account_id,
    protocol: row.protocol,
    enabled: row.enabled === 1,
    allowedDomains: JSON.parse(row.allowed_domains) as string[],
    groupsClaim: row.groups_claim,
    roleMapping: JSON.parse(row.role_mapping) as RoleMapping[],
    oidc:
      row.protocol === 'oidc' && row.oidc_issuer && row.oidc_client_id
        ? {
            issuer: row.oidc_issuer,
            clientId: row.oidc_client_id,
            sealedSecret: row.oidc_client_secret,
            acrValues: row.oidc_acr_values,
          }
        : null,
    saml:
      row.protocol === 'saml' && row.saml_idp_entity_id && row.saml_idp_sso_url && row.saml_idp_certs
        ? {
            entityId: row.saml_idp_entity_id,
            ssoUrl: row.saml_idp_sso_url,
            certificates: JSON.parse(row.saml_idp_certs) as string[],
          }
        : null,
    updatedAt: row.updated_at,
  };
}

/** The URLs an identity provider is given for this account. */
export function ssoUrls(baseUrl: string, accountId: number) {
  const at = (path: string) => linkTo(baseUrl, `/sso/${accountId}${path}`);
  return {
    login: at('/login'),
    oidcRedirect: at('/oidc/callback'),
    samlEntityId: at('/saml/metadata'),
    samlAcs: at('/saml/acs'),
    samlMetadata: at('/saml/metadata'),
  };
}

/** The connection when sign-in through it is open, else null. */
export function usableConnection(connection: SsoConnection | null): SsoConnection | null {
  return connection?.enabled && (connection.oidc || connection.saml) ? connection : null;
}
