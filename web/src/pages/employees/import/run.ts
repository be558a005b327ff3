// Sending an import in chunks (of the most rows one request takes), as a dry run or for real, and its outcome.
import { api, call } from '../../../api/client';
import { fieldName, UNNAMED_FIELD } from '../../../api/field-names';
import { FORM_FIELDS } from '../../../api/form-fields';
import type { ImportAnswer, ImportResult, ImportStatus } from '../../../api/types';
import { FIELD_LABELS, FIELDS, type Field, type ImportRow } from './csv';

export interface RowOutcome {
  row: ImportRow;
  status: ImportStatus;
  /** "Email: must be a valid email address"; for a duplicate, the line it repeats. */
  messages: string[];
}

export interface ImportOutcome {
  rows: RowOutcome[];
  /** would_create (dry run) or created. */
  fresh: number;
  existing: number;
  invalid: number;
  duplicate: number;
  /** The run was cancelled before the last chunk. */
  cancelled: boolean;
  /** The error that stopped the run early (the counts cover the chunks before it). */
  error: unknown;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The server's messages, each named by the column's label ("First name: must not be empty"). */
function messagesOf(result: ImportResult): string[] {
  return Object.entries(result.errors ?? {}).flatMap(([field, list]) =>
    list.map((message) => `${fieldLabel(field)}: ${message}`),
  );
}

function fieldLabel(field: string): string {
  return (FIELDS as readonly string[]).includes(field)
    ? FIELD_LABELS[field as Field]
    : (fieldName(FORM_FIELDS.employeeImport.names, field) ?? UNNAMED_FIELD);
}

/**
 * Sends every row in chunks; `onProgress(done, total)` after each. The server finds duplicates
 * inside one request; an address repeated from an earlier chunk is marked a duplicate here too.
 * An error stops the run and is returned with the counts so far (earlier chunks may be saved).
 */
export async function runImport(
  accountId: number,
  /** The most rows one request takes (`limits.import_rows`). */
  chunkSize: number,
  rows: ImportRow[],
  dryRun: boolean,
  onProgress: (done: number, total: number) => void,
  signal: AbortSignal,
): Promise<ImportOutcome> {
  const firstLine = new Map<string, number>();
  const outcome: ImportOutcome = {
    rows: [],
    fresh: 0,
    existing: 0,
    invalid: 0,
    duplicate: 0,
    cancelled: false,
    error: null,
  };
  onProgress(0, rows.length);
  for (let start = 0; start < rows.length; start += chunkSize) {
    if (signal.aborted) {
      outcome.cancelled = true;
      break;
    }
    const chunk = rows.slice(start, start + chunkSize);
    let answer: ImportAnswer;
    try {
      answer = await call(
        api.POST('/accounts/{accountId}/employees/import', {
          params: { path: { accountId } },
          body: {
            rows: chunk.map(({ first_name, last_name, email }) => ({ first_name, last_name, email })),
            dry_run: dryRun,
          },
        }),
      );
    } catch (error) {
      outcome.error = error;
      break;
    }
    chunk.forEach((row, i) => {
      const result = answer.results[i] ?? {
        status: 'invalid',
        errors: { row: ['no answer from the server'] },
      };
      const email = normaliseEmail(row.email);
      const earlier = firstLine.get(email);
      let status = result.status;
      let messages = messagesOf(result);
      if (earlier !== undefined && status !== 'invalid') {
        // Created by (or would be created by) an earlier line of this file.
        status = 'duplicate';
        messages = [`${FIELD_LABELS.email}: same address as line ${earlier}`];
      } else if (status === 'duplicate') {
        messages = [`${FIELD_LABELS.email}: repeats an earlier line of the file`];
      }
      if (email && earlier === undefined && status !== 'invalid') firstLine.set(email, row.line);
      outcome.rows.push({ row, status, messages });
      if (status === 'created' || status === 'would_create') outcome.fresh++;
      else if (status === 'exists') outcome.existing++;
      else if (status === 'invalid') outcome.invalid++;
      else outcome.duplicate++;
    });
    onProgress(Math.min(start + chunk.length, rows.length), rows.length);
  }
  return outcome;
}
