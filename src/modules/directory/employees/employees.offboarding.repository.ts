import { type Db, dialectOf } from '../../../core/db/database.js';

/**
 * What deleting an employee writes in the groups that held them, in the order deleteEmployee
 * takes its locks: the groups first, then the employee (as replaceMembership does).
 */

/**
 * Locks several groups of an account, in id order (as every transaction that locks more than
 * one takes them), until commit. See lockGroup.
 */
export async function lockGroups(trx: Db, accountId: number, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  if (dialectOf(trx) === 'postgres') {
    await trx
      .selectFrom('groups')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', groupIds)
      .orderBy('id')
      .forUpdate()
      .execute();
    return;
  }
  await trx
    .updateTable('groups')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('account_id', '=', accountId)
    .where('id', 'in', groupIds)
    .execute();
}

/** Before an employee is deleted: every group holding it loses a member and moves its version on. */
export async function leaveAllGroups(
  trx: Db,
  accountId: number,
  employeeId: number,
  now: number,
): Promise<void> {
  const left = await trx
    .updateTable('groups')
    .set((eb) => ({
      employee_count: eb('employee_count', '-', 1),
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('account_id', '=', accountId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('group_members').select('group_id').where('employee_id', '=', employeeId),
    )
    .executeTakeFirst();
  if (Number(left.numUpdatedRows) > 0) {
    // What the account's list of groups shows changed (groups.repository.ts, bumpGroupsRevision).
    await trx
      .updateTable('accounts')
      .set((eb) => ({ groups_revision: eb('groups_revision', '+', 1) }))
      .where('id', '=', accountId)
      .execute();
  }
}

/** An employee's memberships go with it (see deleteMembershipsOfGroup). */
export async function deleteMembershipsOfEmployee(
  trx: Db,
  accountId: number,
  employeeId: number,
): Promise<void> {
  await trx
    .deleteFrom('group_members')
    .where('employee_id', '=', (eb) =>
      eb
        .selectFrom('employees')
        .select('id')
        .where('id', '=', employeeId)
        .where('account_id', '=', accountId),
    )
    .execute();
}
