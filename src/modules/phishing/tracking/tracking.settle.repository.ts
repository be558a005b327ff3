import type { Db } from '../../../core/db/database.js';
import type { PhishingEventKind } from '../../../core/db/schema.js';

/**
 * SQL of settling tracking hits (tracking.settle.commands.ts): the hits waiting to settle, the hits of one
 * client address around them, and the writes that settle them. Account first, filtered by it,
 * except the scheduler's look-up of what is due, which serves every account.
 */

/** The kinds of hit that touch a recipient's link (what the burst rule counts). */
const TOUCHING: PhishingEventKind[] = ['opened', 'clicked', 'submitted', 'interaction'];

const HIT_COLUMNS = [
  'id',
  'account_id',
  'recipient_id',
  'kind',
  'occurred_at',
  'client_address',
  'classification',
  'reason',
  'reclassified_by',
] as const;

// Cross-account by design: one scheduler settles the hits of every account.
/** Hits due to settle by `now`, the longest waiting first, at most `limit`. */
export function dueHitsOfAllAccounts(db: Db, now: number, limit: number) {
  return db
    .selectFrom('phishing_events')
    .select(HIT_COLUMNS)
    .where('settles_at', '<=', now)
    .orderBy('settles_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export type SettlingHit = Awaited<ReturnType<typeof dueHitsOfAllAccounts>>[number];

/** Those of the account's hits (by id) still waiting to settle, as they are now (read under the recipients' locks). */
export function hitsStillSettling(
  trx: Db,
  accountId: number,
  eventIds: readonly number[],
): Promise<SettlingHit[]> {
  if (eventIds.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('phishing_events')
    .select(HIT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', 'in', [...eventIds])
    .where('settles_at', 'is not', null)
    .execute();
}

/**
 * The account's hits from these client addresses between two times (both included), oldest
 * first, at most `limit` (read through the account's hits in time order).
 */
export async function touchesOfAddresses(
  db: Db,
  accountId: number,
  addresses: readonly string[],
  from: number,
  to: number,
  limit: number,
): Promise<{ address: string; recipientId: number; at: number }[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .selectFrom('phishing_events')
    .select(['client_address', 'recipient_id', 'occurred_at'])
    .where('account_id', '=', accountId)
    .where('occurred_at', '>=', from)
    .where('occurred_at', '<=', to)
    .where('client_address', 'is not', null)
    .where('client_address', 'in', [...addresses])
    .where('kind', 'in', TOUCHING)
    .orderBy('occurred_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    address: r.client_address as string,
    recipientId: Number(r.recipient_id),
    at: Number(r.occurred_at),
  }));
}

/** Those of the account's recipients that proved to be a person on the landing page (a human form post or button press). */
export async function recipientsProvenHuman(
  trx: Db,
  accountId: number,
  recipientIds: readonly number[],
): Promise<Set<number>> {
  if (recipientIds.length === 0) return new Set();
  const rows = await trx
    .selectFrom('phishing_events')
    .select('recipient_id')
    .distinct()
    .where('account_id', '=', accountId)
    .where('recipient_id', 'in', [...recipientIds])
    .where('kind', 'in', ['submitted', 'interaction'])
    .where('classification', '=', 'human')
    .execute();
  return new Set(rows.map((r) => Number(r.recipient_id)));
}

/** The account's hits found in a scanner's burst become automated (`address_burst`), the first classification kept. */
export async function markAddressBurst(
  trx: Db,
  accountId: number,
  eventIds: readonly number[],
): Promise<void> {
  if (eventIds.length === 0) return;
  await trx
    .updateTable('phishing_events')
    .set((eb) => ({
      original_classification: eb.fn.coalesce('original_classification', 'classification'),
      classification: 'automated' as const,
      reason: 'address_burst',
    }))
    .where('account_id', '=', accountId)
    .where('id', 'in', [...eventIds])
    .execute();
}

/** The account's hits (by id) are settled. */
export async function clearSettling(trx: Db, accountId: number, eventIds: readonly number[]): Promise<void> {
  if (eventIds.length === 0) return;
  await trx
    .updateTable('phishing_events')
    .set({ settles_at: null })
    .where('account_id', '=', accountId)
    .where('id', 'in', [...eventIds])
    .execute();
}

/** Every hit of the account's recipient still waiting is settled now (a person proved on the page). */
export async function clearAllSettling(trx: Db, accountId: number, recipientId: number): Promise<void> {
  await trx
    .updateTable('phishing_events')
    .set({ settles_at: null })
    .where('account_id', '=', accountId)
    .where('recipient_id', '=', recipientId)
    .where('settles_at', 'is not', null)
    .execute();
}

/** Those of the account's recipients with a hit still waiting to settle. */
export async function recipientsStillSettling(
  trx: Db,
  accountId: number,
  recipientIds: readonly number[],
): Promise<Set<number>> {
  if (recipientIds.length === 0) return new Set();
  const rows = await trx
    .selectFrom('phishing_events')
    .select('recipient_id')
    .distinct()
    .where('account_id', '=', accountId)
    .where('recipient_id', 'in', [...recipientIds])
    .where('settles_at', 'is not', null)
    .execute();
  return new Set(rows.map((r) => Number(r.recipient_id)));
}

/** Records that the account's recipient's first click was announced. */
export async function markClickAnnounced(trx: Db, accountId: number, recipientId: number, at: number) {
  await trx
    .updateTable('phishing_recipients')
    .set({ click_announced_at: at })
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .execute();
}

/** The account's employee's enrollment in a training campaign of the account, if any. */
export async function enrollmentIdOf(
  trx: Db,
  accountId: number,
  trainingCampaignId: number,
  employeeId: number,
): Promise<number | null> {
  const row = await trx
    .selectFrom('enrollments')
    .select('id')
    .where('account_id', '=', accountId)
    .where('campaign_id', '=', trainingCampaignId)
    .where('employee_id', '=', employeeId)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}
