import { type RawBuilder, sql } from 'kysely';
import { type Db, dialectOf } from './database.js';
import { SQLITE_NAME_KEY } from './name-key.js';

/**
 * Names in the order people read them, in both databases: "Ávila, João, Öztürk, Tester, Zoë",
 * never "João, Tester, Zoë, Ávila, Öztürk" (byte order, which put every accented capital after
 * Z). A list sorted by a name orders by `byName(db, 'last_name')`, then by the row's id, so the
 * order is total and pages never overlap.
 * - PostgreSQL: the name in lower case under ICU's root collation (`"und-x-icu"`, in every build
 *   with ICU: Debian's, the official image, every 16 and later), whatever the database's own
 *   collation is (often C). Accents count only between names otherwise equal ("Ozturk" before
 *   "Öztürk"); case not at all, as `lower(…)` did: such names keep the order of their ids.
 * - SQLite has no collation beyond bytes: every connection has the function `vigil_name_key`
 *   (name-key.ts), which gives the same order for Latin, Greek and Cyrillic names.
 * Employees' and groups' names are indexed by exactly these expressions (migration 0020), so a
 * list of an account walks an index, as does a training campaign's people list (its employees
 * first, enrollments.repository.ts); any other list sorts what its query found.
 */
export function byName(db: Db, column: string): RawBuilder<unknown> {
  return dialectOf(db) === 'postgres'
    ? sql`lower(${sql.ref(column)} collate "und-x-icu")`
    : sql`${sql.raw(SQLITE_NAME_KEY)}(${sql.ref(column)})`;
}

/**
 * Whether SQLite reads a page of some of an account's people (a group's members, a campaign's
 * people) faster along the account's name index, checking each row it passes, than by sorting
 * all of them. SQLite keeps no statistics to choose with; PostgreSQL's planner chooses itself.
 * Measured at 100,000 employees (bench/RESULTS.md): a step of the walk costs ~0.4 µs (an index
 * entry and a look-up), sorting ~3.5 µs a row (its name key computed and compared): the walk
 * wins while it passes fewer than 8 rows of the account for each one it could sort. It passes
 * the rows before the page's end, spread over the account: `rowsBeforePageEnd` of `matches`,
 * among `everyone`, counted only when the matches are too many to sort at once (1,000: ~3 ms).
 */
export async function walkBeatsSort(p: {
  matches: number;
  everyone: () => Promise<number>;
  rowsBeforePageEnd: number;
}): Promise<boolean> {
  if (p.matches <= 1000) return false;
  const steps = p.rowsBeforePageEnd * ((await p.everyone()) / p.matches);
  return steps < 8 * p.matches;
}
