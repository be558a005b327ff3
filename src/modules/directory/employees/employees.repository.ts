import { type CompiledQuery, type Insertable, sql } from 'kysely';
import { byName } from '../../../core/db/collation.js';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { employeeInScope, type GroupScope } from '../../../core/db/group-scope.js';
import { prepared } from '../../../core/db/prepared.js';
import type { EmployeesTable } from '../../../core/db/schema.js';
import { EMPLOYEE_COLUMNS, type EmployeeRow } from '../../../core/db/schema.js';
import { emailRows } from '../../../core/db/value-table.js';

export { EMPLOYEE_COLUMNS, type EmployeeRow };

// The Customer API's hot statements are prepared (db/prepared.ts): built and compiled once.

/** An employee's values but its id and account (given apart, first, as every function here takes it). */
export type NewEmployeeRow = Omit<Insertable<EmployeesTable>, 'id' | 'account_id'>;

const insertOne = prepared((db: Db, p: NewEmployeeRow & { accountId: number }) =>
  db
    .insertInto('employees')
    .values({
      account_id: p.accountId,
      first_name: p.first_name,
      last_name: p.last_name,
      email: p.email,
      email_normalized: p.email_normalized,
      search_text: p.search_text,
      created_at: p.created_at,
      updated_at: p.updated_at,
      active: p.active,
      external_id: p.external_id,
    })
    .returning(EMPLOYEE_COLUMNS),
);

export async function insertEmployee(
  db: Db,
  accountId: number,
  values: NewEmployeeRow,
): Promise<EmployeeRow> {
  return (await insertOne.executeTakeFirst(db, { ...withDefaults(values), accountId })) as EmployeeRow;
}

/** A new employee's values as the row holds them: active, with no external id, unless told otherwise. */
export function withDefaults(values: NewEmployeeRow) {
  return { active: 1, external_id: null, ...values };
}

/** The insert of `insertEmployee` as a statement, for a write that records it (audit.ts insertAndRecord). */
export function employeeInsert(db: Db, accountId: number, values: NewEmployeeRow) {
  return insertOne.compiled(db, { ...withDefaults(values), accountId }) as CompiledQuery<EmployeeRow>;
}

/**
 * The account's employee by a unique key (its id, or its normalized address: the unique index
 * (account, address) finds it), with no order, limit or offset to plan, which cost SQLite more
 * than the look-up itself.
 */
const employeeBy = (key: 'id' | 'email_normalized') =>
  prepared((db: Db, p: { accountId: number; value: number | string }) =>
    db
      .selectFrom('employees')
      .select(EMPLOYEE_COLUMNS)
      .where('account_id', '=', p.accountId)
      .where(key, '=', p.value),
  );

const byId = employeeBy('id');
const byEmail = employeeBy('email_normalized');

export function findEmployee(
  db: Db,
  accountId: number,
  employeeId: number,
): Promise<EmployeeRow | undefined> {
  return byId.executeTakeFirst(db, { accountId, value: employeeId });
}

/** The account's employee with this normalized address, if any (there is at most one). */
export function findEmployeeByEmail(
  db: Db,
  accountId: number,
  emailNormalized: string,
): Promise<EmployeeRow | undefined> {
  return byEmail.executeTakeFirst(db, { accountId, value: emailNormalized });
}

export async function countEmployees(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('employees').where('account_id', '=', accountId));
}

type PageParams = { accountId: number; limit: number; offset: number };

const pageOfAll = prepared((db: Db, p: PageParams) =>
  db
    .selectFrom('employees')
    .select(EMPLOYEE_COLUMNS)
    .where('account_id', '=', p.accountId)
    .orderBy('id')
    .limit(p.limit)
    .offset(p.offset),
);

export function listEmployees(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
): Promise<EmployeeRow[]> {
  return pageOfAll.execute(db, { accountId, limit, offset });
}

/**
 * An employee of this account, held until the transaction ends (PostgreSQL: `for update`; SQLite:
 * a write transaction already holds the database's write lock).
 */
export function findEmployeeForUpdate(
  trx: Db,
  accountId: number,
  employeeId: number,
): Promise<EmployeeRow | undefined> {
  return trx
    .selectFrom('employees')
    .select(EMPLOYEE_COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', employeeId)
    .$if(dialectOf(trx) === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
}

/** Changes some fields of an employee of this account; undefined when there is none. */
export function updateEmployeeRow(
  db: Db,
  accountId: number,
  employeeId: number,
  changes: Partial<
    Pick<
      EmployeesTable,
      'first_name' | 'last_name' | 'email' | 'email_normalized' | 'search_text' | 'external_id'
    > & { active: number }
  >,
  now: number,
): Promise<EmployeeRow | undefined> {
  return db
    .updateTable('employees')
    .set({ ...changes, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', employeeId)
    .returning(EMPLOYEE_COLUMNS)
    .executeTakeFirst();
}

/**
 * Holds an employee until commit, so no membership of it can be added meanwhile (adding one
 * checks the foreign key, which waits for this lock). On SQLite a no-op update takes the
 * database's write lock at once, as `lockGroup` does.
 */
export async function lockEmployee(trx: Db, accountId: number, employeeId: number): Promise<boolean> {
  const query =
    dialectOf(trx) === 'postgres'
      ? trx
          .selectFrom('employees')
          .select('id')
          .where('account_id', '=', accountId)
          .where('id', '=', employeeId)
          .forUpdate()
      : trx
          .updateTable('employees')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('account_id', '=', accountId)
          .where('id', '=', employeeId)
          .returning('id');
  return (await query.executeTakeFirst()) !== undefined;
}

export async function deleteEmployeeRow(trx: Db, accountId: number, employeeId: number): Promise<void> {
  await trx
    .deleteFrom('employees')
    .where('account_id', '=', accountId)
    .where('id', '=', employeeId)
    .execute();
}

/** The groups an employee of the account belongs to, ascending by id. */
export async function memberGroupIds(db: Db, accountId: number, employeeId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('group_members')
    .select('group_id')
    .where('employee_id', '=', (eb) =>
      eb
        .selectFrom('employees')
        .select('id')
        .where('id', '=', employeeId)
        .where('account_id', '=', accountId),
    )
    .orderBy('group_id')
    .execute();
  return rows.map((r) => r.group_id);
}

/** The groups an employee belongs to, by name. */
export function groupsOfEmployee(db: Db, accountId: number, employeeId: number) {
  return db
    .selectFrom('groups')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('group_members').select('group_id').where('employee_id', '=', employeeId),
    )
    .orderBy(byName(db, 'name'))
    .orderBy('id')
    .execute();
}

/** This account's employees with one of these normalized addresses. */
export async function employeesByEmail(
  db: Db,
  accountId: number,
  emailsNormalized: string[],
): Promise<Array<{ id: number; email_normalized: string }>> {
  if (emailsNormalized.length === 0) return [];
  // `cross join` keeps the addresses as the outer loop on SQLite (its join-order hint): each is
  // one look-up in the unique index, instead of a scan of the account's employees per address.
  const { rows } = await sql<{ id: number; email_normalized: string }>`select e.id, e.email_normalized
      from ${emailRows(db, emailsNormalized)}
      cross join employees e
      where e.account_id = ${accountId} and e.email_normalized = u.email`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), email_normalized: r.email_normalized }));
}

/**
 * Inserts employees into the account, skipping any whose address it already has (a concurrent
 * create included): the rows returned are those inserted.
 */
export function insertEmployeesIfNew(
  trx: Db,
  accountId: number,
  rows: NewEmployeeRow[],
): Promise<EmployeeRow[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return trx
    .insertInto('employees')
    .values(rows.map((row) => ({ ...row, account_id: accountId })))
    .onConflict((oc) => oc.columns(['account_id', 'email_normalized']).doNothing())
    .returning(EMPLOYEE_COLUMNS)
    .execute();
}

/** One batch of an account's employees after `afterId`, in id order (keyset paging, for exports). */
export function employeesAfter(
  db: Db,
  accountId: number,
  afterId: number,
  limit: number,
  groups: GroupScope = null,
): Promise<EmployeeRow[]> {
  return db
    .selectFrom('employees')
    .select(EMPLOYEE_COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '>', afterId)
    .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'employees.id')))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * The id of the account's employee `count` places after `afterId` (in id order), or null when
 * fewer follow: the bounds of slices of the account's people (bulk work in slices, db/id-slices.ts).
 */
export async function employeeIdAfter(
  db: Db,
  accountId: number,
  afterId: number,
  count: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('employees')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(1)
    .offset(count - 1)
    .executeTakeFirst();
  return row ? row.id : null;
}
