import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import { iso } from '../../../core/time.js';
import { type EmployeeRow, employeesAfter } from './employees.repository.js';

const EXPORT_BATCH_SIZE = 2000;

const COLUMNS = ['id', 'first_name', 'last_name', 'email', 'created_at'];

/** Every employee of an account in id order, read in batches (keyset, so each is an index range). */
async function* employeesInBatches(
  db: Db,
  accountId: number,
  batchSize: number,
  groups: GroupScope,
): AsyncGenerator<EmployeeRow> {
  let afterId = 0;
  for (;;) {
    const batch = await employeesAfter(db, accountId, afterId, batchSize, groups);
    yield* batch;
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    afterId = last.id;
  }
}

/**
 * An account's employees as CSV text, streamed: `id,first_name,last_name,email,created_at`
 * (ISO 8601). Cells that a spreadsheet would run as a formula (starting with = + - @, a tab or
 * a carriage return) get a leading `'`. Stopping to read (a client gone) stops the queries.
 */
export function exportEmployees(
  db: Db,
  accountId: number,
  batchSize = EXPORT_BATCH_SIZE,
  groups: GroupScope = null,
): Readable {
  const records = Readable.from(
    (async function* () {
      for await (const e of employeesInBatches(db, accountId, batchSize, groups))
        yield [e.id, e.first_name, e.last_name, e.email, iso(e.created_at)];
    })(),
  );
  const csv = stringify({ header: true, columns: COLUMNS, escape_formulas: true, bom: true });
  // The returned stream ends with an error if a query fails, and destroying it ends the reads.
  return pipeline(records, csv, () => {});
}
