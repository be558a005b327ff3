import { type Selectable, sql } from 'kysely';
import { byName } from '../../../core/db/collation.js';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { type GroupScope, groupInScope } from '../../../core/db/group-scope.js';
import { prepared } from '../../../core/db/prepared.js';
import type { GroupsTable } from '../../../core/db/schema.js';

export type GroupRow = Selectable<GroupsTable>;

/**
 * Moves the account's groups revision on: every change to what the account's list of groups
 * shows (a group made, renamed or deleted, a count changed) does this in its transaction, so
 * every instance knows a cached list is stale (groups.service findGroups).
 */
export async function bumpGroupsRevision(trx: Db, accountId: number): Promise<void> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({ groups_revision: eb('groups_revision', '+', 1) }))
    .where('id', '=', accountId)
    .execute();
}

const groupsRevisionOf = prepared((db: Db, p: { accountId: number }) =>
  db.selectFrom('accounts').select('groups_revision').where('id', '=', p.accountId),
);

/** The account's groups revision (see bumpGroupsRevision); 0 for no account. */
export async function groupsRevision(db: Db, accountId: number): Promise<number> {
  return Number((await groupsRevisionOf.executeTakeFirst(db, { accountId }))?.groups_revision ?? 0);
}

/** Inserts a group (inside the caller's transaction, which also moves the revision on). */
export async function insertGroup(
  trx: Db,
  accountId: number,
  values: { name: string; description: string; external_id?: string | null },
  now: number,
): Promise<GroupRow> {
  const group = await trx
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
  await bumpGroupsRevision(trx, accountId);
  return group;
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
  return countRows(db.selectFrom('groups').where('account_id', '=', accountId));
}

/** What a list of groups shows. */
export type GroupListRow = Pick<GroupRow, 'id' | 'name' | 'description' | 'employee_count'>;

export interface GroupsPageJson {
  /** How many groups the account has. */
  count: number;
  /** The page's groups as a JSON array text made by the database (the fields of `GroupListItem`). */
  results: string;
}

/**
 * A page of the account's groups by id and their number, in one statement, as JSON made by
 * the database: materialising 100 rows as objects and serializing them again cost more than
 * the query.
 */
const groupsPageQuery = (changedSince: boolean) =>
  prepared((db: Db, p: { accountId: number; limit: number; offset: number; since: number }) => {
    let groups = db.selectFrom('groups').where('account_id', '=', p.accountId);
    // `updated_since=` (migration 0011's index on account, updated_at, id).
    if (changedSince) groups = groups.where('updated_at', '>=', p.since);
    const page = groups
      .select(['id', 'name', 'description', 'employee_count'])
      .orderBy('id')
      .limit(p.limit)
      .offset(p.offset)
      .as('g');
    const count = groups.select((eb) => eb.fn.countAll<number>().as('n'));
    return dialectOf(db) === 'postgres'
      ? db
          .selectFrom(page)
          .select([
            count.as('count'),
            sql<string>`'[' || coalesce(string_agg(row_to_json(g)::text, ',' order by g.id), '') || ']'`.as(
              'results',
            ),
          ])
      : // The ordered subquery streams in id order and json_group_array keeps it (as memberSummaryChunk).
        db.selectFrom(page).select([
          count.as('count'),
          sql<string>`coalesce(json_group_array(json_object('id', g.id, 'name', g.name,
            'description', g.description, 'employee_count', g.employee_count)), '[]')`.as('results'),
        ]);
  });

const groupsPage = groupsPageQuery(false);
const groupsPageChangedSince = groupsPageQuery(true);

/** Like readGroupsPage, for the groups created or changed at or after `since` (by id, not cached). */
export async function readGroupsPageChangedSince(
  db: Db,
  accountId: number,
  since: number,
  limit: number,
  offset: number,
): Promise<GroupsPageJson> {
  const row = await groupsPageChangedSince.executeTakeFirst(db, { accountId, limit, offset, since });
  return { count: Number(row?.count ?? 0), results: row?.results ?? '[]' };
}

export async function readGroupsPage(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
): Promise<GroupsPageJson> {
  const row = await groupsPage.executeTakeFirst(db, { accountId, limit, offset, since: 0 });
  return { count: Number(row?.count ?? 0), results: row?.results ?? '[]' };
}

/** Saves a change to the group and moves its version (and so its ETag) and the account's groups revision on. */
export async function recordGroupChange(
  trx: Db,
  accountId: number,
  groupId: number,
  changes: { name?: string; description?: string; employee_count?: number; external_id?: string | null },
  now: number,
): Promise<GroupRow> {
  const group = await trx
    .updateTable('groups')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1), updated_at: now }))
    .where('account_id', '=', accountId)
    .where('id', '=', groupId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await bumpGroupsRevision(trx, accountId);
  return group;
}

/** The account's groups this employee is a member of, as lists show them (webhook events). */
export function groupsHoldingEmployee(
  trx: Db,
  accountId: number,
  employeeId: number,
): Promise<GroupListRow[]> {
  return trx
    .selectFrom('groups')
    .select(['id', 'name', 'description', 'employee_count'])
    .where('account_id', '=', accountId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('group_members').select('group_id').where('employee_id', '=', employeeId),
    )
    .orderBy('id')
    .execute();
}

/** Groups whose name matches `pattern` (a `containsPattern`), or all; by name, then id (an index). */
function named(db: Db, accountId: number, pattern: string | undefined, groups: GroupScope = null) {
  let query = db.selectFrom('groups').where('account_id', '=', accountId);
  if (pattern !== undefined) query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  if (groups !== null) query = query.where(groupInScope(groups, 'groups.id'));
  return query;
}

export async function countGroupsNamed(
  db: Db,
  accountId: number,
  pattern: string | undefined,
  groups: GroupScope = null,
): Promise<number> {
  return countRows(named(db, accountId, pattern, groups));
}

export function groupsNamed(
  db: Db,
  accountId: number,
  pattern: string | undefined,
  limit: number,
  offset: number,
  groups: GroupScope = null,
): Promise<GroupRow[]> {
  return named(db, accountId, pattern, groups)
    .selectAll()
    .orderBy(byName(db, 'name'))
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Deletes a group of this account (campaign targets cascade; memberships are the caller's); false if there is none. */
export async function deleteGroupRow(trx: Db, accountId: number, groupId: number): Promise<boolean> {
  const result = await trx
    .deleteFrom('groups')
    .where('account_id', '=', accountId)
    .where('id', '=', groupId)
    .executeTakeFirst();
  const deleted = Number(result.numDeletedRows) > 0;
  if (deleted) await bumpGroupsRevision(trx, accountId);
  return deleted;
}
