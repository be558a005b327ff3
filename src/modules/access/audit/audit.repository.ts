import { type Selectable, sql } from 'kysely';
import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import type { AuditLogTable } from '../../../core/db/schema.js';

export type AuditRow = Selectable<AuditLogTable>;

/** What a reader of the audit log asks for; every field narrows it. */
export interface AuditFilter {
  /** A LIKE pattern (with `\` escapes) the actor's label, lower-cased, must match. */
  actorPattern?: string;
  actorKind?: string;
  actorId?: string;
  /** An action exactly, or `<object>.` for every action on that kind of object. */
  action?: string;
  objectType?: string;
  objectId?: string;
  /** Epoch ms: at or after `since`, before `until`. */
  since?: number;
  until?: number;
}

/** The account's rows that match, as a query to count, page or read in batches. */
function matching(db: Db, accountId: number, filter: AuditFilter) {
  let query = db.selectFrom('audit_log').where('account_id', '=', accountId);
  const f = filter;
  if (f.actorPattern !== undefined)
    query = query.where(sql<boolean>`lower(actor_label) like ${f.actorPattern} escape '\\'`);
  if (f.actorKind !== undefined) query = query.where('actor_kind', '=', f.actorKind);
  if (f.actorId !== undefined) query = query.where('actor_id', '=', f.actorId);
  if (f.action !== undefined) {
    query = f.action.endsWith('.')
      ? query.where('action', '>=', f.action).where('action', '<', `${f.action.slice(0, -1)}/`)
      : query.where('action', '=', f.action);
  }
  if (f.objectType !== undefined) query = query.where('object_type', '=', f.objectType);
  if (f.objectId !== undefined) query = query.where('object_id', '=', f.objectId);
  if (f.since !== undefined) query = query.where('at', '>=', f.since);
  if (f.until !== undefined) query = query.where('at', '<', f.until);
  return query;
}

export function countAuditRows(db: Db, accountId: number, filter: AuditFilter): Promise<number> {
  return countRows(matching(db, accountId, filter));
}

/** A page of the matching rows, the newest first (chain order, reversed). */
export function auditRows(
  db: Db,
  accountId: number,
  filter: AuditFilter,
  limit: number,
  offset: number,
): Promise<AuditRow[]> {
  return matching(db, accountId, filter)
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The matching rows before `beforeSeq`, the newest first (an export reads them batch by batch). */
export function auditRowsBefore(
  db: Db,
  accountId: number,
  filter: AuditFilter,
  beforeSeq: number,
  limit: number,
): Promise<AuditRow[]> {
  return matching(db, accountId, filter)
    .where('seq', '<', beforeSeq)
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}
