import { sql } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { sliceSize, slices } from '../../../core/db/id-slices.js';
import { EMPLOYEE_COLUMNS, type EmployeeRow } from './employees.repository.js';

/**
 * The set-based statements of a bulk upsert (employees.bulk.commands.ts): each reads or writes a slice
 * of rows in one statement, the rows travelling as one parameter (a JSON text for SQLite's
 * json_each, arrays for PostgreSQL's unnest), never one statement per row.
 */

/** What an upsert writes for one person (the address's normalized form is the key). */
export interface UpsertValues {
  first_name: string;
  last_name: string;
  email: string;
  email_normalized: string;
  search_text: string;
}

/** The columns an EmployeeRow holds (EMPLOYEE_COLUMNS), as a select or returning list, each prefixed. */
const columns = (prefix: string) => sql.raw(EMPLOYEE_COLUMNS.map((c) => `${prefix}${c}`).join(', '));
const RETURNED = columns('');
const RETURNED_E = columns('e.');
// json_each has an `id` column too: name the table's.
const RETURNED_T = columns('employees.');

const asRows = (rows: EmployeeRow[]): EmployeeRow[] =>
  rows.map((r) => ({
    ...r,
    id: Number(r.id),
    account_id: Number(r.account_id),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }));

/**
 * The account's employees with these normalized addresses, held until the transaction ends:
 * PostgreSQL locks them in id order (two bulk upserts sharing people take them in the same
 * order, so neither waits for the other while holding what it needs); a SQLite write
 * transaction already holds the database's write lock.
 */
export async function employeesByEmailForUpdate(
  trx: Db,
  accountId: number,
  emailsNormalized: string[],
): Promise<EmployeeRow[]> {
  const found: EmployeeRow[] = [];
  const postgres = dialectOf(trx) === 'postgres';
  for (const slice of slices(emailsNormalized, sliceSize(trx))) {
    const query = postgres
      ? sql<EmployeeRow>`select ${RETURNED} from employees
          where account_id = ${accountId} and email_normalized = any(${slice}::text[])
          order by id for update`
      : // `cross join` keeps the addresses as the outer loop (one look-up each in the unique index).
        sql<EmployeeRow>`select ${RETURNED_E} from json_each(${JSON.stringify(slice)}) u
          cross join employees e
          where e.account_id = ${accountId} and e.email_normalized = u.value`;
    found.push(...(await query.execute(trx)).rows);
  }
  return asRows(found);
}

/**
 * Inserts new employees, skipping any address the account has meanwhile (a concurrent create):
 * the rows returned are those inserted. PostgreSQL inserts in address order, so two bulk upserts
 * that both add some same addresses wait for each other in one order, never in a cycle.
 */
export async function insertEmployeesReturning(
  trx: Db,
  accountId: number,
  rows: UpsertValues[],
  now: number,
): Promise<EmployeeRow[]> {
  const inserted: EmployeeRow[] = [];
  const postgres = dialectOf(trx) === 'postgres';
  for (const slice of slices(rows, sliceSize(trx))) {
    const query = postgres
      ? sql<EmployeeRow>`insert into employees
            (account_id, first_name, last_name, email, email_normalized, search_text, created_at, updated_at)
          select ${accountId}, v.f, v.l, v.e, v.n, v.s, ${now}, ${now}
          from unnest(${slice.map((r) => r.first_name)}::text[], ${slice.map((r) => r.last_name)}::text[],
            ${slice.map((r) => r.email)}::text[], ${slice.map((r) => r.email_normalized)}::text[],
            ${slice.map((r) => r.search_text)}::text[]) as v(f, l, e, n, s)
          order by v.n
          on conflict (account_id, email_normalized) do nothing
          returning ${RETURNED}`
      : // `where true`: SQLite's parser needs it between an insert's select and its upsert clause.
        sql<EmployeeRow>`insert into employees
            (account_id, first_name, last_name, email, email_normalized, search_text, created_at, updated_at)
          select ${accountId}, v.value ->> 0, v.value ->> 1, v.value ->> 2, v.value ->> 3, v.value ->> 4,
            ${now}, ${now}
          from json_each(${JSON.stringify(
            slice.map((r) => [r.first_name, r.last_name, r.email, r.email_normalized, r.search_text]),
          )}) v
          where true
          on conflict (account_id, email_normalized) do nothing
          returning ${RETURNED}`;
    inserted.push(...(await query.execute(trx)).rows);
  }
  return asRows(inserted);
}

/** Changes the names, address and search text of employees of this account (by id); returns them. */
export async function updateEmployeesReturning(
  trx: Db,
  accountId: number,
  rows: Array<UpsertValues & { id: number }>,
  now: number,
): Promise<EmployeeRow[]> {
  const updated: EmployeeRow[] = [];
  const postgres = dialectOf(trx) === 'postgres';
  for (const slice of slices(rows, sliceSize(trx))) {
    const query = postgres
      ? sql<EmployeeRow>`update employees e
          set first_name = v.f, last_name = v.l, email = v.e, search_text = v.s, updated_at = ${now}
          from unnest(${slice.map((r) => r.id)}::bigint[], ${slice.map((r) => r.first_name)}::text[],
            ${slice.map((r) => r.last_name)}::text[], ${slice.map((r) => r.email)}::text[],
            ${slice.map((r) => r.search_text)}::text[]) as v(id, f, l, e, s)
          where e.account_id = ${accountId} and e.id = v.id
          returning ${RETURNED_E}`
      : // `+` keeps SQLite off the (account, id) index: without planner statistics it would scan
        // the account's employees and, for each, the whole slice (50,000 × 5,000), where one
        // primary-key look-up per row of the slice is what is wanted.
        sql<EmployeeRow>`update employees
          set first_name = v.value ->> 1, last_name = v.value ->> 2, email = v.value ->> 3,
            search_text = v.value ->> 4, updated_at = ${now}
          from json_each(${JSON.stringify(
            slice.map((r) => [r.id, r.first_name, r.last_name, r.email, r.search_text]),
          )}) v
          where +employees.account_id = ${accountId} and employees.id = v.value ->> 0
          returning ${RETURNED_T}`;
    updated.push(...(await query.execute(trx)).rows);
  }
  return asRows(updated);
}
