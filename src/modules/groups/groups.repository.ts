import { type Selectable, sql } from 'kysely';
import { type Db, dialectOf } from '../../db/database.js';
import type { GroupsTable } from '../../db/schema.js';

export type GroupRow = Selectable<GroupsTable>;

export interface MemberSummary {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
}

export function insertGroup(
  db: Db,
  accountId: number,
  values: { name: string; description: string },
  now: number,
): Promise<GroupRow> {
  return db
    .insertInto('groups')
    .values({
      account_id: accountId,
      ...values,
      employee_count: 0,
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findGroup(db: Db, accountId: number, groupId: number): Promise<GroupRow | undefined> {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', groupId)
    .executeTakeFirst();
}

/**
 * Reads a group inside a write transaction and holds it until commit, so concurrent
 * replacements of one group run one after the other. PostgreSQL locks the row; SQLite takes
 * its write lock at once with a no-op update (a deferred read lock could not be upgraded
 * when another process writes).
 */
export function lockGroup(trx: Db, accountId: number, groupId: number): Promise<GroupRow | undefined> {
  if (dialectOf(trx) === 'postgres') {
    return trx
      .selectFrom('groups')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', groupId)
      .forUpdate()
      .executeTakeFirst();
  }
  return trx
    .updateTable('groups')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('account_id', '=', accountId)
    .where('id', '=', groupId)
    .returningAll()
    .executeTakeFirst();
}

export async function countGroups(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('groups')
    .where('account_id', '=', accountId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listGroups(db: Db, accountId: number, limit: number, offset: number): Promise<GroupRow[]> {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export function listMemberSummaries(db: Db, groupId: number): Promise<MemberSummary[]> {
  return db
    .selectFrom('group_members as gm')
    .innerJoin('employees as e', 'e.id', 'gm.employee_id')
    .select(['e.id', 'e.first_name', 'e.last_name', 'e.email'])
    .where('gm.group_id', '=', groupId)
    .orderBy('gm.employee_id')
    .execute();
}

// The id lists can hold 100,000 entries: they travel as one parameter (a JSON text for
// SQLite's json_each, an array for PostgreSQL's unnest), never as 100,000 placeholders.

/** The ids of `ids` (sorted, unique) that are not employees of this account, in ascending order. */
export async function findUnknownEmployeeIds(db: Db, accountId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const query =
    dialectOf(db) === 'postgres'
      ? sql<{ id: number }>`select u.id from unnest(${ids}::bigint[]) as u(id)
          where not exists (select 1 from employees e where e.id = u.id and e.account_id = ${accountId})
          order by u.id`
      : sql<{ id: number }>`select j.value as id from json_each(${JSON.stringify(ids)}) as j
          where not exists (select 1 from employees e where e.id = j.value and e.account_id = ${accountId})
          order by j.value`;
  const { rows } = await query.execute(db);
  return rows.map((r) => Number(r.id));
}

/** Makes the group's members exactly `ids` (already validated); returns how many rows changed. */
export async function replaceMembers(trx: Db, groupId: number, ids: number[]): Promise<number> {
  const postgres = dialectOf(trx) === 'postgres';
  const removed = postgres
    ? sql`delete from group_members gm where gm.group_id = ${groupId}
          and not exists (select 1 from unnest(${ids}::bigint[]) as u(id) where u.id = gm.employee_id)`
    : sql`delete from group_members where group_id = ${groupId}
          and employee_id not in (select value from json_each(${JSON.stringify(ids)}))`;
  const added = postgres
    ? sql`insert into group_members (group_id, employee_id)
          select ${groupId}, u.id from unnest(${ids}::bigint[]) as u(id) on conflict do nothing`
    : sql`insert or ignore into group_members (group_id, employee_id)
          select ${groupId}, value from json_each(${JSON.stringify(ids)})`;
  const a = await removed.execute(trx);
  const b = ids.length > 0 ? await added.execute(trx) : { numAffectedRows: 0n };
  return Number(a.numAffectedRows ?? 0n) + Number(b.numAffectedRows ?? 0n);
}

/** Saves a change to the group and moves its version (and so its ETag) on. */
export function recordGroupChange(
  trx: Db,
  groupId: number,
  changes: { name?: string; description?: string; employee_count: number },
  now: number,
): Promise<GroupRow> {
  return trx
    .updateTable('groups')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', groupId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
