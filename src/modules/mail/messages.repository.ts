import { type RawBuilder, sql } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Db } from '../../db/database.js';
import type { MessageStatus } from '../../db/schema.js';

/** SQL of the outbox (the admin API): an account's messages with their employee and campaign. */

export interface MessageFilter {
  status?: MessageStatus;
  campaignId?: number;
}

function listed(db: Db, accountId: number, filter: MessageFilter) {
  let query = db.selectFrom('messages as m').where('m.account_id', '=', accountId);
  if (filter.status !== undefined) query = query.where('m.status', '=', filter.status);
  if (filter.campaignId !== undefined) query = query.where('m.campaign_id', '=', filter.campaignId);
  return query;
}

/** Messages with (left-joined) their enrollment `e`, employee `p` and campaign `c`, each of the message's account. */
export function messagesWithPeople(db: Db) {
  return db
    .selectFrom('messages as m')
    .leftJoin('enrollments as e', (j) =>
      j.onRef('e.id', '=', 'm.enrollment_id').onRef('e.account_id', '=', 'm.account_id'),
    )
    .leftJoin('employees as p', (j) =>
      j.onRef('p.id', '=', 'e.employee_id').onRef('p.account_id', '=', 'm.account_id'),
    )
    .leftJoin('training_campaigns as c', (j) =>
      j.onRef('c.id', '=', 'm.campaign_id').onRef('c.account_id', '=', 'm.account_id'),
    );
}

function withPeople(db: Db, accountId: number, filter: MessageFilter) {
  let query = messagesWithPeople(db).where('m.account_id', '=', accountId);
  if (filter.status !== undefined) query = query.where('m.status', '=', filter.status);
  if (filter.campaignId !== undefined) query = query.where('m.campaign_id', '=', filter.campaignId);
  return query.select([
    'm.id',
    'm.kind',
    'm.status',
    'm.to_address',
    'm.subject',
    'm.attempts',
    'm.attempts_in_doubt',
    'm.last_error',
    'm.transport',
    'm.created_at',
    'm.sent_at',
    'm.next_attempt_at',
    'c.id as campaign_id',
    'c.name as campaign_name',
    'p.id as employee_id',
    'p.first_name',
    'p.last_name',
    'p.email',
  ]);
}

export type MessageRow = Awaited<ReturnType<typeof listMessages>>[number];
export type MessageDetailRow = MessageRow & { body_text: string | null; body_html: string | null };

export function countMessages(db: Db, accountId: number, filter: MessageFilter): Promise<number> {
  return countRows(listed(db, accountId, filter));
}

/** One page of an account's messages, newest first. */
export function listMessages(
  db: Db,
  accountId: number,
  filter: MessageFilter,
  limit: number,
  offset: number,
) {
  return withPeople(db, accountId, filter).orderBy('m.id', 'desc').limit(limit).offset(offset).execute();
}

export function findMessage(
  db: Db,
  accountId: number,
  messageId: number,
): Promise<MessageDetailRow | undefined> {
  return withPeople(db, accountId, {})
    .select(['m.body_text', 'm.body_html'])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
}

/** How many of an account's messages are in each status. */
export async function countByStatus(db: Db, accountId: number): Promise<Map<MessageStatus, number>> {
  const rows = await db
    .selectFrom('messages')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .where('account_id', '=', accountId)
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * The mail queue's depth over every account (operator-wide, for monitoring): messages waiting
 * or being sent, and messages that gave up. Each is counted from a partial index alone (the due
 * index of migration 0003, the failed index of 0004), never from the table, whose sent mail
 * grows with history; the conditions are written out as in those indexes, so the planner can
 * use them.
 */
export async function countQueueAllAccounts(db: Db): Promise<{ pending: number; failed: number }> {
  const count = (condition: RawBuilder<boolean>) =>
    db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(condition)
      .executeTakeFirstOrThrow();
  const [pending, failed] = await Promise.all([
    count(sql<boolean>`status in ('queued', 'sending')`),
    count(sql<boolean>`status = 'failed'`),
  ]);
  return { pending: Number(pending.n), failed: Number(failed.n) };
}

/** Queues a failed message again, as new (attempts from zero); false when it is not failed. */
export async function requeueFailed(
  db: Db,
  accountId: number,
  messageId: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ status: 'queued', attempts: 0, next_attempt_at: now, locked_until: null })
    .where('account_id', '=', accountId)
    .where('id', '=', messageId)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
