import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import { prepared } from '../../../core/db/prepared.js';
import { EMPLOYEE_COLUMNS, type EmployeeRow } from './employees.repository.js';

/**
 * The account's employees created or changed at or after an instant (`updated_since=`), in id
 * order like the plain list (see findEmployees for why id and not updated_at). The index
 * (account, updated_at, id) of migration 0011 finds them when few changed.
 */

export function countEmployeesChangedSince(db: Db, accountId: number, since: number): Promise<number> {
  return countRows(
    db.selectFrom('employees').where('account_id', '=', accountId).where('updated_at', '>=', since),
  );
}

const pageChangedSince = prepared(
  (db: Db, p: { accountId: number; since: number; limit: number; offset: number }) =>
    db
      .selectFrom('employees')
      .select(EMPLOYEE_COLUMNS)
      .where('account_id', '=', p.accountId)
      .where('updated_at', '>=', p.since)
      .orderBy('id')
      .limit(p.limit)
      .offset(p.offset),
);

export function listEmployeesChangedSince(
  db: Db,
  accountId: number,
  since: number,
  limit: number,
  offset: number,
): Promise<EmployeeRow[]> {
  return pageChangedSince.execute(db, { accountId, since, limit, offset });
}
