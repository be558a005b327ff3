import { type AuditChanges, diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { SsoProtocol } from '../../../core/db/schema.js';
import { AppError, FieldErrorCollector, ssoNotFound } from '../../../core/errors.js';
import { getAccount } from '../accounts/accounts.service.js';
import { hasSecondFactor } from '../mfa/mfa.service.js';
import {
  changeSecuritySettings,
  type SecuritySettings,
  securitySettingsOf,
} from '../security/security.service.js';
import {
  checkDomains,
  checkLine,
  checkRoleMapping,
  checkUrl,
  domainOf,
  isDomain,
  MAX_METADATA_BYTES,
  type SsoConnection,
  type SsoEnv,
  toConnection,
  usableConnection,
} from './sso.model.js';
import { discoverIssuer } from './sso.oidc.service.js';
import {
  deleteConnection,
  findAccountAdmin,
  findConnection,
  findConnectionsAllowingDomain,
  insertConnection,
  listBreakGlassOwners,
  listOwners,
  type SsoConnectionRow,
  updateConnection,
  updateSsoAdmin,
} from './sso.repository.js';
import { type IdpMetadata, parseIdpMetadata } from './sso.saml-metadata.service.js';

const ssoAdminNotFound = () => new AppError('admin_not_found');

export async function connectionOf(db: Db, accountId: number): Promise<SsoConnection | null> {
  const row = await findConnection(db, accountId);
  return row ? toConnection(row) : null;
}

/**
 * The open connection that lets this address sign in (its domain allowed), for the sign-in page's
 * "Sign in with SSO"; null when there is none, or when more than one account allows the domain.
 */
export async function findConnectionForEmail(db: Db, email: string): Promise<SsoConnection | null> {
  const domain = domainOf(email.trim());
  if (!domain || !isDomain(domain)) return null;
  const rows = await findConnectionsAllowingDomain(db, domain);
  const open = rows.map(toConnection).filter((c) => usableConnection(c) && c.allowedDomains.includes(domain));
  return open.length === 1 ? (open[0] as SsoConnection) : null;
}

/** The account's connection when sign-in through it is open; 404 `sso_not_found` otherwise. */
export async function enabledConnectionOf(db: Db, accountId: number): Promise<SsoConnection> {
  const connection = await connectionOf(db, accountId);
  if (!connection?.enabled || (!connection.oidc && !connection.saml)) throw ssoNotFound();
  return connection;
}

/** The account's connection for its settings page (404 without one). */
export async function getSsoConnection(db: Db, accountId: number): Promise<SsoConnection> {
  await getAccount(db, accountId);
  const connection = await connectionOf(db, accountId);
  if (!connection) throw ssoNotFound();
  return connection;
}

/** What the settings form sends. */
export interface SsoInput {
  protocol?: unknown;
  enabled?: unknown;
  allowed_domains?: unknown;
  groups_claim?: unknown;
  role_mapping?: unknown;
  oidc?: { issuer?: unknown; client_id?: unknown; client_secret?: unknown; acr_values?: unknown } | null;
  saml?: { metadata_xml?: unknown; metadata_url?: unknown } | null;
}

/** Fetches an IdP's metadata once (SSRF-safe, bounded), for `parseIdpMetadata`. */
async function fetchMetadata(
  env: SsoEnv,
  errors: FieldErrorCollector,
  field: string,
  url: URL,
): Promise<string | null> {
  if (url.protocol === 'http:' && !env.plainHttpAllowed(url)) {
    errors.add(field, 'must be an https URL');
    return null;
  }
  try {
    const response = await env.fetch(url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
    });
    if (response.status !== 200) {
      errors.add(field, `answered ${response.status}, not the metadata`);
      return null;
    }
    const text = await response.text();
    if (text.length > MAX_METADATA_BYTES) {
      errors.add(field, 'answered a document too large to be metadata');
      return null;
    }
    return text;
  } catch (err) {
    errors.add(field, `could not be fetched: ${(err as Error).message}`.slice(0, 300));
    return null;
  }
}

/**
 * Creates or replaces the account's connection: each field checked (an OIDC issuer is
 * discovered, SAML metadata parsed, fetched once from its URL if given), the client secret sealed
 * (kept when not sent), the change recorded in the audit log (the secret only as changed).
 */
export async function saveSsoConnection(
  db: Db,
  env: SsoEnv,
  accountId: number,
  input: SsoInput,
): Promise<SsoConnection> {
  await getAccount(db, accountId);
  const before = await connectionOf(db, accountId);
  const errors = new FieldErrorCollector();
  const protocol = input.protocol;
  if (protocol !== 'oidc' && protocol !== 'saml') errors.add('protocol', 'must be oidc or saml');
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean')
    errors.add('enabled', 'must be true or false');
  const enabled = input.enabled === true;
  const domains = checkDomains(errors, 'allowed_domains', input.allowed_domains);
  const groupsClaim = checkLine(errors, 'groups_claim', input.groups_claim, false);
  const mapping = checkRoleMapping(errors, 'role_mapping', input.role_mapping);
  if (mapping.length > 0 && groupsClaim === null)
    errors.add('groups_claim', 'is required when groups map to roles');

  let oidc: SsoConnection['oidc'] = null;
  let secretChanged = false;
  let saml: IdpMetadata | null = null;
  if (protocol === 'oidc') {
    const o = input.oidc ?? {};
    const issuer = checkUrl(errors, 'oidc.issuer', o.issuer);
    if (issuer?.protocol === 'http:' && !env.plainHttpAllowed(issuer))
      errors.add('oidc.issuer', 'must be an https URL');
    const clientId = checkLine(errors, 'oidc.client_id', o.client_id);
    const acr = checkLine(errors, 'oidc.acr_values', o.acr_values, false);
    let sealedSecret = before?.oidc?.sealedSecret ?? null;
    if (o.client_secret !== undefined && o.client_secret !== null && o.client_secret !== '') {
      const secret = checkLine(errors, 'oidc.client_secret', o.client_secret);
      if (secret) {
        sealedSecret = env.secretBox.seal(secret);
        secretChanged = true;
      }
    }
    if (sealedSecret === null) errors.add('oidc.client_secret', 'is required');
    // The issuer as the IdP spells it (discovery compares it exactly): as typed, trailing slash and all.
    if (issuer && clientId)
      oidc = { issuer: String(o.issuer).trim(), clientId, sealedSecret, acrValues: acr };
    errors.throwIfAny();
    if (oidc) {
      try {
        await discoverIssuer(env, { ...oidc, secret: env.secretBox.open(oidc.sealedSecret as string) });
      } catch (err) {
        errors.add('oidc.issuer', `discovery failed: ${(err as Error).message}`.slice(0, 300));
      }
    }
  } else if (protocol === 'saml') {
    const s = input.saml ?? {};
    let xml: string | null = null;
    if (typeof s.metadata_xml === 'string' && s.metadata_xml.trim() !== '') xml = s.metadata_xml;
    else if (s.metadata_url !== undefined && s.metadata_url !== null && s.metadata_url !== '') {
      const url = checkUrl(errors, 'saml.metadata_url', s.metadata_url);
      if (url) xml = await fetchMetadata(env, errors, 'saml.metadata_url', url);
    } else if (before?.saml) saml = before.saml;
    else errors.add('saml.metadata_xml', 'is required (paste the metadata, or give its URL)');
    if (xml !== null)
      saml = await parseIdpMetadata(errors, s.metadata_xml ? 'saml.metadata_xml' : 'saml.metadata_url', xml);
  }
  errors.throwIfAny();

  const now = Date.now();
  const values = {
    protocol: protocol as SsoProtocol,
    enabled: enabled ? 1 : 0,
    oidc_issuer: oidc?.issuer ?? null,
    oidc_client_id: oidc?.clientId ?? null,
    oidc_client_secret: oidc?.sealedSecret ?? null,
    oidc_acr_values: oidc?.acrValues ?? null,
    saml_idp_entity_id: saml?.entityId ?? null,
    saml_idp_sso_url: saml?.ssoUrl ?? null,
    saml_idp_certs: saml ? JSON.stringify(saml.certificates) : null,
    allowed_domains: JSON.stringify(domains),
    groups_claim: groupsClaim,
    role_mapping: JSON.stringify(mapping),
    updated_at: now,
  };
  return db.transaction().execute(async (trx) => {
    if (before) await updateConnection(trx, accountId, values);
    else await insertConnection(trx, { account_id: accountId, ...values, created_at: now });
    const after = toConnection((await findConnection(trx, accountId)) as SsoConnectionRow);
    // Turning SSO off (or away) in an SSO-only account would leave only break-glass owners: SSO only ends too.
    if (!after.enabled && (await securitySettingsOf(trx, accountId)).sso_only) {
      await changeSecuritySettings(trx, accountId, { sso_only: false });
    }
    const changes: AuditChanges = diffFields(auditView(before), auditView(after));
    if (secretChanged) changes.oidc_client_secret = { changed: true };
    if (Object.keys(changes).length > 0) {
      await recordAudit(trx, {
        accountId,
        action: before ? 'sso.updated' : 'sso.created',
        object: { type: 'sso_connection', id: accountId, label: protocol as string },
        changes,
      });
    }
    return after;
  });
}

/** The connection's fields as the audit log records them: no secret, certificates by fingerprint. */
function auditView(c: SsoConnection | null): Record<string, unknown> {
  if (!c) return {};
  return {
    protocol: c.protocol,
    enabled: c.enabled,
    allowed_domains: c.allowedDomains,
    groups_claim: c.groupsClaim,
    role_mapping: c.roleMapping,
    oidc_issuer: c.oidc?.issuer ?? null,
    oidc_client_id: c.oidc?.clientId ?? null,
    oidc_acr_values: c.oidc?.acrValues ?? null,
    saml_idp_entity_id: c.saml?.entityId ?? null,
    saml_idp_sso_url: c.saml?.ssoUrl ?? null,
    saml_idp_certificates: c.saml?.certificates.length ?? null,
  };
}

/** Removes the account's connection (and ends "SSO only", which would have nothing to send people to). */
export async function removeSsoConnection(db: Db, accountId: number): Promise<void> {
  await getAccount(db, accountId);
  await db.transaction().execute(async (trx) => {
    const before = await connectionOf(trx, accountId);
    if (!before || !(await deleteConnection(trx, accountId))) throw ssoNotFound();
    if ((await securitySettingsOf(trx, accountId)).sso_only) {
      await changeSecuritySettings(trx, accountId, { sso_only: false });
    }
    await recordAudit(trx, {
      accountId,
      action: 'sso.deleted',
      object: { type: 'sso_connection', id: accountId, label: before.protocol },
    });
  });
}

/**
 * Changes "SSO only" and the default role of administrators SSO makes. Turning SSO only on needs
 * an enabled connection and at least one break-glass owner who has a second factor (400 naming
 * `sso_only` otherwise), so nobody is locked out when the IdP is down.
 */
export async function changeSignInSettings(
  db: Db,
  accountId: number,
  patch: { sso_only?: unknown; default_role?: unknown },
): Promise<SecuritySettings> {
  await getAccount(db, accountId);
  if (patch.sso_only === true) {
    const errors = new FieldErrorCollector();
    const connection = await connectionOf(db, accountId);
    if (!connection?.enabled) errors.add('sso_only', 'needs single sign-on set up and enabled first');
    const owners = await listBreakGlassOwners(db, accountId);
    let withMfa = 0;
    for (const owner of owners) if (await hasSecondFactor(db, owner.id)) withMfa++;
    if (withMfa === 0) {
      errors.add('sso_only', 'needs at least one break-glass owner who has a second factor (MFA)');
    }
    errors.throwIfAny();
  }
  const settings: Partial<Record<keyof SecuritySettings, unknown>> = {};
  if (patch.sso_only !== undefined) settings.sso_only = patch.sso_only;
  if (patch.default_role !== undefined) settings.default_role = patch.default_role;
  return db.transaction().execute((trx) => changeSecuritySettings(trx, accountId, settings));
}

/** Names or withdraws a break-glass owner (only owners may be one), recorded in the audit log. */
export async function setBreakGlass(db: Db, accountId: number, adminId: number, breakGlass: unknown) {
  await getAccount(db, accountId);
  const errors = new FieldErrorCollector();
  if (typeof breakGlass !== 'boolean') errors.add('break_glass', 'must be true or false');
  const admin = await findAccountAdmin(db, accountId, adminId);
  if (!admin) throw ssoAdminNotFound();
  if (breakGlass === true && admin.account_role !== 'owner')
    errors.add('break_glass', 'only an owner can be a break-glass owner');
  errors.throwIfAny();
  return db.transaction().execute(async (trx) => {
    if (
      breakGlass === false &&
      admin.break_glass === 1 &&
      (await securitySettingsOf(trx, accountId)).sso_only
    ) {
      const others = (await listBreakGlassOwners(trx, accountId)).filter((o) => o.id !== adminId);
      let withMfa = 0;
      for (const other of others) if (await hasSecondFactor(trx, other.id)) withMfa++;
      if (withMfa === 0) {
        const refusal = new FieldErrorCollector();
        refusal.add('break_glass', 'the account is SSO only: another break-glass owner with MFA must remain');
        refusal.throwIfAny();
      }
    }
    const value = breakGlass ? 1 : 0;
    if (admin.break_glass !== value) {
      await updateSsoAdmin(trx, accountId, adminId, { break_glass: value, updated_at: Date.now() });
      await recordAudit(trx, {
        accountId,
        action: 'admin.updated',
        object: { type: 'admin', id: adminId, label: admin.email },
        changes: { break_glass: { from: admin.break_glass === 1, to: value === 1 } },
      });
    }
    return { id: adminId, email: admin.email, break_glass: value === 1 };
  });
}

/** What the settings page shows: the connection, SSO only, the default role, and the owners. */
export async function ssoSettingsOf(db: Db, accountId: number) {
  await getAccount(db, accountId);
  const connection = await connectionOf(db, accountId);
  const security = await securitySettingsOf(db, accountId);
  const owners = [];
  for (const owner of await listOwners(db, accountId)) {
    owners.push({
      id: owner.id,
      email: owner.email,
      name: owner.name,
      break_glass: owner.break_glass === 1,
      has_mfa: await hasSecondFactor(db, owner.id),
    });
  }
  return { connection, sso_only: security.sso_only, default_role: security.default_role, owners };
}

export { type SsoConnection, type SsoEnv, ssoUrls, toConnection, usableConnection } from './sso.model.js';
