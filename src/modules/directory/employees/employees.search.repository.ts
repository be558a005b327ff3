import { type RawBuilder, sql } from 'kysely';
import { byName } from '../../../core/db/collation.js';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
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

function matching(db: Db, accountId: number, search: EmployeeSearch) {
  let query = db.selectFrom('employees').where('account_id', '=', accountId);
  if (search.pattern !== undefined) {
    // Folded on write (search-text.ts): any script, case and accents aside, in both databases.
    query = query.where(sql<boolean>`search_text like ${search.pattern} escape '\\'`);
  }
  if (search.groupId !== undefined) {
    const groupId = search.groupId;
    // The members of the account's group (group_members is reached through its parent).
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('group_members')
        .select('employee_id')
        .where('group_id', '=', (sub) =>
          sub.selectFrom('groups').select('id').where('id', '=', groupId).where('account_id', '=', accountId),
        ),
    );
  }
  return query;
}

async function countMatchingEmployees(db: Db, accountId: number, search: EmployeeSearch): Promise<number> {
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
  let query = matching(db, accountId, search).select(EMPLOYEE_COLUMNS);
  for (const key of sortKeys(db, sort.by)) query = query.orderBy(key[how.keys], direction);
  return query;
}

/**
 * One page of the matching employees in the order asked, and how many match (measured with
 * 100,000 employees; see the admin API report).
 * - Everyone: counting is cheap, and tells which end of the sort index the page is nearer
 *   (page 4000 of 4000 is page 1 read backwards): the walk stops after the page.
 * - Filtered: the page first, then the count only if the page cannot tell. SQLite cannot
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
  if (search.pattern !== undefined || search.groupId !== undefined) {
    const keys = dialectOf(db) === 'sqlite' ? 'sorted' : 'indexed';
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
  const items = await rowsInOrder(db, accountId, search, sort, { keys: 'indexed', backwards })
    .limit(take)
    .offset(backwards ? fromEnd : window.offset)
    .execute();
  return { count, items: backwards ? items.reverse() : items };
}
