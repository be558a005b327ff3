import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { conflict, FieldErrorCollector, notFound } from '../../errors.js';
import { checkEmail, checkName, normalizeEmail } from '../../fields.js';
import { parseId } from '../../ids.js';
import { fetchPage, type Page, type PageRequest } from '../../pagination.js';
import {
  countEmployees,
  type EmployeeFilter,
  type EmployeeRow,
  findEmployee,
  insertEmployee,
  listEmployees,
} from './employees.repository.js';

export type Employee = EmployeeRow;

export interface NewEmployee {
  first_name: unknown;
  last_name: unknown;
  email: unknown;
}

/** Creates an employee; the database's unique index decides duplicates, so concurrent creates of one address give one winner. */
export async function createEmployee(db: Db, accountId: number, input: NewEmployee): Promise<Employee> {
  const errors = new FieldErrorCollector();
  const first_name = checkName(errors, 'first_name', input.first_name);
  const last_name = checkName(errors, 'last_name', input.last_name);
  const email = checkEmail(errors, 'email', input.email);
  errors.throwIfAny();
  const now = Date.now();
  try {
    return await insertEmployee(db, {
      account_id: accountId,
      first_name,
      last_name,
      email,
      email_normalized: normalizeEmail(email),
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Email already exists');
    throw err;
  }
}

export async function getEmployee(db: Db, accountId: number, employeeId: string | number): Promise<Employee> {
  const id = parseId(employeeId);
  const employee = id === null ? undefined : await findEmployee(db, accountId, id);
  if (!employee) throw notFound('Employee not found');
  return employee;
}

export function findEmployees(
  db: Db,
  accountId: number,
  query: { email?: string },
  page: PageRequest,
): Promise<Page<Employee>> {
  const filter: EmployeeFilter = {};
  if (query.email !== undefined) filter.emailNormalized = normalizeEmail(query.email);
  // No stored address holds a NUL (input refuses control characters) and PostgreSQL cannot even
  // compare text that does: such a filter matches nothing, without asking the database.
  if (filter.emailNormalized?.includes('\u0000'))
    return fetchPage(
      page,
      async () => 0,
      async () => [],
    );
  return fetchPage(
    page,
    () => countEmployees(db, accountId, filter),
    (limit, offset) => listEmployees(db, accountId, filter, limit, offset),
  );
}
