import type { Db } from '../src/core/db/database.js';
import { normalizeEmail } from '../src/core/fields.js';
import { employeeSearchText } from '../src/core/search-text.js';

/** Who a benchmark's employee is. */
export interface BenchPerson {
  first_name: string;
  last_name: string;
  email: string;
}

/** An employee row as the employees service writes it (normalized address, search text), for bulk inserts. */
export function employeeRow(accountId: number, person: BenchPerson, createdAt: number) {
  return {
    account_id: accountId,
    ...person,
    email_normalized: normalizeEmail(person.email),
    search_text: employeeSearchText(person),
    created_at: createdAt,
    updated_at: createdAt,
  };
}

const BATCH = 2000;

/**
 * Inserts `count` employees of the account (`person(i)` for i = 0 … count − 1), 2,000 a
 * statement, and returns their ids in order; `afterBatch` gets each statement's ids (to add
 * them to groups as they come). In a transaction when `db` is one.
 */
export async function insertEmployees(
  db: Db,
  accountId: number,
  count: number,
  person: (i: number) => BenchPerson,
  afterBatch?: (ids: number[]) => Promise<void>,
): Promise<number[]> {
  const now = Date.now();
  const ids: number[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++)
      rows.push(employeeRow(accountId, person(i), now));
    const inserted = (await db.insertInto('employees').values(rows).returning('id').execute()).map((r) =>
      Number(r.id),
    );
    ids.push(...inserted);
    await afterBatch?.(inserted);
  }
  return ids;
}
