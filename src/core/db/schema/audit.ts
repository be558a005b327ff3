import type { Generated } from 'kysely';

/** The audit log (migration 0023): every change, one hash chain per account. */

export interface AuditLogTable {
  id: Generated<number>;
  /** 0: the service's own chain (accounts made or changed by an operator). */
  account_id: number;
  /** Position in the account's chain, from 1. */
  seq: number;
  at: number;
  /** Who acted: admin, operator, api_key, scim_token, cli, system, anonymous (a failed sign-in). */
  actor_kind: string;
  actor_id: string | null;
  /** Their email or name when it happened (a later rename does not change the record). */
  actor_label: string;
  address: string | null;
  request_id: string | null;
  /** What was done, `<object>.<verb>`: `group.updated`, `admin.signed_in`, `api_key.revoked`. */
  action: string;
  object_type: string;
  object_id: string | null;
  object_label: string | null;
  /** JSON: field → { from, to }, or { changed: true } for a secret. */
  changes: string | null;
  prev_hash: string;
  hash: string;
}

export interface AuditHeadsTable {
  account_id: number;
  seq: number;
  hash: string;
  /** The first row the chain still holds, and its `prev_hash` (migration 0025): retention moves them. */
  anchor_seq: Generated<number>;
  anchor_hash: Generated<string>;
}

/**
 * The journal: audit rows written with their change, not yet in their chain (migrations 0028,
 * 0029; audit.repository.ts).
 */
export interface AuditPendingTable {
  id: Generated<number>;
  /** The row's chain (migration 0029); null in a row journaled before it (SQLite). */
  account_id: number | null;
  /**
   * With `account_id`: the row's canonical form after `[account_id,seq,` (audit-canonical.ts),
   * the object's id in it. Without (before 0029): the row's fields as JSON, all but the chain's
   * (`seq`, `prev_hash`, `hash`) and `object_id`.
   */
  record: string;
  /** The id of the row the recorded statement inserted (SQLite: before 0029 only). */
  object_id: string | null;
  /**
   * PostgreSQL only (0029): the row's fields as columns, which `vigil_audit_move` copies into
   * `audit_log` (the database hashes `record` and never parses it).
   */
  at?: number | null;
  actor_kind?: string | null;
  actor_id?: string | null;
  actor_label?: string | null;
  address?: string | null;
  request_id?: string | null;
  action?: string | null;
  object_type?: string | null;
  object_label?: string | null;
  changes?: string | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
  audit_heads: AuditHeadsTable;
  audit_pending: AuditPendingTable;
}
