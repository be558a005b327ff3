import { hash } from 'node:crypto';
import type { AuditLogTable } from '../db/schema.js';

/**
 * A row's canonical form, which its hash covers: the JSON array of its fields in a fixed order,
 * `[account_id, seq, at, actor_kind, actor_id, actor_label, address, request_id, action,
 * object_type, object_id, object_label, changes]`. The writer knows all but `seq` (the database
 * reads it from the chain's head), and, for an insert recorded with the row it inserts, the
 * object's id: the statement writes those into the text it hashes (audit.repository.ts).
 */

/** The fields a row is appended with: all but the chain's (`seq`, `prev_hash`, `hash`). */
export type UnchainedAuditRow = Omit<AuditLogTable, 'id' | 'seq' | 'prev_hash' | 'hash'> & {
  account_id: number;
};

/** The canonical form's members after `account_id` and `seq`, in their order. */
function tailMembers(row: Omit<UnchainedAuditRow, 'account_id'>): unknown[] {
  return [
    Number(row.at),
    row.actor_kind,
    row.actor_id,
    row.actor_label,
    row.address,
    row.request_id,
    row.action,
    row.object_type,
    row.object_id,
    row.object_label,
    row.changes,
  ];
}
/** Where `object_id` is among tailMembers. */
const OBJECT_ID = 8;

/** The hash of a row: SHA-256 over the previous row's hash, a newline and the row's canonical form. */
export function hashAuditRow(row: Omit<AuditLogTable, 'id' | 'hash'>): string {
  return chainHash(row.prev_hash, row.account_id, Number(row.seq), canonicalTail(row));
}

/** The same from the row's canonical tail (canonicalTail), as the writers have it. */
export function chainHash(prevHash: string, accountId: number, seq: number, tail: string): string {
  return hash('sha256', `${prevHash}\n[${accountId},${seq},${tail}`, 'hex');
}

/** The canonical form after `[account_id,seq,`: what the database prefixes with those two. */
export function canonicalTail(row: UnchainedAuditRow): string {
  return JSON.stringify(tailMembers(row)).slice(1);
}

/**
 * The canonical form after `[account_id,seq,` in two parts around `object_id`, for a row whose
 * object's id the database writes in (a string of digits, so `"<id>"` in JSON).
 */
export function canonicalAround(row: UnchainedAuditRow): { before: string; after: string } {
  const members = tailMembers(row);
  const before = JSON.stringify(members.slice(0, OBJECT_ID));
  const after = JSON.stringify(members.slice(OBJECT_ID + 1));
  return { before: `${before.slice(1, -1)},`, after: `,${after.slice(1)}` };
}
