import { bulkChange, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import type { FieldErrors } from '../../../core/errors.js';
import { emit } from '../../../core/events.js';
import {
  employeesByEmailForUpdate,
  insertEmployeesReturning,
  type UpsertValues,
  updateEmployeesReturning,
} from './employees.bulk.repository.js';
import type { EmployeeRow } from './employees.repository.js';
import { checkEmployeeRows } from './employees.rows.model.js';
import type { NewEmployee } from './employees.service.js';

/** The most rows one bulk upsert takes (`POST /customer/employees/bulk/`). */
export const MAX_BULK_ROWS = 10_000;

export type BulkRowStatus = 'created' | 'updated' | 'unchanged' | 'error';

export interface BulkRowError {
  code: 'validation_failed' | 'duplicate_email';
  message: string;
  /** For `validation_failed`: field → messages, as in a 400. */
  details?: FieldErrors;
}

export interface BulkRowResult {
  index: number;
  /** The address as sent (trimmed); null when it was not a string. */
  email: string | null;
  status: BulkRowStatus;
  id?: number;
  error?: BulkRowError;
}

export interface BulkUpsertOutcome {
  /** One per row sent, in the same order. */
  results: BulkRowResult[];
  counts: Record<BulkRowStatus, number>;
  /** The employees this request created and changed, as they now are (webhook events, later). */
  created: EmployeeRow[];
  updated: EmployeeRow[];
}

interface Candidate extends UpsertValues {
  index: number;
}

/**
 * Upserts up to 10,000 people by address (compared case-insensitively, as the unique index does)
 * with createEmployee's rules, atomically per row: a row that breaks a rule, or repeats an
 * address an earlier row of the request gave, is reported and the others still apply. A person
 * the account has is `updated` when a name or the address as written differs (`updated_at`
 * moves), else `unchanged` (nothing written); anyone else is `created`. Rules are checked here,
 * row by row; then one transaction reads and writes the valid rows with a few set-based
 * statements (upsertEmployeeRows).
 */
export async function bulkUpsertEmployees(
  db: Db,
  accountId: number,
  rows: Partial<NewEmployee>[],
): Promise<BulkUpsertOutcome> {
  const results: BulkRowResult[] = [];
  const candidates: Candidate[] = [];
  for (const checked of checkEmployeeRows(rows)) {
    const { index, email } = checked;
    const sent = typeof rows[index]?.email === 'string' ? email : null;
    if (checked.kind === 'invalid') {
      const error = {
        code: 'validation_failed' as const,
        message: 'Validation failed',
        details: checked.errors,
      };
      results.push({ index, email: sent, status: 'error', error });
    } else if (checked.kind === 'duplicate') {
      const message = `This address (compared case-insensitively) is already in row ${checked.of} of this request`;
      results.push({ index, email: sent, status: 'error', error: { code: 'duplicate_email', message } });
    } else {
      results.push({ index, email, status: 'unchanged' });
      candidates.push({ index, ...checked.values });
    }
  }

  const written =
    candidates.length === 0
      ? { created: [], updated: [], unchanged: [] }
      : await retryingDeadlocks(() =>
          db.transaction().execute(async (trx) => {
            const rows = await upsertEmployeeRows(trx, accountId, candidates, Date.now());
            await emit(trx, 'employees.upserted', {
              accountId,
              created: rows.created,
              updated: rows.updated,
            });
            // One row for the operation: counts and the first ids, never a row per person.
            await recordAudit(trx, {
              accountId,
              action: 'employees.bulk_upserted',
              object: { type: 'employee', label: `${candidates.length} rows` },
              changes: {
                created: bulkChange(rows.created.map((e) => e.id)),
                updated: bulkChange(rows.updated.map((e) => e.id)),
                unchanged: bulkChange(rows.unchanged.map((e) => e.id)),
              },
            });
            return rows;
          }),
        );

  const byKey = new Map<string, { status: BulkRowStatus; id: number }>();
  for (const [status, list] of Object.entries(written) as Array<[BulkRowStatus, EmployeeRow[]]>)
    for (const employee of list) byKey.set(employee.email_normalized, { status, id: employee.id });
  for (const candidate of candidates) {
    const outcome = byKey.get(candidate.email_normalized);
    // Every candidate is created, updated or found unchanged; a row deleted by another request
    // in the instant between the read and the write is the one way to get here: report it.
    results[candidate.index] = outcome
      ? { index: candidate.index, email: candidate.email, status: outcome.status, id: outcome.id }
      : {
          index: candidate.index,
          email: candidate.email,
          status: 'error',
          error: {
            code: 'validation_failed',
            message: 'Validation failed',
            details: { email: ['was deleted meanwhile; send it again'] },
          },
        };
  }
  const counts = { created: 0, updated: 0, unchanged: 0, error: 0 };
  for (const result of results) counts[result.status]++;
  return { results, counts, created: written.created, updated: written.updated };
}

/**
 * PostgreSQL breaks a deadlock by aborting one of the transactions (40P01): a bulk upsert can meet
 * one with a concurrent change of an address it inserts. The other side has finished by then, so
 * the whole transaction runs again (twice at most) rather than answering a 500.
 */
async function retryingDeadlocks<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= 3 || (err as { code?: unknown }).code !== '40P01') throw err;
    }
  }
}

const isChanged = (current: EmployeeRow, wanted: UpsertValues) =>
  current.first_name !== wanted.first_name ||
  current.last_name !== wanted.last_name ||
  current.email !== wanted.email;

/**
 * Writes valid upsert rows (distinct addresses) in the caller's transaction: reads the account's
 * people with those addresses (held until commit), inserts the new ones and updates the changed
 * ones, slice by slice. Returns the employees created and updated as they now are, and those
 * left unchanged. This is where an upsert's changes are known: events about them start here.
 */
export async function upsertEmployeeRows(
  trx: Db,
  accountId: number,
  candidates: UpsertValues[],
  now: number,
): Promise<{ created: EmployeeRow[]; updated: EmployeeRow[]; unchanged: EmployeeRow[] }> {
  const unchanged: EmployeeRow[] = [];
  const changed: Array<UpsertValues & { id: number }> = [];
  const sortUpdatesAndFindNew = (existing: EmployeeRow[], wanted: UpsertValues[]) => {
    const found = new Map(existing.map((e) => [e.email_normalized, e]));
    const fresh: UpsertValues[] = [];
    for (const row of wanted) {
      const current = found.get(row.email_normalized);
      if (!current) fresh.push(row);
      else if (isChanged(current, row)) changed.push({ ...row, id: current.id });
      else unchanged.push(current);
    }
    return fresh;
  };
  const existing = await employeesByEmailForUpdate(
    trx,
    accountId,
    candidates.map((c) => c.email_normalized),
  );
  const fresh = sortUpdatesAndFindNew(existing, candidates);
  // Address order: concurrent upserts adding the same people insert them in one order.
  fresh.sort((a, b) =>
    a.email_normalized < b.email_normalized ? -1 : a.email_normalized > b.email_normalized ? 1 : 0,
  );
  const created = await insertEmployeesReturning(trx, accountId, fresh, now);
  if (created.length < fresh.length) {
    // Created by another request since the read (PostgreSQL: it committed while this insert
    // waited for it): they exist now, so they are updates or unchanged like the others.
    const inserted = new Set(created.map((e) => e.email_normalized));
    const raced = fresh.filter((row) => !inserted.has(row.email_normalized));
    const nowExisting = await employeesByEmailForUpdate(
      trx,
      accountId,
      raced.map((row) => row.email_normalized),
    );
    sortUpdatesAndFindNew(nowExisting, raced);
  }
  changed.sort((a, b) => a.id - b.id);
  const updated = await updateEmployeesReturning(trx, accountId, changed, now);
  return { created, updated, unchanged };
}
