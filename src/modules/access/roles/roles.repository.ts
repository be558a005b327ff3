import type { Db } from '../../../core/db/database.js';
import { dialectOf } from '../../../core/db/database.js';
import {
  campaignInScope,
  employeeInScope,
  messageInScope,
  reportInScope,
} from '../../../core/db/group-scope.js';
import type { AccountRole } from '../../../core/db/schema.js';

/**
 * The groups an administrator's role is limited to, by id: null when none are named (every
 * group). Only the account's own groups count (a group deleted since takes its rows with it).
 */
export async function groupScopeOf(db: Db, accountId: number, adminId: number): Promise<number[] | null> {
  const rows = await db
    .selectFrom('admin_role_groups')
    .select('group_id')
    .where('account_id', '=', accountId)
    .where('admin_id', '=', adminId)
    .orderBy('group_id')
    .execute();
  return rows.length === 0 ? null : rows.map((r) => r.group_id);
}

/** A group a role is limited to, as the web interface names it. */
export interface ScopeGroup {
  id: number;
  name: string;
}

/**
 * The group scopes of an account's administrators (or of one of them), by administrator id,
 * with the groups' names (absent: every group).
 */
export async function groupScopesOfAccount(
  db: Db,
  accountId: number,
  adminId?: number,
): Promise<Map<number, ScopeGroup[]>> {
  const rows = await db
    .selectFrom('admin_role_groups as s')
    .innerJoin('groups as g', (j) =>
      j.onRef('g.id', '=', 's.group_id').onRef('g.account_id', '=', 's.account_id'),
    )
    .select(['s.admin_id', 'g.id', 'g.name'])
    .where('s.account_id', '=', accountId)
    .$if(adminId !== undefined, (q) => q.where('s.admin_id', '=', adminId as number))
    .orderBy('g.name')
    .orderBy('g.id')
    .execute();
  const scopes = new Map<number, ScopeGroup[]>();
  for (const { admin_id, id, name } of rows)
    scopes.set(admin_id, [...(scopes.get(admin_id) ?? []), { id, name }]);
  return scopes;
}

/** Replaces an administrator's group scope (an empty list: every group). */
export async function replaceGroupScope(
  db: Db,
  accountId: number,
  adminId: number,
  groupIds: readonly number[],
): Promise<void> {
  await db
    .deleteFrom('admin_role_groups')
    .where('account_id', '=', accountId)
    .where('admin_id', '=', adminId)
    .execute();
  if (groupIds.length === 0) return;
  await db
    .insertInto('admin_role_groups')
    .values(groupIds.map((group_id) => ({ account_id: accountId, admin_id: adminId, group_id })))
    .execute();
}

/** An account administrator of this account with their role (operators are not found here). */
export function findAccountAdminRole(db: Db, accountId: number, adminId: number) {
  return db
    .selectFrom('admin_users')
    .select(['id', 'email', 'account_role'])
    .where('account_id', '=', accountId)
    .where('id', '=', adminId)
    .where('role', '=', 'account_admin')
    .executeTakeFirst();
}

/**
 * The ids of the account's owners, locked until the transaction ends on PostgreSQL (so two
 * owners demoting each other at once cannot leave the account without one).
 */
export async function lockOwners(trx: Db, accountId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('admin_users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('role', '=', 'account_admin')
    .where('account_role', '=', 'owner')
    .$if(dialectOf(trx) === 'postgres', (q) => q.forUpdate())
    .execute();
  return rows.map((r) => r.id);
}

export async function setAccountRole(
  db: Db,
  accountId: number,
  adminId: number,
  role: AccountRole,
  now: number,
): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({ account_role: role, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', adminId)
    .execute();
}

/** Which of these ids are groups of this account, with their names. */
export function groupsOfAccountByIds(db: Db, accountId: number, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('groups')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
}

/** The group scope an invitation gives (absent: every group), by invitation id. */
export async function invitationScopes(db: Db, accountId: number): Promise<Map<number, number[]>> {
  const rows = await db
    .selectFrom('admin_invitation_groups')
    .select(['invitation_id', 'group_id'])
    .where('account_id', '=', accountId)
    .orderBy('group_id')
    .execute();
  const scopes = new Map<number, number[]>();
  for (const r of rows) scopes.set(r.invitation_id, [...(scopes.get(r.invitation_id) ?? []), r.group_id]);
  return scopes;
}

export async function insertInvitationScope(
  db: Db,
  accountId: number,
  invitationId: number,
  groupIds: readonly number[],
): Promise<void> {
  if (groupIds.length === 0) return;
  await db
    .insertInto('admin_invitation_groups')
    .values(groupIds.map((group_id) => ({ account_id: accountId, invitation_id: invitationId, group_id })))
    .execute();
}

export async function invitationScopeOf(db: Db, accountId: number, invitationId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('admin_invitation_groups')
    .select('group_id')
    .where('account_id', '=', accountId)
    .where('invitation_id', '=', invitationId)
    .orderBy('group_id')
    .execute();
  return rows.map((r) => r.group_id);
}

/** Whether this employee of the account belongs to one of these groups. */
export async function employeeIsInScope(
  db: Db,
  accountId: number,
  employeeId: number,
  groups: readonly number[],
): Promise<boolean> {
  const row = await db
    .selectFrom('employees as e')
    .select('e.id')
    .where('e.account_id', '=', accountId)
    .where('e.id', '=', employeeId)
    .where(employeeInScope(groups, 'e.id'))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether this campaign of the account (training or phishing) targets none but these groups. */
export async function campaignIsInScope(
  db: Db,
  accountId: number,
  kind: 'training' | 'phishing',
  campaignId: number,
  groups: readonly number[],
): Promise<boolean> {
  const table = kind === 'training' ? 'training_campaigns' : 'phishing_campaigns';
  const links = kind === 'training' ? 'campaign_groups' : 'phishing_campaign_groups';
  const row = await db
    .selectFrom(`${table} as c` as 'training_campaigns as c')
    .select('c.id')
    .where('c.account_id', '=', accountId)
    .where('c.id', '=', campaignId)
    .where(campaignInScope(groups, links, 'c.id'))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether this row of the account names a person who belongs to one of these groups: a training
 * enrollment, a phishing recipient, a phishing event (its recipient's), a message (its
 * addressee's), a reported message (one of its reporters).
 */
export async function personRowIsInScope(
  db: Db,
  accountId: number,
  kind: 'enrollment' | 'recipient' | 'event' | 'message' | 'report',
  id: number,
  groups: readonly number[],
): Promise<boolean> {
  let row: { id: number } | undefined;
  switch (kind) {
    case 'enrollment':
      row = await db
        .selectFrom('enrollments as x')
        .select('x.id')
        .where('x.account_id', '=', accountId)
        .where('x.id', '=', id)
        .where(employeeInScope(groups, 'x.employee_id'))
        .executeTakeFirst();
      break;
    case 'recipient':
      row = await db
        .selectFrom('phishing_recipients as x')
        .select('x.id')
        .where('x.account_id', '=', accountId)
        .where('x.id', '=', id)
        .where(employeeInScope(groups, 'x.employee_id'))
        .executeTakeFirst();
      break;
    case 'event':
      row = await db
        .selectFrom('phishing_events as x')
        .innerJoin('phishing_recipients as r', (j) =>
          j.onRef('r.id', '=', 'x.recipient_id').onRef('r.account_id', '=', 'x.account_id'),
        )
        .select('x.id')
        .where('x.account_id', '=', accountId)
        .where('x.id', '=', id)
        .where(employeeInScope(groups, 'r.employee_id'))
        .executeTakeFirst();
      break;
    case 'message':
      row = await db
        .selectFrom('messages as x')
        .select('x.id')
        .where('x.account_id', '=', accountId)
        .where('x.id', '=', id)
        .where(messageInScope(groups, accountId, 'x', dialectOf(db)))
        .executeTakeFirst();
      break;
    case 'report':
      row = await db
        .selectFrom('reports as x')
        .select('x.id')
        .where('x.account_id', '=', accountId)
        .where('x.id', '=', id)
        .where(reportInScope(groups, 'x.id'))
        .executeTakeFirst();
      break;
  }
  return row !== undefined;
}
