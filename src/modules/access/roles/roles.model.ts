import type { AccountRole } from '../../../core/db/schema.js';

/**
 * What an account's administrators may do: permissions as data, roles as named sets of them.
 * Every admin API route under an account declares the permission it needs
 * (`config.adminPermission`); the account scope's hook refuses the others with 403.
 */
export const ADMIN_PERMISSIONS = [
  'overview:read',
  'account:read',
  'account:write',
  'admins:read',
  /** Invite and remove administrators, change their roles and group scopes, reset their MFA. */
  'roles:write',
  /** SSO, the MFA requirement, SSO only. */
  'security:write',
  'audit:read',
  /** The audit log's retention. */
  'audit:settings',
  /** API keys, SCIM tokens, webhooks, the report button's keys. */
  'integrations:read',
  'integrations:write',
  'directory:read',
  'directory:write',
  'training:read',
  'training:write',
  'phishing:read',
  'phishing:write',
  'results:read',
  'mail:read',
  /** Retry a failed message. */
  'mail:write',
  /** Read reported mail (it may hold personal data). */
  'reports:read',
  /** Give verdicts, rules, feedback templates, reporting settings. */
  'reports:write',
] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];

/**
 * What a route outside an account declares instead of a permission: open to anyone (sign-in,
 * invitation links), to any signed-in user, or to operators only. An account route may also be
 * `operator` (an operator's change to the account itself).
 */
export const ROUTE_ACCESS = ['public', 'signed-in', 'operator'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

export function isAdminPermission(value: unknown): value is AdminPermission {
  return typeof value === 'string' && (ADMIN_PERMISSIONS as readonly string[]).includes(value);
}

/**
 * Permissions whose routes act on the whole account, whatever groups a role is limited to: an
 * API key or a SCIM token reads every employee, a webhook gets every event, the audit log and
 * SSO, roles and settings concern everyone. A role limited to groups gets 403
 * `scope_too_narrow` on them (docs/roles.md), as on a route that declares
 * `config.adminScope: 'account'` (reporting and phishing settings, report rules, …).
 */
export const ACCOUNT_WIDE_PERMISSIONS: readonly AdminPermission[] = [
  'account:write',
  'roles:write',
  'security:write',
  'audit:read',
  'audit:settings',
  'integrations:read',
  'integrations:write',
];

/** Whether a route needing this permission (and declaring this scope) acts on the whole account. */
export function actsOnWholeAccount(permission: unknown, declared: unknown): boolean {
  return (
    declared === 'account' || (isAdminPermission(permission) && ACCOUNT_WIDE_PERMISSIONS.includes(permission))
  );
}

export const ACCOUNT_ROLES: readonly AccountRole[] = [
  'owner',
  'administrator',
  'campaign_manager',
  'triage_analyst',
  'auditor',
];

const ALL = ADMIN_PERMISSIONS;
const READS = ADMIN_PERMISSIONS.filter((p) => p.endsWith(':read'));

/** The built-in roles and what each may do. */
export const ROLE_PERMISSIONS: Record<AccountRole, readonly AdminPermission[]> = {
  owner: ALL,
  administrator: ALL.filter((p) => p !== 'security:write' && p !== 'roles:write' && p !== 'audit:settings'),
  campaign_manager: [
    'overview:read',
    'account:read',
    'directory:read',
    'training:read',
    'training:write',
    'phishing:read',
    'phishing:write',
    'results:read',
    'mail:read',
    'mail:write',
  ],
  triage_analyst: ['overview:read', 'account:read', 'reports:read', 'reports:write'],
  auditor: READS,
};

export const ROLE_NAMES: Record<AccountRole, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  campaign_manager: 'Campaign manager',
  triage_analyst: 'Triage analyst',
  auditor: 'Auditor',
};

export function isAccountRole(value: unknown): value is AccountRole {
  return typeof value === 'string' && (ACCOUNT_ROLES as readonly string[]).includes(value);
}

/** Whether this role holds this permission (operators hold every one, in every account). */
export function roleAllows(
  role: AccountRole | null,
  operator: boolean,
  permission: AdminPermission,
): boolean {
  if (operator) return true;
  return role !== null && (ROLE_PERMISSIONS[role]?.includes(permission) ?? false);
}
