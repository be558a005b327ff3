import { type Generated, type Selectable, sql } from 'kysely';

/** The tables of employees, groups, memberships, sync tombstones. */

export interface EmployeesTable {
  id: Generated<number>;
  account_id: number;
  first_name: string;
  last_name: string;
  /** As first sent (trimmed). */
  email: string;
  /** Lower-cased; unique per account. */
  email_normalized: string;
  /**
   * The full name and the address folded for searching (`employeeSearchText`: case and accents
   * ignored, any script), kept in step with them on every write (migration 0006).
   */
  search_text: string;
  created_at: number;
  updated_at: number;
  /** 1, or 0 once deactivated (SCIM `active: false`): kept and readable, but trained and phished no more (migration 0013). */
  active: Generated<number>;
  /** The identity provider's id for this person (SCIM `externalId`), as it sent it. */
  external_id: string | null;
}

export interface GroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string;
  /** Kept in step with group_members in the same transaction. */
  employee_count: number;
  /** Increases with every change of membership, name or description; the ETag is made from it. */
  version: number;
  created_at: number;
  updated_at: number;
  /** The identity provider's id for this group (SCIM `externalId`), as it sent it (migration 0013). */
  external_id: string | null;
}

export interface GroupMembersTable {
  group_id: number;
  employee_id: number;
}

/** A deleted employee or group, for incremental sync (migration 0011). */
export interface TombstonesTable {
  account_id: number;
  resource: 'employee' | 'group';
  resource_id: number;
  deleted_at: number;
}

export interface DirectoryTables {
  employees: EmployeesTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  tombstones: TombstonesTable;
}

/** An employee as the services see it: without `search_text`, which only searches read. */
export type EmployeeRow = Omit<Selectable<EmployeesTable>, 'search_text'>;

/** Every column of an employee but `search_text` (rows stay as small as before it). */
export const EMPLOYEE_COLUMNS = [
  'id',
  'account_id',
  'first_name',
  'last_name',
  'email',
  'email_normalized',
  'created_at',
  'updated_at',
  'active',
  'external_id',
] as const;

/**
 * The account's deactivated employees (SCIM `active: false`), as a subquery: few rows, read
 * through employees_inactive_idx. Training and mail leave them out.
 */
export function inactiveEmployees(accountId: number) {
  return sql`select id from employees where account_id = ${accountId} and active = 0`;
}
