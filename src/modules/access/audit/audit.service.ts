import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { settleAuditLog } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { containsPattern } from '../../../core/db/like.js';
import { FieldErrorCollector } from '../../../core/errors.js';
import {
  fetchPage,
  type ListPage,
  type ListWindow,
  type Page,
  type PageRequest,
  readList,
} from '../../../core/pagination.js';
import { iso } from '../../../core/time.js';
import { getAccount } from '../accounts/accounts.service.js';
import {
  type AuditFilter,
  type AuditRow,
  auditRows,
  auditRowsBefore,
  countAuditRows,
} from './audit.repository.js';

/** Reading an account's audit log: its admin page and CSV export, and the Customer API's list. */

export type { AuditRow };

/** The filters as a request gives them (text); `checkAuditQuery` turns them into a filter. */
export interface AuditQuery {
  actor?: string | undefined;
  actor_kind?: string | undefined;
  actor_id?: string | undefined;
  action?: string | undefined;
  object_type?: string | undefined;
  object_id?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/** The query's filter; a time that is no date is a 400 naming the field. A NUL in `actor` matches nothing. */
export function checkAuditQuery(query: AuditQuery): AuditFilter | null {
  const errors = new FieldErrorCollector();
  const time = (field: 'since' | 'until') => {
    const value = query[field];
    if (value === undefined || value === '') return undefined;
    const at = Date.parse(value);
    if (Number.isNaN(at)) errors.add(field, 'must be a date or date-time');
    return at;
  };
  const since = time('since');
  const until = time('until');
  errors.throwIfAny();
  const actorPattern = containsPattern(query.actor);
  if (actorPattern === null) return null;
  const given = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const filter: AuditFilter = {};
  const set = <K extends keyof AuditFilter>(key: K, value: AuditFilter[K] | undefined) => {
    if (value !== undefined) filter[key] = value;
  };
  set('actorPattern', actorPattern);
  set('actorKind', given(query.actor_kind));
  set('actorId', given(query.actor_id));
  set('action', given(query.action));
  set('objectType', given(query.object_type));
  set('objectId', given(query.object_id));
  set('since', since);
  set('until', until);
  return filter;
}

/** A Customer API page of the account's audit log, the newest first. */
export async function auditLogPage(
  db: Db,
  accountId: number,
  request: PageRequest,
  query: AuditQuery,
): Promise<Page<AuditRow>> {
  const filter = checkAuditQuery(query);
  if (filter === null)
    return fetchPage(
      request,
      async () => 0,
      async () => [],
    );
  await settleAuditLog(db, accountId);
  return fetchPage(
    request,
    () => countAuditRows(db, accountId, filter),
    (limit, offset) => auditRows(db, accountId, filter, limit, offset),
  );
}

/** A page of the admin page's list, the newest first. */
export async function auditLogList(
  db: Db,
  accountId: number,
  window: ListWindow,
  query: AuditQuery,
): Promise<ListPage<AuditRow>> {
  await getAccount(db, accountId);
  const filter = checkAuditQuery(query);
  if (filter === null) return { count: 0, items: [] };
  await settleAuditLog(db, accountId);
  return readList(
    window,
    () => countAuditRows(db, accountId, filter),
    (limit, offset) => auditRows(db, accountId, filter, limit, offset),
  );
}

const EXPORT_BATCH_SIZE = 2000;
const CSV_COLUMNS = [
  'at',
  'actor_kind',
  'actor_id',
  'actor',
  'address',
  'action',
  'object_type',
  'object_id',
  'object',
  'changes',
  'request_id',
  'seq',
];

/**
 * The filtered audit log as CSV, the newest first, streamed in batches (keyset on the chain's
 * `seq`); the changes as their JSON. Cells a spreadsheet would run as a formula get a leading `'`.
 */
export async function exportAuditLog(db: Db, accountId: number, query: AuditQuery): Promise<Readable> {
  await getAccount(db, accountId);
  const filter = checkAuditQuery(query);
  if (filter !== null) await settleAuditLog(db, accountId);
  const records = Readable.from(
    (async function* () {
      if (filter === null) return;
      let before = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const batch = await auditRowsBefore(db, accountId, filter, before, EXPORT_BATCH_SIZE);
        for (const r of batch) {
          yield [
            iso(Number(r.at)),
            r.actor_kind,
            r.actor_id ?? '',
            r.actor_label,
            r.address ?? '',
            r.action,
            r.object_type,
            r.object_id ?? '',
            r.object_label ?? '',
            r.changes ?? '',
            r.request_id ?? '',
            Number(r.seq),
          ];
        }
        const last = batch.at(-1);
        if (!last || batch.length < EXPORT_BATCH_SIZE) return;
        before = Number(last.seq);
      }
    })(),
  );
  const csv = stringify({ header: true, columns: CSV_COLUMNS, escape_formulas: true, bom: true });
  return pipeline(records, csv, () => {});
}
