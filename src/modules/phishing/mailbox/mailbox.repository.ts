import type { Db } from '../../../core/db/database.js';

/** The account's reporting id (reporting_settings), or undefined before its first need. */
export async function reportingIdOfAccount(db: Db, accountId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('reporting_settings')
    .select('reporting_id')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.reporting_id ?? undefined;
}

/**
 * Gives the account this reporting id unless it has one: several first needs at once keep the
 * first one written, on SQLite and PostgreSQL alike (a row with only its retention set has none).
 * An id another account holds is a unique violation (the caller draws another).
 */
export async function insertReportingIdIfNone(
  db: Db,
  accountId: number,
  reportingId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('reporting_settings')
    .values({ account_id: accountId, reporting_id: reportingId, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('account_id')
        .doUpdateSet({ reporting_id: reportingId, updated_at: now })
        .where('reporting_settings.reporting_id', 'is', null),
    )
    .execute();
}

/** Replaces the account's reporting id (making its row when it has none). */
export async function replaceReportingId(
  db: Db,
  accountId: number,
  reportingId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('reporting_settings')
    .values({ account_id: accountId, reporting_id: reportingId, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ reporting_id: reportingId, updated_at: now }))
    .execute();
}

/** The account a reporting id names, across accounts (the listener knows only the address). */
export async function accountByReportingIdOfAnyAccount(
  db: Db,
  reportingId: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('reporting_settings')
    .select('account_id')
    .where('reporting_id', '=', reportingId)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.account_id);
}
