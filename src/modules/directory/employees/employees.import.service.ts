import { bulkChange, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { type FieldErrors, validationFailed } from '../../../core/errors.js';
import { emit } from '../../../core/events.js';
import { employeesByEmail, insertEmployeesIfNew, type NewEmployeeRow } from './employees.repository.js';
import { checkEmployeeRows } from './employees.rows.model.js';
import type { NewEmployee } from './employees.service.js';

export const MAX_IMPORT_ROWS = 1000;

type ImportStatus = 'created' | 'would_create' | 'exists' | 'invalid' | 'duplicate';

interface ImportResult {
  status: ImportStatus;
  /** The employee created, or the one that already has the address. */
  id?: number;
  /** For `invalid`: field → messages, as in a 400 Validation failed. */
  errors?: FieldErrors;
}

interface ImportOutcome {
  created: number;
  /** One per row, in the same order. */
  results: ImportResult[];
}

interface Candidate {
  index: number;
  values: NewEmployeeRow;
}

/**
 * Imports up to 1000 employees with createEmployee's rules, row by row: a bad row is reported,
 * never fails the others. An address the account has is `exists`, one seen earlier in the
 * request `duplicate`. The rest are inserted in one statement that skips addresses created
 * meanwhile (they become `exists`); with `dryRun` nothing is written (`would_create`).
 */
export async function importEmployees(
  db: Db,
  accountId: number,
  rows: Partial<NewEmployee>[],
  options: { dryRun: boolean },
): Promise<ImportOutcome> {
  if (rows.length > MAX_IMPORT_ROWS)
    throw validationFailed({ rows: [`must have at most ${MAX_IMPORT_ROWS} entries`] });
  const results: ImportResult[] = [];
  const candidates: Candidate[] = [];
  const now = Date.now();
  for (const checked of checkEmployeeRows(rows)) {
    if (checked.kind === 'invalid') results.push({ status: 'invalid', errors: checked.errors });
    else if (checked.kind === 'duplicate') results.push({ status: 'duplicate' });
    else {
      results.push({ status: 'would_create' });
      candidates.push({
        index: checked.index,
        values: { ...checked.values, created_at: now, updated_at: now },
      });
    }
  }

  const existing = await idsByEmail(
    db,
    accountId,
    candidates.map((c) => c.values.email_normalized),
  );
  const fresh = candidates.filter((c) => !existing.has(c.values.email_normalized));
  if (!options.dryRun && fresh.length > 0) {
    await db.transaction().execute(async (trx) => {
      const inserted = await insertEmployeesIfNew(
        trx,
        accountId,
        fresh.map((c) => c.values),
      );
      for (const row of inserted) existing.set(row.email_normalized, { id: row.id, created: true });
      // Created like any employee: `employee.created` for each (webhooks), as the catalogue says.
      await emit(trx, 'employees.upserted', { accountId, created: inserted, updated: [] });
      await recordAudit(trx, {
        accountId,
        action: 'employees.imported',
        object: { type: 'employee', label: `${rows.length} rows` },
        changes: { created: bulkChange(inserted.map((e) => e.id)) },
      });
      // Created by someone else since the look-up: they exist now.
      const raced = fresh.filter((c) => !existing.has(c.values.email_normalized)).map((c) => c.values);
      const found = await idsByEmail(
        trx,
        accountId,
        raced.map((v) => v.email_normalized),
      );
      for (const [email, employee] of found) existing.set(email, employee);
    });
  }
  let created = 0;
  for (const { index, values } of candidates) {
    const found = existing.get(values.email_normalized);
    if (!found) continue; // dry run: still would_create
    results[index] = found.created ? { status: 'created', id: found.id } : { status: 'exists', id: found.id };
    if (found.created) created++;
  }
  return { created, results };
}

async function idsByEmail(
  db: Db,
  accountId: number,
  emailsNormalized: string[],
): Promise<Map<string, { id: number; created: boolean }>> {
  const rows = await employeesByEmail(db, accountId, emailsNormalized);
  return new Map(rows.map((r) => [r.email_normalized, { id: r.id, created: false }]));
}
