import { type Selectable, sql } from 'kysely';
import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import { EMPLOYEE_COLUMNS, type EmployeeRow, type GroupsTable } from '../../../core/db/schema.js';

type GroupRow = Selectable<GroupsTable>;

/** SQL that only SCIM reads need: people and groups by what identity providers look them up by. */

export interface UserLookup {
  emailNormalized?: string;
  externalId?: string;
  id?: number;
  active?: boolean;
}

function users(db: Db, accountId: number, lookup: UserLookup) {
  let query = db.selectFrom('employees').where('account_id', '=', accountId);
  if (lookup.emailNormalized !== undefined)
    query = query.where('email_normalized', '=', lookup.emailNormalized);
  if (lookup.externalId !== undefined) query = query.where('external_id', '=', lookup.externalId);
  if (lookup.id !== undefined) query = query.where('id', '=', lookup.id);
  if (lookup.active !== undefined) query = query.where('active', '=', lookup.active ? 1 : 0);
  return query;
}

export function countUsers(db: Db, accountId: number, lookup: UserLookup): Promise<number> {
  return countRows(users(db, accountId, lookup));
}

/** The account's people matching the look-up, by id, `[offset, offset + limit)`. */
export function usersPage(
  db: Db,
  accountId: number,
  lookup: UserLookup,
  limit: number,
  offset: number,
): Promise<EmployeeRow[]> {
  return users(db, accountId, lookup)
    .select(EMPLOYEE_COLUMNS)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export interface GroupLookup {
  displayName?: string;
  externalId?: string;
  id?: number;
}

function groups(db: Db, accountId: number, lookup: GroupLookup) {
  let query = db.selectFrom('groups').where('account_id', '=', accountId);
  // displayName is not case-exact (RFC 7643 §4.2); SQLite's lower() folds ASCII letters only.
  if (lookup.displayName !== undefined)
    query = query.where(sql<boolean>`lower(name) = lower(${lookup.displayName})`);
  if (lookup.externalId !== undefined) query = query.where('external_id', '=', lookup.externalId);
  if (lookup.id !== undefined) query = query.where('id', '=', lookup.id);
  return query;
}

export function countScimGroups(db: Db, accountId: number, lookup: GroupLookup): Promise<number> {
  return countRows(groups(db, accountId, lookup));
}

export function scimGroupsPage(
  db: Db,
  accountId: number,
  lookup: GroupLookup,
  limit: number,
  offset: number,
): Promise<GroupRow[]> {
  return groups(db, accountId, lookup).selectAll().orderBy('id').limit(limit).offset(offset).execute();
}

export interface MemberRef {
  groupId: number;
  employeeId: number;
  email: string;
}

/** The members of these groups of the account (ids and addresses), by group then employee id. */
export async function membersOfGroups(db: Db, accountId: number, groupIds: number[]): Promise<MemberRef[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom('group_members as gm')
    .innerJoin('groups as g', 'g.id', 'gm.group_id')
    .innerJoin('employees as e', (j) =>
      j.onRef('e.id', '=', 'gm.employee_id').onRef('e.account_id', '=', 'g.account_id'),
    )
    .select(['gm.group_id', 'gm.employee_id', 'e.email'])
    .where('g.account_id', '=', accountId)
    .where('g.id', 'in', groupIds)
    .orderBy('gm.group_id')
    .orderBy('gm.employee_id')
    .execute();
  return rows.map((r) => ({
    groupId: Number(r.group_id),
    employeeId: Number(r.employee_id),
    email: r.email,
  }));
}
