import type { Generated } from 'kysely';

/**
 * Table types. Timestamps are epoch milliseconds (integer in SQLite, bigint in PostgreSQL) so
 * one code path serves both dialects; presenters turn them into ISO 8601 strings.
 */
export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** The first characters of the key (`vgl_` + 8), shown in lists to recognise a key. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  secret_hash: string;
  /** JSON array of permission strings such as "groups:write". */
  permissions: string;
  /** Requests per minute. */
  rate_limit: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface EmployeesTable {
  id: Generated<number>;
  account_id: number;
  first_name: string;
  last_name: string;
  /** As first sent (trimmed). */
  email: string;
  /** Lower-cased; unique per account. */
  email_normalized: string;
  created_at: number;
  updated_at: number;
}

export interface GroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string;
  /** Kept in step with group_members in the same transaction. */
  employee_count: number;
  /** Increases with every change of membership, name or description; the ETag is made from it. */
  version: number;
  created_at: number;
  updated_at: number;
}

export interface GroupMembersTable {
  group_id: number;
  employee_id: number;
}

export interface TrainingCampaignsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  status: string;
  created_at: number;
  updated_at: number;
}

export interface CampaignGroupsTable {
  campaign_id: number;
  group_id: number;
}

export interface AppSecretsTable {
  /** What the secret is for, e.g. "cookie". */
  name: string;
  value: string;
  created_at: number;
}

export type AdminRole = 'operator' | 'account_admin';

export interface AdminUsersTable {
  id: Generated<number>;
  email: string;
  /** Lower-cased; unique across the service (one person, one sign-in). */
  email_normalized: string;
  name: Generated<string>;
  /** scrypt, in the self-describing form of `auth/password.ts`. */
  password_hash: string;
  role: AdminRole;
  /** The account of an account administrator; null for operators. */
  account_id: number | null;
  created_at: number;
  updated_at: number;
  last_sign_in_at: number | null;
}

export interface AdminSessionsTable {
  /** SHA-256 of the session token in the cookie; the token itself is never stored. */
  id_hash: string;
  user_id: number;
  created_at: number;
  /** Written at most once a minute, for the idle timeout. */
  last_seen_at: number;
  /** Absolute end of the session. */
  expires_at: number;
}

export type InvitationKind = 'setup' | 'invite';

export interface AdminInvitationsTable {
  id: Generated<number>;
  /** SHA-256 of the token in the link. */
  token_hash: string;
  /** `setup` makes the first operator; `invite` an account administrator of `account_id`. */
  kind: InvitationKind;
  email: string | null;
  account_id: number | null;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  employees: EmployeesTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  training_campaigns: TrainingCampaignsTable;
  campaign_groups: CampaignGroupsTable;
  app_secrets: AppSecretsTable;
  admin_users: AdminUsersTable;
  admin_sessions: AdminSessionsTable;
  admin_invitations: AdminInvitationsTable;
}
