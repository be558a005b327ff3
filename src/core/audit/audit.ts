import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery } from 'kysely';
import type { Db } from '../db/database.js';
import { appendAuditRow, insertRecorded } from './audit.repository.js';

export { settleAuditLog } from './audit.repository.js';

import type { UnchainedAuditRow } from './audit-canonical.js';

export { hashAuditRow } from './audit-canonical.js';

/**
 * The audit log's writer. Every change an administrator, an operator, an API key or a SCIM token
 * makes is recorded by `recordAudit(trx, …)` in the transaction of the change itself: both, or
 * neither. Who acted, from where and in which request comes from the audit scope the HTTP hooks
 * and the CLI open (`withAuditScope`), so commands name only what they did.
 */

/** Who acts: an administrator (web), an operator (web or CLI), an API key, a SCIM token, the service itself. */
export type ActorKind = 'admin' | 'operator' | 'api_key' | 'scim_token' | 'cli' | 'system' | 'anonymous';

export interface AuditActor {
  kind: ActorKind;
  /** The administrator's, key's or token's id; null for the CLI, the system, a stranger. */
  id: string | number | null;
  /** Their email or name as it is now: the record keeps it when they are renamed or deleted. */
  label: string;
}

export interface AuditScope {
  actor: AuditActor;
  address: string | null;
  requestId: string | null;
}

/** A field's change: before → after, or only that it changed (a secret's value is never recorded). */
export type FieldChange = { from: unknown; to: unknown } | { changed: true };
export type AuditChanges = Record<string, FieldChange>;

export interface AuditRecord {
  /** The account whose chain records it; null: the service's own chain (0). */
  accountId: number | null;
  /** `<object>.<verb>`, e.g. `group.updated`, `admin.signed_in`, `api_key.revoked`. */
  action: string;
  object: { type: string; id?: string | number | null; label?: string | null };
  changes?: AuditChanges | null;
  /** Instead of the scope's actor: a sign-in is the person signing in, not the anonymous request. */
  actor?: AuditActor;
}

const SYSTEM: AuditActor = { kind: 'system', id: null, label: 'Vigil' };
const storage = new AsyncLocalStorage<AuditScope>();

/** Runs `fn` with this scope: every `recordAudit` inside it names this actor, address and request. */
export function withAuditScope<T>(scope: AuditScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The current scope, if any (tests and the CLI read it to check who will be recorded). */
export function currentAuditScope(): AuditScope | undefined {
  return storage.getStore();
}

/** Names who acts, once authentication has decided it, in the scope the request opened. */
export function setAuditActor(actor: AuditActor): void {
  const scope = storage.getStore();
  if (scope) scope.actor = actor;
}

/**
 * The changed fields between two versions of an object; `secrets` are fields whose values are
 * never recorded, only that they changed. Fields equal in both (as JSON) are left out.
 */
export function diffFields(
  beforeObject: object | null | undefined,
  afterObject: object | null | undefined,
  options: { fields?: readonly string[]; secrets?: readonly string[] } = {},
): AuditChanges {
  const before = beforeObject as Record<string, unknown> | null | undefined;
  const after = afterObject as Record<string, unknown> | null | undefined;
  const secrets = options.secrets;
  const names = options.fields ?? fieldNames(before, after);
  const changes: AuditChanges = {};
  for (const name of names) {
    const from = before?.[name] ?? null;
    const to = after?.[name] ?? null;
    if (sameJson(from, to)) continue;
    changes[name] = secrets?.includes(name) ? { changed: true } : { from, to };
  }
  return changes;
}

/** The fields of either version, the first's first (a create's or a deletion's: one version's). */
function fieldNames(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): string[] {
  if (!before) return after ? Object.keys(after) : [];
  if (!after) return Object.keys(before);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])];
}

/**
 * Whether two values are the same as JSON. Without writing them out when they are strings,
 * booleans or null (the fields of most records), which are the same as JSON only when equal.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isPlainScalar(a) && isPlainScalar(b)) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function isPlainScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'boolean';
}

/**
 * Records one change in its account's chain, inside `db`'s transaction (a new one when `db` is
 * not one, which the change should then share: pass the change's transaction).
 */
export async function recordAudit(db: Db, record: AuditRecord): Promise<void> {
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => recordAudit(trx, record));
    return;
  }
  await appendAuditRow(db, unchainedRow(record));
}

/** The record as a row, with the scope's actor, address and request. */
function unchainedRow(record: AuditRecord): UnchainedAuditRow {
  const scope = storage.getStore();
  const actor = record.actor ?? scope?.actor ?? SYSTEM;
  const changes = record.changes && hasAny(record.changes) ? JSON.stringify(record.changes) : null;
  return {
    account_id: record.accountId ?? 0,
    at: Date.now(),
    actor_kind: actor.kind,
    actor_id: actor.id === null ? null : String(actor.id),
    actor_label: actor.label,
    address: scope?.address ?? null,
    request_id: scope?.requestId ?? null,
    action: record.action,
    object_type: record.object.type,
    object_id: record.object.id === undefined || record.object.id === null ? null : String(record.object.id),
    object_label: record.object.label ?? null,
    changes,
  };
}

function hasAny(changes: AuditChanges): boolean {
  for (const _ in changes) return true;
  return false;
}

/**
 * Runs `insert` (one row, returning its `id`) and records it, its object being the new row:
 * atomic, without a transaction of its own, for creates on hot paths that
 * have nothing else to do in a transaction. `record.object.id` is the new row's id.
 */
export function insertAndRecord<R extends { id: number }>(
  db: Db,
  insert: CompiledQuery<R>,
  record: AuditRecord,
): Promise<R> {
  return insertRecorded(db, insert, unchainedRow(record));
}

/** How many ids a bulk operation's row lists at most: the counts say the rest. */
export const AUDIT_ID_LIST_MAX = 100;

/** A bulk operation's change of one kind: how many, and the first ids (bounded). */
export function bulkChange(ids: readonly (number | string)[]): FieldChange {
  return {
    from: null,
    to: { count: ids.length, ids: ids.slice(0, AUDIT_ID_LIST_MAX), more: ids.length > AUDIT_ID_LIST_MAX },
  };
}
