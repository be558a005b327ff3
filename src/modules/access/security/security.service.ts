import { type AuditChanges, diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { AccountRole } from '../../../core/db/schema.js';
import { FieldErrorCollector } from '../../../core/errors.js';
import { getAccount } from '../accounts/accounts.service.js';
import { isAccountRole, ROLE_NAMES } from '../roles/roles.model.js';
import { findSecurityRow, upsertSecurityRow } from './security.repository.js';

/**
 * An account's sign-in and audit settings. Each owner of a setting changes it through
 * `changeSecuritySettings` from its own route (MFA the requirement, SSO "SSO only" and the default
 * role of administrators it makes, the audit log its retention), which checks and records it.
 */
export interface SecuritySettings {
  /** Every administrator must have a second factor; those without one enrol at next sign-in. */
  require_mfa: boolean;
  /** Password sign-in refused but for break-glass owners. */
  sso_only: boolean;
  /** The role of an administrator made at their first SSO sign-in, when no group claim maps one. */
  default_role: AccountRole;
  /** Days the audit log is kept. */
  audit_retention_days: number;
}

export const AUDIT_RETENTION_DEFAULT_DAYS = 400;
export const AUDIT_RETENTION_MIN_DAYS = 180;
export const AUDIT_RETENTION_MAX_DAYS = 3650;

export const DEFAULT_SECURITY: SecuritySettings = {
  require_mfa: false,
  sso_only: false,
  default_role: 'campaign_manager',
  audit_retention_days: AUDIT_RETENTION_DEFAULT_DAYS,
};

/** The account's settings (the defaults for those never changed). */
export async function securitySettingsOf(db: Db, accountId: number): Promise<SecuritySettings> {
  const row = await findSecurityRow(db, accountId);
  if (!row) return { ...DEFAULT_SECURITY };
  return {
    require_mfa: row.require_mfa === 1,
    sso_only: row.sso_only === 1,
    default_role: row.default_role,
    audit_retention_days: row.audit_retention_days ?? AUDIT_RETENTION_DEFAULT_DAYS,
  };
}

/**
 * Checks and writes some of the account's settings in `trx` (the caller's transaction, so a
 * setting and what it depends on change together) and records the change in the audit log.
 * 400 with each bad field named; returns the settings as they are now.
 */
export async function changeSecuritySettings(
  trx: Db,
  accountId: number,
  patch: Partial<Record<keyof SecuritySettings, unknown>>,
): Promise<SecuritySettings> {
  await getAccount(trx, accountId);
  const errors = new FieldErrorCollector();
  const before = await securitySettingsOf(trx, accountId);
  const after: SecuritySettings = { ...before };
  for (const field of ['require_mfa', 'sso_only'] as const) {
    const value = patch[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') errors.add(field, 'must be true or false');
    else after[field] = value;
  }
  if (patch.default_role !== undefined) {
    if (!isAccountRole(patch.default_role)) {
      errors.add('default_role', `must be one of ${Object.keys(ROLE_NAMES).join(', ')}`);
    } else if (patch.default_role === 'owner') {
      errors.add('default_role', 'cannot be owner: an owner is named by another owner');
    } else after.default_role = patch.default_role;
  }
  const days = patch.audit_retention_days;
  if (days !== undefined) {
    if (typeof days !== 'number' || !Number.isInteger(days))
      errors.add('audit_retention_days', 'must be an integer');
    else if (days < AUDIT_RETENTION_MIN_DAYS || days > AUDIT_RETENTION_MAX_DAYS) {
      errors.add(
        'audit_retention_days',
        `must be between ${AUDIT_RETENTION_MIN_DAYS} and ${AUDIT_RETENTION_MAX_DAYS} days`,
      );
    } else after.audit_retention_days = days;
  }
  errors.throwIfAny();
  const changes: AuditChanges = diffFields(
    before as unknown as Record<string, unknown>,
    after as unknown as Record<string, unknown>,
  );
  if (Object.keys(changes).length === 0) return after;
  await upsertSecurityRow(trx, accountId, {
    require_mfa: after.require_mfa ? 1 : 0,
    sso_only: after.sso_only ? 1 : 0,
    default_role: after.default_role,
    audit_retention_days: after.audit_retention_days,
    updated_at: Date.now(),
  });
  await recordAudit(trx, {
    accountId,
    action: 'security_settings.updated',
    object: { type: 'account', id: accountId },
    changes,
  });
  return after;
}
