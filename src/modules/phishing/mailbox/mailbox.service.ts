import { recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { isUniqueViolation } from '../../../core/db/errors.js';
import { isReportingId, newReportingId, reportingAddress } from './mailbox.model.js';
import {
  accountByReportingIdOfAnyAccount,
  insertReportingIdIfNone,
  replaceReportingId,
  reportingIdOfAccount,
} from './mailbox.repository.js';

/** Two new ids that another account already holds in a row: 50 random bits make a third unheard of. */
const ATTEMPTS = 3;

/** The account's reporting id, made on its first need (race-safe: every caller sees the one kept). */
export async function reportingIdOf(db: Db, accountId: number): Promise<string> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const existing = await reportingIdOfAccount(db, accountId);
    if (existing !== undefined) return existing;
    // Does nothing when another request made it meanwhile; a new id already taken: draw again.
    try {
      await insertReportingIdIfNone(db, accountId, newReportingId(), Date.now());
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  const made = await reportingIdOfAccount(db, accountId);
  if (made === undefined) throw new Error(`could not make a reporting id for account ${accountId}`);
  return made;
}

/** Gives the account a new reporting id: mail to the old address is refused from now on. */
export async function regenerateReportingId(db: Db, accountId: number): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const reportingId = newReportingId();
    try {
      await db.transaction().execute(async (trx) => {
        await replaceReportingId(trx, accountId, reportingId, Date.now());
        // The address is unguessable on purpose: recorded only as changed.
        await recordAudit(trx, {
          accountId,
          action: 'reporting_address.regenerated',
          object: { type: 'reporting_address', id: accountId },
          changes: { address: { changed: true } },
        });
      });
      return reportingId;
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= ATTEMPTS) throw err;
    }
  }
}

/** The account's reporting address, or null when this server has no REPORT_DOMAIN. */
export async function reportingAddressOf(
  db: Db,
  accountId: number,
  domain: string | undefined,
): Promise<string | null> {
  if (domain === undefined) return null;
  return reportingAddress(await reportingIdOf(db, accountId), domain);
}

/** Gives the account a new reporting address (see regenerateReportingId); null without REPORT_DOMAIN. */
export async function regenerateReportingAddress(
  db: Db,
  accountId: number,
  domain: string | undefined,
): Promise<string | null> {
  const reportingId = await regenerateReportingId(db, accountId);
  return domain === undefined ? null : reportingAddress(reportingId, domain);
}

/** The account a reporting id names, or null (the listener's lookup, before any account is known). */
export async function accountOfReportingId(db: Db, reportingId: string): Promise<number | null> {
  if (!isReportingId(reportingId)) return null;
  return (await accountByReportingIdOfAnyAccount(db, reportingId)) ?? null;
}
