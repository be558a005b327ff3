import { type RawBuilder, sql } from 'kysely';
import { byName, walkBeatsSort } from '../../../core/db/collation.js';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { employeeInScope } from '../../../core/db/group-scope.js';
import { type ListPage, type ListWindow, readList } from '../../../core/pagination.js';
import { EMPLOYEE_COLUMNS, type EmployeeRow } from './employees.repository.js';

export const EMPLOYEE_SORTS = ['last_name', 'first_name', 'email', 'created_at'] as const;
export type EmployeeSort = (typeof EMPLOYEE_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

interface EmployeeSearch {
  /** A LIKE pattern (`foldedContainsPattern`) for `search_text` (names and address); none: everyone. */
  pattern?: string;
  /** Only the members of this group of the account. */
  groupId?: number;
  /** Only the members of one of these groups (a role limited to groups); absent: everyone. */
  groups?: readonly number[];
}

interface SortKey {
  /** Exactly an index's expression, so the database can walk that index in order. */
  indexed: RawBuilder<unknown>;
  /** The same order through an expression no index has, so the database sorts what it found. */
  sorted: RawBuilder<unknown>;
}

/** An indexed text expression, and the same order through `|| ''`, which no index has. */
const textKey = (expr: RawBuilder<unknown>): SortKey => ({ indexed: expr, sorted: sql`${expr} || ''` });
const text = (column: string): SortKey => textKey(sql.raw(column));
/** A name, in the order people read names (collation.ts), which migration 0020 indexes. */
const name = (db: Db, column: string): SortKey => textKey(byName(db, column));
const id: SortKey = { indexed: sql`id`, sorted: sql`id + 0` };

// Each sort ends with the id, so the order is total and pages never overlap. The address's
// expression is that of the unique address index, walked forwards or backwards; created_at
// follows id. Names are sorted as people read them ("Öztürk" before "Tester"), along the
// indexes of migration 0020, which hold exactly those expressions.
function sortKeys(db: Db, by: EmployeeSort): SortKey[] {
  switch (by) {
    case 'last_name':
      return [name(db, 'last_name'), name(db, 'first_name'), id];
    case 'first_name':
      return [name(db, 'first_name'), name(db, 'last_name'), id];
    case 'email':
      return [text('email_normalized'), id];
    case 'created_at':
      return [id];
  }
}

/** The account's group, as a subquery evaluated once (no row: not the account's). */
function ownGroup(db: Db, accountId: number, groupId: number) {
  return db
    .selectFrom('groups')
    .select('groups.id')
    .where('groups.id', '=', groupId)
    .where('groups.account_id', '=', accountId);
}

/**
 * The account's employees that match. A group's members are found one of two ways: `in` the
 * group's member list (the database reads the list, then each member's row), or, `walking`
 * an index of the account's employees, whether each `exists` in the group (one look-up in the
 * membership's primary key).
 */
function matching(db: Db, accountId: number, search: EmployeeSearch, members: 'in' | 'exists' = 'in') {
  let query = db.selectFrom('employees').where('account_id', '=', accountId);
  if (search.pattern !== undefined) {
    // Folded on write (search-text.ts): any script, case and accents aside, in both databases.
    query = query.where(sql<boolean>`search_text like ${search.pattern} escape '\\'`);
  }
  // One look-up in the membership's primary key per row walked: the name indexes still give the order.
  if (search.groups !== undefined) query = query.where(employeeInScope(search.groups, 'employees.id'));
  if (search.groupId !== undefined) {
    const groupId = search.groupId;
    // The group's id itself in the condition, so PostgreSQL's planner knows how many members it
    // has (a group of 10 among 100,000 was walked for 0.2–0.4 s); that it is the account's group
    // is checked once (group_members is reached through its parent).
    query = query.where((eb) => eb.exists(ownGroup(db, accountId, groupId)));
    query =
      members === 'in'
        ? query.where('id', 'in', (eb) =>
            eb.selectFrom('group_members').select('employee_id').where('group_id', '=', groupId),
          )
        : query.where((eb) =>
            eb.exists(
              eb
                .selectFrom('group_members')
                .select('group_members.employee_id')
                .where('group_members.group_id', '=', groupId)
                .whereRef('group_members.employee_id', '=', 'employees.id'),
            ),
          );
  }
  return query;
}

async function countMatchingEmployees(db: Db, accountId: number, search: EmployeeSearch): Promise<number> {
  if (search.groupId !== undefined && search.pattern === undefined && search.groups === undefined) {
    // Every member is an employee of the group's account (each membership change checks it):
    // the membership's primary key alone counts them (100,000 members: 3 ms on SQLite, not 23).
    const groupId = search.groupId;
    return countRows(
      db
        .selectFrom('group_members')
        .where('group_id', '=', groupId)
        .where((eb) => eb.exists(ownGroup(db, accountId, groupId))),
    );
  }
  return countRows(matching(db, accountId, search));
}

function rowsInOrder(
  db: Db,
  accountId: number,
  search: EmployeeSearch,
  sort: { by: EmployeeSort; order: SortOrder },
  how: { keys: 'indexed' | 'sorted'; backwards: boolean },
) {
  const direction = (sort.order === 'desc') !== how.backwards ? 'desc' : 'asc';
  const members = how.keys === 'indexed' ? 'exists' : 'in';
  let query = matching(db, accountId, search, members).select(EMPLOYEE_COLUMNS);
  for (const key of sortKeys(db, sort.by)) query = query.orderBy(key[how.keys], direction);
  return query;
}

/**
 * One page of the matching employees in the order asked, and how many match (measured with
 * 100,000 employees; see the admin API report).
 * - Everyone, or a group's members: counting is cheap, and tells which end of the sort index
 *   the page is nearer (page 4000 of 4000 is page 1 read backwards): the walk stops after the
 *   page. SQLite, which keeps no statistics to choose with, walks for a group's members only
 *   where that beats sorting them (walkBeatsSort: an "everyone" group of 100,000 sorted took
 *   181–464 ms of the server's one thread a page); PostgreSQL's planner chooses for itself.
 * - Searched: the page first, then the count only if the page cannot tell. SQLite cannot
 *   estimate how many rows a substring matches and would always walk the sort index, reading
 *   each row it passes at random (a rare match: all of them); it scans and sorts the matches
 *   instead, like PostgreSQL's planner chooses when that is cheaper.
 */
export async function readEmployeePage(
  db: Db,
  accountId: number,
  search: EmployeeSearch,
  sort: { by: EmployeeSort; order: SortOrder },
  window: ListWindow,
): Promise<ListPage<EmployeeRow>> {
  const sqlite = dialectOf(db) === 'sqlite';
  if (search.pattern !== undefined) {
    const keys = sqlite ? 'sorted' : 'indexed';
    return readList(
      window,
      () => countMatchingEmployees(db, accountId, search),
      (limit, offset) =>
        rowsInOrder(db, accountId, search, sort, { keys, backwards: false })
          .limit(limit)
          .offset(offset)
          .execute(),
    );
  }
  const count = await countMatchingEmployees(db, accountId, search);
  if (!Number.isSafeInteger(window.offset) || window.offset >= count) return { count, items: [] };
  const take = Math.min(window.limit, count - window.offset);
  const fromEnd = count - window.offset - take;
  const backwards = fromEnd < window.offset;
  const walk =
    !sqlite ||
    (search.groupId === undefined && search.groups === undefined) ||
    (await walkBeatsSort({
      matches: count,
      everyone: () => countMatchingEmployees(db, accountId, {}),
      rowsBeforePageEnd: Math.min(window.offset, fromEnd) + take,
    }));
  if (!walk) {
    const items = await rowsInOrder(db, accountId, search, sort, { keys: 'sorted', backwards: false })
      .limit(take)
      .offset(window.offset)
      .execute();
    return { count, items };
  }
  const items = await rowsInOrder(db, accountId, search, sort, { keys: 'indexed', backwards })
    .limit(take)
    .offset(backwards ? fromEnd : window.offset)
    .execute();
  return { count, items: backwards ? items.reverse() : items };
}
