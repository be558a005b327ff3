import { FieldErrorCollector, type FieldErrors } from '../../../core/errors.js';
import { checkEmail, checkName, normalizeEmail } from '../../../core/fields.js';
import { employeeSearchText } from '../../../core/search-text.js';
import type { NewEmployee } from './employees.service.js';

/** A row's employee columns once its rules pass (timestamps are the writer's). */
export interface EmployeeValues {
  first_name: string;
  last_name: string;
  email: string;
  email_normalized: string;
  search_text: string;
}

/** What the rules make of one row of a batch (the CSV import, the bulk upsert). */
export type CheckedRow =
  | { index: number; email: string; kind: 'invalid'; errors: FieldErrors }
  /** The address (valid) is in an earlier row `of` already: which of the two was meant is not ours to guess. */
  | { index: number; email: string; kind: 'duplicate'; of: number }
  | { index: number; email: string; kind: 'valid'; values: EmployeeValues };

/**
 * Checks each row with createEmployee's rules and finds repeated addresses (compared
 * case-insensitively): any earlier row with a valid address counts, even one refused for its
 * names. `email` is the address as checkEmail returns it.
 */
export function checkEmployeeRows(rows: readonly Partial<NewEmployee>[]): CheckedRow[] {
  const firstRowOf = new Map<string, number>();
  return rows.map((row, index): CheckedRow => {
    const errors = new FieldErrorCollector();
    const first_name = checkName(errors, 'first_name', row.first_name);
    const last_name = checkName(errors, 'last_name', row.last_name);
    const email = checkEmail(errors, 'email', row.email);
    const email_normalized = normalizeEmail(email);
    const earlier = errors.fields.email ? undefined : firstRowOf.get(email_normalized);
    if (!errors.fields.email && earlier === undefined) firstRowOf.set(email_normalized, index);
    if (Object.keys(errors.fields).length > 0)
      return { index, email, kind: 'invalid', errors: errors.fields };
    if (earlier !== undefined) return { index, email, kind: 'duplicate', of: earlier };
    const search_text = employeeSearchText({ first_name, last_name, email });
    return {
      index,
      email,
      kind: 'valid',
      values: { first_name, last_name, email, email_normalized, search_text },
    };
  });
}
