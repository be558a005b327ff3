import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import type { TombstonesTable } from '../../../core/db/schema.js';

/**
 * Tombstones: the ids of an account's deleted employees and groups, with when they went, so an
 * incremental sync (`GET /customer/employees/deleted/?since=`) learns what to remove. Written
 * by the transaction that deletes the row (a deletion that rolls back leaves none); they go
 * with their account (foreign key, cascade).
 */

export type TombstoneResource = TombstonesTable['resource'];

export interface Tombstone {
  id: number;
  deleted_at: number;
}

/** Records that the account's `resource` with this id was deleted (inside the deleting transaction). */
export async function recordTombstone(
  trx: Db,
  accountId: number,
  resource: TombstoneResource,
  resourceId: number,
  deletedAt: number,
): Promise<void> {
  await trx
    .insertInto('tombstones')
    .values({ account_id: accountId, resource, resource_id: resourceId, deleted_at: deletedAt })
    // An id is deleted once; should a row with it ever be deleted again, the later time holds.
    .onConflict((oc) =>
      oc.columns(['account_id', 'resource', 'resource_id']).doUpdateSet({ deleted_at: deletedAt }),
    )
    .execute();
}

function since(db: Db, accountId: number, resource: TombstoneResource, sinceMs: number | undefined) {
  let query = db
    .selectFrom('tombstones')
    .where('account_id', '=', accountId)
    .where('resource', '=', resource);
  if (sinceMs !== undefined) query = query.where('deleted_at', '>=', sinceMs);
  return query;
}

export function countTombstones(
  db: Db,
  accountId: number,
  resource: TombstoneResource,
  sinceMs: number | undefined,
): Promise<number> {
  return countRows(since(db, accountId, resource, sinceMs));
}

/** A window of the account's tombstones of `resource` since an instant, oldest first (then by id). */
export async function listTombstones(
  db: Db,
  accountId: number,
  resource: TombstoneResource,
  sinceMs: number | undefined,
  limit: number,
  offset: number,
): Promise<Tombstone[]> {
  const rows = await since(db, accountId, resource, sinceMs)
    .select(['resource_id', 'deleted_at'])
    .orderBy('deleted_at')
    .orderBy('resource_id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ id: Number(r.resource_id), deleted_at: Number(r.deleted_at) }));
}
