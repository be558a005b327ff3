import type { Db } from '../../../core/db/database.js';
import { normalizeEmail } from '../../../core/fields.js';
import {
  createEmployee,
  deleteEmployee,
  type Employee,
  getEmployee,
  type NewEmployee,
  type ProvisionedFields,
  updateEmployee,
} from '../../directory/index.js';
import { USER_ATTRIBUTES } from './scim.attributes.model.js';
import { scimError } from './scim.errors.model.js';
import { userCriteria } from './scim.filter.model.js';
import { applyPatch, checkReadOnly, readPatchBody, targetOperations } from './scim.patch.model.js';
import { presentUser, type ScimUser } from './scim.presenter.js';
import { countUsers, type UserLookup, usersPage } from './scim.repository.js';
import { idNumber, readUser, type UserFields } from './scim.resources.presenter.js';
import { readScimWindow, type ScimWindow } from './scim.window.model.js';

/**
 * SCIM Users over the employees service: every write goes through createEmployee,
 * updateEmployee or deleteEmployee, so what those keep in step (search text, group counts and
 * versions, kept training history, events) stays so. userName is the employee's email.
 */

/** The account's users matching the filter (all without one), by id. */
export async function listUsers(
  db: Db,
  accountId: number,
  filter: string | undefined,
  window: ScimWindow,
): Promise<{ total: number; users: Employee[] }> {
  const criteria = filter === undefined ? {} : userCriteria(filter);
  if (criteria.none) return { total: 0, users: [] };
  const lookup: UserLookup = {};
  if (criteria.email !== undefined) {
    // No stored address holds a NUL, and PostgreSQL cannot compare text that does.
    if (criteria.email.includes('\u0000')) return { total: 0, users: [] };
    lookup.emailNormalized = normalizeEmail(criteria.email);
  }
  if (criteria.externalId !== undefined) {
    if (criteria.externalId.includes('\u0000')) return { total: 0, users: [] };
    lookup.externalId = criteria.externalId;
  }
  if (criteria.id !== undefined) {
    lookup.id = idNumber(criteria.id);
    if (lookup.id === 0) return { total: 0, users: [] };
  }
  if (criteria.active !== undefined) lookup.active = criteria.active;
  const { total, items } = await readScimWindow(
    window,
    () => countUsers(db, accountId, lookup),
    (limit, offset) => usersPage(db, accountId, lookup, limit, offset),
  );
  return { total, users: items };
}

export function getUser(db: Db, accountId: number, userId: number): Promise<Employee> {
  return getEmployee(db, accountId, userId);
}

/** The person's fields from a SCIM User; `current` fills what a PATCH or PUT left out. */
function personOf(fields: UserFields, current?: Employee): NewEmployee {
  // userName is the address; a change of the work address alone (a PATCH of emails) moves it too.
  const email =
    fields.email !== undefined && (current === undefined || fields.email !== current.email)
      ? fields.email
      : fields.workEmail !== undefined && current !== undefined && fields.workEmail !== current.email
        ? fields.workEmail
        : (fields.email ?? current?.email);
  if (email === undefined) throw scimError('scim_invalid_value', 'userName is required (the email address)');
  const first = fields.firstName ?? current?.first_name;
  const last = fields.lastName ?? current?.last_name;
  if (first === undefined) throw scimError('scim_invalid_value', 'name.givenName is required');
  if (last === undefined) throw scimError('scim_invalid_value', 'name.familyName is required');
  return { email, first_name: first, last_name: last };
}

function provisionedOf(fields: UserFields): ProvisionedFields {
  return {
    ...(fields.active !== undefined && { active: fields.active }),
    ...(fields.externalId !== undefined && { externalId: fields.externalId }),
  };
}

/** POST /Users: a new employee (409 uniqueness when the account has the address already). */
export async function createUser(db: Db, accountId: number, body: unknown): Promise<Employee> {
  const fields = readUser(body);
  return createEmployee(db, accountId, personOf(fields), provisionedOf(fields));
}

/** Saves what differs from `current`; nothing at all when nothing does. */
async function saveChanges(
  db: Db,
  accountId: number,
  current: Employee,
  fields: UserFields,
): Promise<Employee> {
  if (fields.id !== undefined && fields.id !== null && String(fields.id) !== String(current.id))
    throw scimError('scim_mutability', 'id cannot be changed');
  const person = personOf(fields, current);
  const changes: Partial<NewEmployee> = {};
  if (person.email !== current.email) changes.email = person.email;
  if (person.first_name !== current.first_name) changes.first_name = person.first_name;
  if (person.last_name !== current.last_name) changes.last_name = person.last_name;
  const provisioned = provisionedOf(fields);
  if (provisioned.active !== undefined && (provisioned.active ? 1 : 0) === current.active)
    delete provisioned.active;
  if (provisioned.externalId !== undefined && provisioned.externalId === current.external_id)
    delete provisioned.externalId;
  if (Object.keys(changes).length === 0 && Object.keys(provisioned).length === 0) return current;
  return updateEmployee(db, accountId, current.id, changes, provisioned);
}

/** PUT /Users/{id}: the user as sent; active and externalId, when left out, stay as they are. */
export async function replaceUser(
  db: Db,
  accountId: number,
  userId: number,
  body: unknown,
): Promise<Employee> {
  const fields = readUser(body);
  const current = await getEmployee(db, accountId, userId);
  if (fields.email === undefined)
    throw scimError('scim_invalid_value', 'userName is required (the email address)');
  return saveChanges(db, accountId, current, fields);
}

/** PATCH /Users/{id}: the operations applied to the user as SCIM shows it, then saved. */
export async function patchUser(
  db: Db,
  accountId: number,
  userId: number,
  body: unknown,
  base: string,
): Promise<Employee> {
  const operations = targetOperations(readPatchBody(body), USER_ATTRIBUTES);
  const current = await getEmployee(db, accountId, userId);
  const shown: ScimUser = presentUser(current, base);
  const patched = applyPatch(shown, operations, USER_ATTRIBUTES);
  checkReadOnly(shown, patched);
  const fields = readUser(patched);
  // A name or address removed is refused (an employee has both names and an address).
  if (fields.email === undefined) throw scimError('scim_invalid_value', 'userName cannot be removed');
  return saveChanges(db, accountId, current, { ...fields, workEmail: fields.workEmail ?? fields.email });
}

/** DELETE /Users/{id}: the employee goes; their training history stays (deleteEmployee). */
export function deleteUser(db: Db, accountId: number, userId: number): Promise<void> {
  return deleteEmployee(db, accountId, userId);
}
