import { type ExpressionBuilder, sql, type Updateable } from 'kysely';
import { type Db, dialectOf } from '../../core/db/database.js';
import type { DB, MessageKind, MessagesTable } from '../../core/db/schema.js';
import type { OutboxStore } from '../../core/outbox/outbox.js';
import { MAIL_PRIORITY } from './mail.queue.commands.js';
import type { TransportKind } from './mail.transport.service.js';

/**
 * SQL of the mail workers: claiming due messages and recording outcomes (what a message says is
 * read by its kind's composer: mail.composers.service.ts).
 * Cross-account by design: one queue serves every account; a claim carries its message's
 * account, and every write on it is scoped by that account too.
 */

/** A worker's hold on one message: its attempt number fences every later write. */
export interface Claim {
  id: number;
  accountId: number;
  attempts: number;
  kind: MessageKind;
  /**
   * An attempt whose outcome was never learned, not yet counted in `attempts_in_doubt`: an
   * earlier one handed this message to an SMTP server and its worker stopped (or its claim ran
   * out) before recording the answer, so it may have been delivered. Counted by the next write.
   */
  inDoubt: boolean;
}

/**
 * Claims up to `limit` due messages: first those someone is waiting for (MAIL_PRIORITY.waiting,
 * through their own small index), then the rest in the order they became due, so a requested
 * link never waits behind a launch's thousands of invitations. Due means queued and whose time
 * has come, or `sending` and whose claim ran out (a worker that died mid-send). They become
 * `sending`, held until `leaseUntil`, one attempt more. On PostgreSQL the rows are picked `for
 * update skip locked`, so concurrent workers take disjoint sets without waiting for each other;
 * SQLite runs one writer at a time, so each UPDATE is atomic by itself. The claim also moves
 * `next_attempt_at` to the lease's end, so the due-indexes alone find expired claims. A claim
 * whose earlier attempt handed the message to an SMTP server (`handed_over_at` still set, see
 * recordHandOff) comes back in doubt; one that ran out before the hand-off is plainly due again.
 */
export async function claimDueMessagesOfAllAccounts(
  db: Db,
  props: { now: number; limit: number; leaseUntil: number },
): Promise<Claim[]> {
  if (props.limit <= 0) return [];
  const waiting = await claimDue(db, props, true);
  const rest = props.limit - waiting.length;
  return rest > 0 ? [...waiting, ...(await claimDue(db, { ...props, limit: rest }, false))] : waiting;
}

/** One claiming statement: the due messages someone waits for, or any due messages. */
async function claimDue(
  db: Db,
  props: { now: number; limit: number; leaseUntil: number },
  waitingOnly: boolean,
): Promise<Claim[]> {
  const rows = await db
    .updateTable('messages')
    .set((eb) => ({
      status: 'sending',
      attempts: eb('attempts', '+', 1),
      locked_until: props.leaseUntil,
      next_attempt_at: props.leaseUntil,
    }))
    .where('id', 'in', (eb) => {
      // The partial indexes' own conditions, as literals: SQLite matches a partial index only so
      // (with `status in (?, ?)` it scanned the whole table, sent history included, and sorted).
      let due = eb
        .selectFrom('messages')
        .select('id')
        .where(sql<boolean>`status in ('queued', 'sending')`)
        .where('next_attempt_at', '<=', props.now)
        .where((w) => w.or([w('status', '=', 'queued'), w('locked_until', '<', props.now)]));
      if (waitingOnly) due = due.where(sql<boolean>`priority = ${sql.lit(MAIL_PRIORITY.waiting)}`);
      due = due.orderBy('next_attempt_at').orderBy('id').limit(props.limit);
      return dialectOf(db) === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .returning(['id', 'account_id', 'attempts', 'kind', 'handed_over_at', 'transport'])
    .execute();
  // Fresh messages first: after a pause, a retried message should not always be the one to probe.
  return rows
    .map((r) => ({
      id: r.id,
      accountId: r.account_id,
      attempts: r.attempts,
      kind: r.kind,
      inDoubt: r.handed_over_at !== null && r.transport === 'smtp',
    }))
    .sort((a, b) => a.attempts - b.attempts || a.id - b.id);
}

/** The claimed message, as long as the claim is ours: still `sending`, at our attempt. */
function stillClaimed(claim: Claim) {
  return (eb: ExpressionBuilder<DB, 'messages'>) =>
    eb.and([
      eb('account_id', '=', claim.accountId),
      eb('id', '=', claim.id),
      eb('status', '=', 'sending'),
      eb('attempts', '=', claim.attempts),
    ]);
}

/** The message's count of attempts in doubt, with the one the claim carries (if any). */
function countDoubt(claim: Claim) {
  return sql<number>`attempts_in_doubt + ${claim.inDoubt ? 1 : 0}`;
}

/** What an attempt sends, recorded when it is handed over. */
export interface HandOffRecord {
  transport: TransportKind;
  to_address: string;
  subject: string;
  body_text: string;
  body_html: string;
  message_id: string;
}

/**
 * Records what this attempt sends, and when it was handed over (see HandOff in
 * mail.transport.service.ts: over SMTP, just before the final "." of DATA). Everything known before the
 * delivery is written here, so the update after the server's answer (recordSent) is a small
 * status flip; and a worker that takes the claim over later knows, from `handed_over_at`, that
 * this attempt may have been delivered. Counts an earlier attempt in doubt. Only while the claim
 * is ours and has not run out (`now` before its lease's end): a worker never hands over a message
 * another may take. Returns false when it is not (then nothing may be delivered).
 */
export async function recordHandOff(
  db: Db,
  claim: Claim,
  now: number,
  values: HandOffRecord,
): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ ...values, handed_over_at: now, attempts_in_doubt: countDoubt(claim) })
    .where(stillClaimed(claim))
    .where('locked_until', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records that the transport accepted the message handed over (recordHandOff came first). This
 * statement is the end of the window in which a crash duplicates a delivered message, so it only
 * flips the status. On PostgreSQL it commits without waiting for the WAL flush
 * (`synchronous_commit` off for this statement alone), which takes the window from a disk flush
 * (milliseconds) to a round trip: a crash of the worker after it cannot lose the record; a crash
 * of PostgreSQL itself in the next ~0.6 s could, and the message, still `sending` with its
 * hand-off recorded, would then be sent again as in doubt, never lost.
 */
export async function recordSent(db: Db, claim: Claim, sentAt: number): Promise<boolean> {
  const flip = {
    status: 'sent' as const,
    sent_at: sentAt,
    handed_over_at: null,
    locked_until: null,
    last_error: null,
  };
  const query =
    dialectOf(db) === 'postgres'
      ? db
          .with('async_commit', (w) =>
            w.selectNoFrom(sql<string>`set_config('synchronous_commit', 'off', true)`.as('mode')),
          )
          .updateTable('messages')
          .set(flip)
          // The reference makes PostgreSQL evaluate the set_config (a volatile CTE, never inlined).
          .where((eb) => eb.exists(eb.selectFrom('async_commit').select('mode')))
      : db.updateTable('messages').set(flip);
  const result = await query.where(stillClaimed(claim)).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Ends a claim with these values (a failure, a retry later, a cancellation), only if it is still
 * ours (still `sending` at our attempt): a worker whose claim ran out must not overwrite what the
 * worker that took over recorded. The hand-off mark goes; an attempt in doubt the claim carries
 * is counted.
 */
export async function finishClaim(db: Db, claim: Claim, values: Updateable<MessagesTable>): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ ...values, locked_until: null, handed_over_at: null, attempts_in_doubt: countDoubt(claim) })
    .where(stillClaimed(claim))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Hands claimed messages that were never attempted back to the queue (a worker stopping). The
 * hand-off mark of an earlier attempt stays: that attempt is still in doubt, counted later.
 */
export async function releaseClaims(db: Db, claims: Claim[], now: number): Promise<void> {
  for (const claim of claims) {
    await db
      .updateTable('messages')
      .set((eb) => ({
        status: 'queued',
        attempts: eb('attempts', '-', 1),
        locked_until: null,
        next_attempt_at: now,
      }))
      .where(stillClaimed(claim))
      .execute();
  }
}

/** The mail queue's table as the outbox works it (core/outbox/outbox.ts). */
export const mailOutboxStore: OutboxStore<Claim, Updateable<MessagesTable>> = {
  claimDue: claimDueMessagesOfAllAccounts,
  finish: finishClaim,
  release: releaseClaims,
};
