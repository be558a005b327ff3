import { type Selectable, sql } from 'kysely';
import { type Db, dialectOf } from '../../db/database.js';
import type { GroupsTable } from '../../db/schema.js';

export type GroupRow = Selectable<GroupsTable>;

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

/** What a list of groups shows: reading the other columns costs more than the query itself. */
export type GroupListRow = Pick<GroupRow, 'id' | 'name' | 'description' | 'employee_count'>;

export function listGroups(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
): Promise<GroupListRow[]> {
  return db
    .selectFrom('groups')
    .select(['id', 'name', 'description', 'employee_count'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * The members' summaries, ordered by id, as a JSON array text made by the database: for a
 * 10,000-member group, building 10,000 JS objects and serializing them again costs more than
 * the query. The four fields are named here, exactly those of `EmployeeSummary`.
 */
export async function memberSummariesJson(db: Db, groupId: number): Promise<string> {
  const { rows } = await (dialectOf(db) === 'postgres'
    ? sql<{
        json: string;
      }>`select '[' || coalesce(string_agg(row_to_json(m)::text, ',' order by m.id), '') || ']' as json
        from (select e.id, e.first_name, e.last_name, e.email from group_members gm
          join employees e on e.id = gm.employee_id where gm.group_id = ${groupId}) m`
    : // The ordered subquery streams in primary-key order; an ORDER BY inside the aggregate
      // would sort again in a temporary B-tree (twice the time). The order is pinned by a test.
      sql<{ json: string }>`select coalesce(json_group_array(json_object('id', id, 'first_name', first_name,
          'last_name', last_name, 'email', email)), '[]') as json
        from (select e.id, e.first_name, e.last_name, e.email from group_members gm
          join employees e on e.id = gm.employee_id where gm.group_id = ${groupId} order by gm.employee_id)`
  ).execute(db);
  return rows[0]?.json ?? '[]';
}

// The id lists can hold 100,000 entries: they travel as one parameter (a JSON text for
// SQLite's json_each, an array for PostgreSQL), never as 100,000 placeholders. Look-ups go
// through a primary-key index (PostgreSQL may instead hash the account's employees for a
// long list: measured 0.12 s for 100,000 ids, against 0.5 s for the index look-ups).

/** The ids as a table `u(id)`. */
function idRows(db: Db, ids: number[]) {
  return dialectOf(db) === 'postgres'
    ? sql`unnest(${ids}::bigint[]) as u(id)`
    : sql`(select value as id from json_each(${JSON.stringify(ids)})) as u`;
}

/**
 * Which of `ids` are not employees of this account, ascending. An anti-join: the valid ids,
 * usually all of them, are never read back.
 */
export async function unknownEmployeeIds(db: Db, accountId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ id: number }>`select u.id from ${idRows(db, ids)}
      where not exists (select 1 from employees e where e.id = u.id and e.account_id = ${accountId})
      order by u.id`.execute(db);
  return rows.map((r) => Number(r.id));
}

/** The current member ids of a group, ascending. */
export async function memberIds(db: Db, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('group_members')
    .select('employee_id')
    .where('group_id', '=', groupId)
    .orderBy('employee_id')
    .execute();
  return rows.map((r) => r.employee_id);
}

export async function removeMembers(trx: Db, groupId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`delete from group_members where group_id = ${groupId} and employee_id in (select u.id from ${idRows(trx, ids)})`.execute(
    trx,
  );
}

export async function addMembers(trx: Db, groupId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`insert into group_members (group_id, employee_id) select ${groupId}, u.id from ${idRows(trx, ids)}`.execute(
    trx,
  );
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
