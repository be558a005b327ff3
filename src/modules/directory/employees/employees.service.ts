import { diffFields, insertAndRecord, recordAudit } from '../../../core/audit/audit.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { isUniqueViolation } from '../../../core/db/errors.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import { foldedContainsPattern } from '../../../core/db/like.js';
import { AppError, emailTaken, FieldErrorCollector } from '../../../core/errors.js';
import { emit, watch } from '../../../core/events.js';
import { checkEmail, checkName, normalizeEmail } from '../../../core/fields.js';
import type { ListPage, ListWindow } from '../../../core/pagination.js';
import { fetchPage, type Page, type PageRequest } from '../../../core/pagination.js';
import { employeeSearchText } from '../../../core/search-text.js';
import { instantParameter } from '../sync/sync.service.js';
import { countEmployeesChangedSince, listEmployeesChangedSince } from './employees.changes.repository.js';
import {
  deleteMembershipsOfEmployee,
  leaveAllGroups,
  lockGroups,
} from './employees.offboarding.repository.js';
import {
  countEmployees,
  deleteEmployeeRow,
  type EmployeeRow,
  employeeIdAfter,
  employeeInsert,
  findEmployee,
  findEmployeeByEmail,
  findEmployeeForUpdate,
  groupsOfEmployee,
  insertEmployee,
  listEmployees,
  lockEmployee,
  memberGroupIds,
  updateEmployeeRow,
  withDefaults,
} from './employees.repository.js';
import { type EmployeeSort, readEmployeePage, type SortOrder } from './employees.search.repository.js';

export type Employee = EmployeeRow;

export interface NewEmployee {
  first_name: unknown;
  last_name: unknown;
  email: unknown;
}

/**
 * What an identity provider sets besides the person's fields (SCIM): whether they are active
 * (a deactivated person stays, readable, but is no longer enrolled, invited, reminded or sent
 * simulations) and its own id for them. Never read from a Customer API or admin body.
 */
export interface ProvisionedFields {
  active?: boolean;
  externalId?: string | null;
}

function provisionedColumns(fields: ProvisionedFields): { active?: number; external_id?: string | null } {
  return {
    ...(fields.active !== undefined && { active: fields.active ? 1 : 0 }),
    ...(fields.externalId !== undefined && { external_id: fields.externalId }),
  };
}

/** What the audit log shows of an employee's change. */
function employeeAudit(e: Pick<Employee, 'first_name' | 'last_name' | 'email'> & Record<string, unknown>) {
  return {
    first_name: e.first_name,
    last_name: e.last_name,
    email: e.email,
    external_id: e.external_id ?? null,
    active: e.active ?? null,
  };
}

/** Creates an employee; the database's unique index decides duplicates, so concurrent creates of one address give one winner. */
export async function createEmployee(
  db: Db,
  accountId: number,
  input: NewEmployee,
  provisioned: ProvisionedFields = {},
): Promise<Employee> {
  const errors = new FieldErrorCollector();
  const first_name = checkName(errors, 'first_name', input.first_name);
  const last_name = checkName(errors, 'last_name', input.last_name);
  const email = checkEmail(errors, 'email', input.email);
  errors.throwIfAny();
  const now = Date.now();
  const values = {
    first_name,
    last_name,
    email,
    email_normalized: normalizeEmail(email),
    search_text: employeeSearchText({ first_name, last_name, email }),
    created_at: now,
    updated_at: now,
    ...provisionedColumns(provisioned),
  };
  try {
    const created = await watch(db, 'employee.created', { accountId });
    // The record of the new employee (the object's id: the new row's, where it is known).
    const audit = (
      employee: Pick<Employee, 'first_name' | 'last_name' | 'email'> & Record<string, unknown>,
      id?: number,
    ) => ({
      accountId,
      action: 'employee.created',
      object: { type: 'employee', id, label: employee.email },
      changes: diffFields(null, employeeAudit(employee)),
    });
    // Nobody wants the event (an account without webhook endpoints): the employee and its audit
    // row are one write, without a transaction of their own (one statement on PostgreSQL).
    if (!created && !db.isTransaction) {
      return await insertAndRecord(db, employeeInsert(db, accountId, values), audit(withDefaults(values)));
    }
    const run = async (trx: Db) => {
      const employee = await insertEmployee(trx, accountId, values);
      await created?.(trx, { accountId, employee });
      await recordAudit(trx, audit(employee, employee.id));
      return employee;
    };
    return await (db.isTransaction ? run(db) : db.transaction().execute(run));
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

export async function getEmployee(db: Db, accountId: number, employeeId: number): Promise<Employee> {
  const employee = await findEmployee(db, accountId, employeeId);
  if (!employee) throw employeeNotFound();
  return employee;
}

/**
 * A page of the account's employees, by id; `email` picks one address, `updated_since` those
 * created or changed at or after an instant (a bad one is a 400 before anything is read).
 *
 * Why id order with `updated_since`, not (updated_at, id): a sync pages through with offsets,
 * and what it must never do is miss a row. Under (updated_at, id) a row changed while the sync
 * pages moves to the end, every row after its old place moves one place back, and the first
 * row of the next page slides onto a page already read: missed, and missed again by the next
 * sync (its updated_at is older than anything that sync asks for). Under id order a change
 * moves nothing (the row is read with its old or new values, and the next sync, from the time
 * this one started, reads it again), a new row comes at the end, and ties of updated_at (a bulk
 * upsert gives 10,000 rows one instant) cannot matter. The one move left is a deletion during
 * the pass (rows after it move one place back); a sync that must not miss even that reads
 * `/customer/employees/deleted/?since=<its start>` afterwards and, if a deletion happened
 * meanwhile, pages the list once more (the README's sync recipe).
 */
export async function findEmployees(
  db: Db,
  accountId: number,
  query: { email?: string; updated_since?: string },
  page: PageRequest,
): Promise<Page<Employee>> {
  const since = instantParameter('updated_since', query.updated_since);
  if (query.email === undefined) {
    if (since !== undefined) {
      return fetchPage(
        page,
        () => countEmployeesChangedSince(db, accountId, since),
        (limit, offset) => listEmployeesChangedSince(db, accountId, since, limit, offset),
      );
    }
    return fetchPage(
      page,
      () => countEmployees(db, accountId),
      (limit, offset) => listEmployees(db, accountId, limit, offset),
    );
  }
  // An address names at most one employee (the unique index): the first page holds it or
  // nothing, every later page is past the end. No stored address holds a NUL (input refuses
  // control characters) and PostgreSQL cannot even compare text that does: such a filter
  // matches nothing, without asking the database.
  const email = normalizeEmail(query.email);
  let found = email.includes('\u0000') ? undefined : await findEmployeeByEmail(db, accountId, email);
  if (found && since !== undefined && found.updated_at < since) found = undefined;
  return fetchPage(
    page,
    async () => (found ? 1 : 0),
    async (_limit, offset) => (found && offset === 0 ? [found] : []),
  );
}

const employeeNotFound = () => new AppError('employee_not_found');

export interface EmployeeQuery {
  /**
   * Part of the first, last or full name or of the address, case and accents aside, in any
   * script (`foldForSearch`): "ozturk" and "ÖZTÜRK" find "Öztürk".
   */
  search?: string;
  sort?: EmployeeSort;
  order?: SortOrder;
}

/** A page of an account's employees, searched and sorted (last name by default). */
export function searchEmployees(
  db: Db,
  accountId: number,
  query: EmployeeQuery,
  window: ListWindow,
  groups: GroupScope = null,
): Promise<ListPage<Employee>> {
  const pattern = foldedContainsPattern(query.search);
  if (pattern === null) return Promise.resolve({ count: 0, items: [] });
  const sort = { by: query.sort ?? 'last_name', order: query.order ?? 'asc' } as const;
  return readEmployeePage(db, accountId, { pattern, ...(groups ? { groups } : {}) }, sort, window);
}

/** An employee with the groups it belongs to (by name). */
export async function getEmployeeWithGroups(
  db: Db,
  accountId: number,
  employeeId: number,
): Promise<Employee & { groups: Array<{ id: number; name: string }> }> {
  const employee = await getEmployee(db, accountId, employeeId);
  return { ...employee, groups: await groupsOfEmployee(db, accountId, employee.id) };
}

/** Changes the fields given, with the rules of createEmployee; another employee's address is a 409. */
export async function updateEmployee(
  db: Db,
  accountId: number,
  employeeId: number,
  input: Partial<NewEmployee>,
  provisioned: ProvisionedFields = {},
): Promise<Employee> {
  const errors = new FieldErrorCollector();
  const changes: Parameters<typeof updateEmployeeRow>[3] = provisionedColumns(provisioned);
  if (input.first_name !== undefined) changes.first_name = checkName(errors, 'first_name', input.first_name);
  if (input.last_name !== undefined) changes.last_name = checkName(errors, 'last_name', input.last_name);
  if (input.email !== undefined) {
    changes.email = checkEmail(errors, 'email', input.email);
    changes.email_normalized = normalizeEmail(changes.email);
  }
  errors.throwIfAny();
  if (Object.keys(changes).length === 0) return getEmployee(db, accountId, employeeId);
  let employee: Employee | undefined;
  try {
    // The search text is made of all three fields: read the others under a lock, so two
    // concurrent changes of different fields cannot leave it describing neither.
    employee = await db.transaction().execute(async (trx) => {
      const current = await findEmployeeForUpdate(trx, accountId, employeeId);
      if (!current) return undefined;
      const search_text = employeeSearchText({ ...current, ...changes });
      const updated = await updateEmployeeRow(
        trx,
        accountId,
        employeeId,
        { ...changes, search_text },
        Date.now(),
      );
      if (updated) {
        await emit(trx, 'employee.updated', { accountId, employee: updated });
        await recordAudit(trx, {
          accountId,
          action: 'employee.updated',
          object: { type: 'employee', id: employeeId, label: updated.email },
          changes: diffFields(employeeAudit(current), employeeAudit(updated)),
        });
      }
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  if (!employee) throw employeeNotFound();
  return employee;
}

/**
 * Deletes an employee, who leaves every group in the same transaction: each group's count
 * and version (so its Customer API ETag) move. Their training record stays: every enrollment,
 * with its progress, score and completion, counted in its campaign's figures and shown as
 * "Deleted employee #<id>" (their name and address go with the row; their mail too). The id is
 * never given out again, and the address is free for a new employee at once.
 * Locks as replaceMembership does, groups first and then the employee, so a concurrent change
 * of one of the groups waits or is waited for, and no membership can be added meanwhile.
 */
export async function deleteEmployee(db: Db, accountId: number, employeeId: number): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  for (let attempt = 1; ; attempt++) {
    const done = await db.transaction().execute(async (trx) => {
      // SQLite: locking the employee first takes the database's write lock; nothing else runs.
      const expected = postgres ? await memberGroupIds(trx, accountId, employeeId) : [];
      await lockGroups(trx, accountId, expected);
      if (!(await lockEmployee(trx, accountId, employeeId))) throw employeeNotFound();
      const gone = await findEmployee(trx, accountId, employeeId);
      if (postgres && attempt < 3) {
        // Added to another group just before the employee was locked: start again with that
        // group locked first, so every transaction takes its locks in the same order.
        const now = await memberGroupIds(trx, accountId, employeeId);
        if (now.some((groupId) => !expected.includes(groupId))) return false;
      }
      const deletedAt = Date.now();
      await leaveAllGroups(trx, accountId, employeeId, deletedAt);
      const deletion = { accountId, employeeId, at: deletedAt };
      // Webhooks (the deletion, each group left), training and phishing keep their records.
      await emit(trx, 'employee.deleting', deletion);
      await deleteMembershipsOfEmployee(trx, accountId, employeeId);
      await deleteEmployeeRow(trx, accountId, employeeId);
      await emit(trx, 'employee.deleted', deletion); // the sync's tombstone
      await recordAudit(trx, {
        accountId,
        action: 'employee.deleted',
        object: { type: 'employee', id: employeeId, label: gone?.email ?? null },
      });
      return true;
    });
    if (done) return;
  }
}

/**
 * Where a slice of the account's people ends: the id of the employee `count` places after
 * `afterId` (in id order), or null when fewer follow. Launches add people in such slices.
 */
export function employeeSliceEnd(db: Db, accountId: number, afterId: number, count: number) {
  return employeeIdAfter(db, accountId, afterId, count);
}
