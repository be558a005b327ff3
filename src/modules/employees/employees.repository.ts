import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { EmployeesTable } from '../../db/schema.js';

export type EmployeeRow = Selectable<EmployeesTable>;

export interface EmployeeFilter {
  /** Normalized (lower-cased) address. */
  emailNormalized?: string;
}

export function insertEmployee(db: Db, values: Insertable<EmployeesTable>): Promise<EmployeeRow> {
  return db.insertInto('employees').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findEmployee(
  db: Db,
  accountId: number,
  employeeId: number,
): Promise<EmployeeRow | undefined> {
  return db
    .selectFrom('employees')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', employeeId)
    .executeTakeFirst();
}

function filtered(db: Db, accountId: number, filter: EmployeeFilter) {
  let query = db.selectFrom('employees').where('account_id', '=', accountId);
  if (filter.emailNormalized !== undefined)
    query = query.where('email_normalized', '=', filter.emailNormalized);
  return query;
}

export async function countEmployees(db: Db, accountId: number, filter: EmployeeFilter): Promise<number> {
  const row = await filtered(db, accountId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listEmployees(
  db: Db,
  accountId: number,
  filter: EmployeeFilter,
  limit: number,
  offset: number,
): Promise<EmployeeRow[]> {
  return filtered(db, accountId, filter).selectAll().orderBy('id').limit(limit).offset(offset).execute();
}
