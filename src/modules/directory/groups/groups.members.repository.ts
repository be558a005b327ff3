import { sql } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { sliceSize } from '../../../core/db/id-slices.js';
import { prepared } from '../../../core/db/prepared.js';
import { idRows } from '../../../core/db/value-table.js';
import { yieldToOthers } from '../../../core/event-loop.js';

// Id lists (up to 100,000) arrive in slices (db/id-slices.ts), each one table parameter
// (db/value-table.ts): a JSON text for SQLite's json_each, an array for PostgreSQL's unnest.
// group_members has no account_id: every statement reaches its rows through the parent, the
// account's group (or employee), found by a scalar subquery that both databases evaluate once
// per statement (PostgreSQL: an InitPlan; SQLite: a constant subquery), so the member index is
// used as before.

/** The group's id when it is this account's group, else null (which matches no row). */
function accountGroup(accountId: number, groupId: number) {
  return sql`(select id from groups where id = ${groupId} and account_id = ${accountId})`;
}

/**
 * Which of `ids` (ascending, distinct: one slice) are not employees of this account, ascending.
 * On PostgreSQL the others are locked (`for key share`, what a foreign-key check would lock)
 * until commit, so none can be deleted before the membership naming it is committed. SQLite's
 * write transaction already keeps every other writer out.
 */
export async function unknownEmployeeIds(trx: Db, accountId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  if (dialectOf(trx) === 'postgres') {
    const { rows } = await sql<{ n: number }>`with found as (
        select id from employees where account_id = ${accountId} and id = any(${ids}::bigint[]) for key share)
      select count(*)::int as n from found`.execute(trx);
    if (rows[0]?.n === ids.length) return [];
  }
  // An anti-join: the valid ids, usually all of them, are never read back.
  const { rows } = await sql<{ id: number }>`select u.id from ${idRows(trx, ids)}
      where not exists (select 1 from employees e where e.id = u.id and e.account_id = ${accountId})
      order by u.id`.execute(trx);
  return rows.map((r) => Number(r.id));
}

/**
 * `employee_id` is one of `ids`. On PostgreSQL `= any(array)`, which it hashes: joining the
 * group's rows with `unnest` could be planned as a nested loop when the statistics still
 * believe the group small (it grew since the last ANALYZE), one pass over the whole list per
 * member: measured 60 s to remove 40,000 members, against 16 ms.
 */
function employeeIn(db: Db, ids: number[]) {
  return dialectOf(db) === 'postgres'
    ? sql`employee_id = any(${ids}::bigint[])`
    : sql`employee_id in (select value from json_each(${JSON.stringify(ids)}))`;
}

/**
 * The group's rows for those of `ids` (distinct) that are not members yet, when the group is the
 * account's (the ids are the account's employees: requireEmployees checked them under lock in
 * the same transaction; checking them again here would cost a look-up per id). When the group had
 * no members at the start of the change (it is locked throughout, so none were added since),
 * every id is new: a plain insert, without `on conflict do nothing`, whose speculative
 * insertion made PostgreSQL's insert of 100,000 rows 65 % slower (668 ms against 405).
 * Otherwise the primary key skips the members: an anti-join could be planned as a scan of the
 * table per id when the statistics predate the group's growth (a 100,000-id PUT timed out).
 * The `where` (also what lets SQLite tell `on conflict` from a join's `on`) is checked once.
 */
function memberInsert(trx: Db, accountId: number, to: NewMembers, ids: number[]) {
  return sql`insert into group_members (group_id, employee_id)
      select ${to.groupId}, u.id from ${idRows(trx, ids)}
      where ${to.groupId} = ${accountGroup(accountId, to.groupId)}
      ${to.groupWasEmpty ? sql`` : sql`on conflict (group_id, employee_id) do nothing`}`;
}

export interface NewMembers {
  groupId: number;
  /** Whether the (locked) group had no members when the change began. */
  groupWasEmpty: boolean;
}

/** Adds those of `ids` (distinct) that are not members of the account's group yet; how many were added. */
export async function addNewMembers(
  trx: Db,
  accountId: number,
  to: NewMembers,
  ids: number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await memberInsert(trx, accountId, to, ids).execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** As addNewMembers, returning the ids it added (for the campaigns that enroll newcomers). */
export async function addNewMembersReturning(
  trx: Db,
  accountId: number,
  to: NewMembers,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ employee_id: number }>`${memberInsert(trx, accountId, to, ids)}
      returning employee_id`.execute(trx);
  return rows.map((r) => Number(r.employee_id));
}

/** Removes those of `ids` that are members of the account's group; how many were removed. */
export async function removeMembers(
  trx: Db,
  accountId: number,
  groupId: number,
  ids: number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await sql`delete from group_members
      where group_id = ${accountGroup(accountId, groupId)} and ${employeeIn(trx, ids)}`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Removes the members whose id is in (`after`, `upTo`] and not one of `keep` (the wanted ids of
 * that range: one slice of a replacement); how many were removed. At most a slice's worth goes
 * per statement, other requests running in between (db/id-slices.ts).
 */
export async function removeMembersBetween(
  trx: Db,
  accountId: number,
  groupId: number,
  range: { after: number; upTo: number },
  keep: number[],
): Promise<number> {
  const limit = sliceSize(trx);
  const outside = keep.length === 0 ? sql`true` : sql`not (${employeeIn(trx, keep)})`;
  // The rows are picked by their physical id (PostgreSQL's ctid, SQLite's rowid): with
  // `employee_id in (select … limit)` PostgreSQL, its statistics still believing the group empty,
  // chose a nested loop over the whole group per row (21 s for 50,000 rows, against 37 ms).
  const row = dialectOf(trx) === 'postgres' ? sql.raw('ctid') : sql.raw('rowid');
  const picked = sql`select ${row} from group_members where group_id = ${accountGroup(accountId, groupId)}
      and employee_id > ${range.after} and employee_id <= ${range.upTo} and ${outside}
      order by employee_id limit ${limit}`;
  const statement =
    dialectOf(trx) === 'postgres'
      ? sql`delete from group_members where ctid = any(array(${picked}))`
      : sql`delete from group_members where rowid in (${picked})`;
  let removed = 0;
  for (;;) {
    const count = Number((await statement.execute(trx)).numAffectedRows ?? 0);
    removed += count;
    if (count < limit) return removed;
    await yieldToOthers();
  }
}

/**
 * Removes every member of the account's group; how many. A deleted group's rows go with it this
 * way (PostgreSQL has no foreign key to cascade them: migration 0004).
 */
export function deleteMembershipsOfGroup(trx: Db, accountId: number, groupId: number): Promise<number> {
  return removeMembersBetween(trx, accountId, groupId, { after: 0, upTo: Number.MAX_SAFE_INTEGER }, []);
}

type ChunkParams = { accountId: number; groupId: number; afterId: number; limit: number };

export interface MemberChunk {
  /** The members' summaries as JSON objects joined by commas ('' for none). */
  json: string;
  /** How many, and the last one's id (the next chunk starts after it). */
  count: number;
  lastId: number;
}

/**
 * Up to `limit` members after `afterId`, by id, as JSON made by the database: building
 * thousands of JS objects and serializing them again costs more than the query (and, with ten
 * 100,000-member answers in flight, their garbage pushed the server past 300 MiB). The four
 * fields are named here, exactly those of `EmployeeSummary`.
 */
const memberChunk = prepared((db: Db, p: ChunkParams) => {
  const ofTheGroup = db
    .selectFrom('groups')
    .select('id')
    .where('id', '=', p.groupId)
    .where('account_id', '=', p.accountId);
  if (dialectOf(db) === 'postgres') {
    // The chunk's member ids first, then each employee by its primary key: `offset 0` keeps
    // the planner from turning the look-ups into a hash join over every employee of the table
    // (21 ms a chunk instead of 2 ms). The JSON is put together by concatenation:
    // PostgreSQL's JSON functions cost 3.4 µs a member, concatenation 0.7 µs. Only `"` and `\`
    // need escaping: no stored name or address holds a control character (fields.ts refuses them).
    const text = (column: string) => sql`replace(replace(${sql.ref(column)}, '\\', '\\\\'), '"', '\\"')`;
    return db
      .selectFrom(
        db
          .selectFrom('group_members')
          .select('employee_id')
          .where('group_id', '=', ofTheGroup)
          .where('employee_id', '>', p.afterId)
          .orderBy('employee_id')
          .limit(p.limit)
          .as('gm'),
      )
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('employees')
            .select(['id', 'first_name', 'last_name', 'email'])
            .whereRef('employees.id', '=', 'gm.employee_id')
            .offset(0)
            .as('e'),
        (join) => join.onTrue(),
      )
      .select([
        sql<string>`coalesce(string_agg('{"id":' || e.id || ',"first_name":"' || ${text('e.first_name')}
          || '","last_name":"' || ${text('e.last_name')} || '","email":"' || ${text('e.email')} || '"}',
          ',' order by e.id), '')`.as('json'),
        sql<number>`count(*)::int`.as('count'),
        sql<number>`coalesce(max(e.id), 0)`.as('lastId'),
      ]);
  }
  return (
    db
      .selectFrom(
        db
          .selectFrom('group_members as gm')
          .innerJoin('employees as e', 'e.id', 'gm.employee_id')
          .select(['e.id', 'e.first_name', 'e.last_name', 'e.email'])
          .where('gm.group_id', '=', ofTheGroup)
          .where('gm.employee_id', '>', p.afterId)
          .orderBy('gm.employee_id')
          .limit(p.limit)
          .as('m'),
      )
      // The ordered subquery streams in primary-key order and group_concat keeps it (an ORDER
      // BY inside the aggregate would sort again); the order is pinned by a test.
      .select([
        sql<string>`coalesce(group_concat(json_object('id', m.id, 'first_name', m.first_name,
          'last_name', m.last_name, 'email', m.email), ','), '')`.as('json'),
        sql<number>`count(*)`.as('count'),
        sql<number>`coalesce(max(m.id), 0)`.as('lastId'),
      ])
  );
});

/** Up to `limit` members of the account's group after `afterId` (see memberChunk). */
export async function memberSummaryChunk(
  db: Db,
  accountId: number,
  groupId: number,
  afterId: number,
  limit: number,
): Promise<MemberChunk> {
  const row = await memberChunk.executeTakeFirst(db, { accountId, groupId, afterId, limit });
  return { json: row?.json ?? '', count: Number(row?.count ?? 0), lastId: Number(row?.lastId ?? 0) };
}

/** Every member id of the account's group, ascending (webhook events describe membership changes). */
export async function memberIdsOfGroup(trx: Db, accountId: number, groupId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('group_members')
    .select('employee_id')
    .where('group_id', '=', (eb) =>
      eb.selectFrom('groups').select('id').where('id', '=', groupId).where('account_id', '=', accountId),
    )
    .orderBy('employee_id')
    .execute();
  return rows.map((r) => r.employee_id);
}
