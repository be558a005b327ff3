import type { Updateable } from 'kysely';
import { type Db, dialectOf } from '../../db/database.js';
import type { CampaignStatus, MessageKind, MessagesTable } from '../../db/schema.js';
import { messagesWithPeople } from './messages.repository.js';

/** SQL of the mail workers: claiming due messages, reading what to render, recording outcomes. */

/** A worker's hold on one message: its attempt number fences every later write. */
export interface Claim {
  id: number;
  attempts: number;
}

/**
 * Claims up to `limit` due messages in one statement: queued ones whose time has come, and
 * `sending` ones whose claim ran out (a worker that died mid-send). They become `sending`, held
 * until `leaseUntil`, one attempt more. On PostgreSQL the rows are picked `for update skip
 * locked`, so concurrent workers take disjoint sets without waiting for each other; SQLite runs
 * one writer at a time, so its single UPDATE is atomic by itself. The claim also moves
 * `next_attempt_at` to the lease's end, so the due-index alone finds expired claims.
 */
export async function claimDueMessages(
  db: Db,
  props: { now: number; limit: number; leaseUntil: number },
): Promise<Claim[]> {
  if (props.limit <= 0) return [];
  const rows = await db
    .updateTable('messages')
    .set((eb) => ({
      status: 'sending',
      attempts: eb('attempts', '+', 1),
      locked_until: props.leaseUntil,
      next_attempt_at: props.leaseUntil,
    }))
    .where('id', 'in', (eb) => {
      const due = eb
        .selectFrom('messages')
        .select('id')
        .where('status', 'in', ['queued', 'sending'])
        .where('next_attempt_at', '<=', props.now)
        .where((w) => w.or([w('status', '=', 'queued'), w('locked_until', '<', props.now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(props.limit);
      return dialectOf(db) === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .returning(['id', 'attempts'])
    .execute();
  // Fresh messages first: after a pause, a retried message should not always be the one to probe.
  return rows.sort((a, b) => a.attempts - b.attempts || a.id - b.id);
}

/** Everything a message is rendered from, read when it is sent (current names, dates, courses). */
export interface MessageContext {
  id: number;
  kind: MessageKind;
  account_id: number;
  account_name: string | null;
  enrollment_id: number | null;
  started_at: number | null;
  completed_at: number | null;
  first_name: string | null;
  email: string | null;
  campaign_id: number | null;
  campaign_name: string | null;
  campaign_status: CampaignStatus | null;
  due_at: number | null;
}

export async function messageContexts(db: Db, ids: number[]): Promise<Map<number, MessageContext>> {
  if (ids.length === 0) return new Map();
  const rows = await messagesWithPeople(db)
    .leftJoin('accounts as a', 'a.id', 'm.account_id')
    .select([
      'm.id',
      'm.kind',
      'm.account_id',
      'a.name as account_name',
      'e.id as enrollment_id',
      'e.started_at',
      'e.completed_at',
      'p.first_name',
      'p.email',
      'c.id as campaign_id',
      'c.name as campaign_name',
      'c.status as campaign_status',
      'c.due_at',
    ])
    .where('m.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Ends a claim with these values, only if it is still ours (still `sending` at our attempt):
 * a worker whose claim ran out must not overwrite what the worker that took over recorded.
 */
export async function finishClaim(db: Db, claim: Claim, values: Updateable<MessagesTable>): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ ...values, locked_until: null })
    .where('id', '=', claim.id)
    .where('status', '=', 'sending')
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Hands claimed messages that were never attempted back to the queue (a worker stopping). */
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
      .where('id', '=', claim.id)
      .where('status', '=', 'sending')
      .where('attempts', '=', claim.attempts)
      .execute();
  }
}
