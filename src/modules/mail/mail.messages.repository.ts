import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { countRows } from '../../core/db/count.js';
import { type Db, dialectOf } from '../../core/db/database.js';
import { type GroupScope, messageInScope } from '../../core/db/group-scope.js';
import {
  type DB,
  inactiveEmployees,
  type MessageKind,
  type MessageStatus,
  type MessagesTable,
} from '../../core/db/schema.js';
import { idRows } from '../../core/db/value-table.js';

/**
 * SQL of an account's messages: queueing them (mail.queue.commands.ts) and the outbox (the admin API),
 * each with its employee and campaign. The workers' SQL, over every account, is mail.repository.ts.
 */

/** Which enrollments of a campaign get a message, and what it is. */
export interface CampaignMessages {
  campaignId: number;
  kind: MessageKind;
  round: number;
  /** MAIL_PRIORITY (mail.queue.commands.ts). */
  priority: number;
  now: number;
  /** Only these enrollments (of the campaign); all of them when absent. */
  enrollmentIds?: number[];
  /** Only the enrollments of employees whose id is in (after, upTo] (a launch, slice by slice). */
  employees?: { after: number; upTo: number };
  /** Leave out people who have completed the campaign (reminders). */
  incompleteOnly?: boolean;
  /**
   * Leave out enrollments with a due date of their own (remedial training): the campaign's
   * reminder rounds are for those due when the campaign is; the others have their own rounds.
   */
  campaignDueOnly?: boolean;
}

/**
 * Adds one queued message per chosen enrollment of the account's campaign, in one statement;
 * one already there for the enrollment, kind and round is left alone. Returns how many were added.
 */
export async function insertCampaignMessages(
  trx: Db,
  accountId: number,
  messages: CampaignMessages,
): Promise<number> {
  let source = trx
    .selectFrom('enrollments as e')
    .select([
      'e.account_id',
      'e.campaign_id',
      'e.id',
      sql.lit(messages.kind).as('kind'),
      sql.lit(messages.round).as('round'),
      sql.lit('queued').as('status'),
      sql.lit(0).as('attempts'),
      sql.lit(messages.priority).as('priority'),
      sql.lit(messages.now).as('next_attempt_at'),
      sql.lit(messages.now).as('created_at'),
    ])
    .where('e.account_id', '=', accountId)
    .where('e.campaign_id', '=', messages.campaignId)
    // A deleted employee's enrollment is a record only: nobody to write to.
    .where('e.employee_deleted_at', 'is', null)
    // Nor to a deactivated one (SCIM `active: false`): no invitation, no reminder.
    .where(sql<boolean>`e.employee_id not in (${inactiveEmployees(accountId)})`);
  if (messages.enrollmentIds) {
    source = source.where(sql<boolean>`e.id in (select id from ${idRows(trx, messages.enrollmentIds)})`);
  }
  if (messages.employees) {
    source = source
      .where('e.employee_id', '>', messages.employees.after)
      .where('e.employee_id', '<=', messages.employees.upTo);
  }
  if (messages.incompleteOnly) source = source.where('e.completed_at', 'is', null);
  if (messages.campaignDueOnly) source = source.where('e.due_at', 'is', null);
  const result = await trx
    .insertInto('messages')
    .columns([
      'account_id',
      'campaign_id',
      'enrollment_id',
      'kind',
      'round',
      'status',
      'attempts',
      'priority',
      'next_attempt_at',
      'created_at',
    ])
    .expression(source.orderBy('e.id'))
    .onConflict((oc) => oc.columns(['enrollment_id', 'kind', 'round']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export interface MessageFilter {
  status?: MessageStatus;
  campaignId?: number;
  /**
   * Only messages to people who belong to one of these groups (a role limited to groups,
   * docs/roles.md): the person is the enrollment's, the recipient's, the reporter's or the
   * test send's employee.
   */
  groups?: GroupScope;
}

/** The account's messages `m`, filtered. */
function listed(db: Db, accountId: number, filter: MessageFilter) {
  let query = db.selectFrom('messages as m').where('m.account_id', '=', accountId);
  if (filter.status !== undefined) query = query.where('m.status', '=', filter.status);
  if (filter.campaignId !== undefined) query = query.where('m.campaign_id', '=', filter.campaignId);
  if (filter.groups) query = query.where(messageInScope(filter.groups, accountId, 'm', dialectOf(db)));
  return query;
}

type MessagesQuery = SelectQueryBuilder<DB & { m: MessagesTable }, 'm', object>;

/** These messages `m` with (left-joined) their enrollment `e`, employee `p` and campaign `c`, each of the message's account. */
export function withPeople(messages: MessagesQuery) {
  return messages
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

/**
 * The account's messages as the outbox lists them. A simulation has no enrollment or training
 * campaign: its person is its phishing recipient's employee (`sp`), its campaign the phishing
 * campaign, whose name its composer gives (describeMessages; the web interface links it by the
 * message's kind).
 */
function outboxRows(db: Db, accountId: number, filter: MessageFilter) {
  return withPeople(listed(db, accountId, filter))
    .leftJoin('phishing_recipients as sr', (j) =>
      j.onRef('sr.id', '=', 'm.phishing_recipient_id').onRef('sr.account_id', '=', 'm.account_id'),
    )
    .leftJoin('employees as sp', (j) =>
      j.onRef('sp.id', '=', 'sr.employee_id').onRef('sp.account_id', '=', 'm.account_id'),
    )
    .select((eb) => [
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
      eb.fn<number | null>('coalesce', ['c.id', 'sr.campaign_id']).as('campaign_id'),
      'c.name as campaign_name',
      eb.fn<number | null>('coalesce', ['p.id', 'sp.id']).as('employee_id'),
      eb.fn<string | null>('coalesce', ['p.first_name', 'sp.first_name']).as('first_name'),
      eb.fn<string | null>('coalesce', ['p.last_name', 'sp.last_name']).as('last_name'),
      eb.fn<string | null>('coalesce', ['p.email', 'sp.email']).as('email'),
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
  return outboxRows(db, accountId, filter).orderBy('m.id', 'desc').limit(limit).offset(offset).execute();
}

export function findMessage(
  db: Db,
  accountId: number,
  messageId: number,
): Promise<MessageDetailRow | undefined> {
  return outboxRows(db, accountId, {})
    .select(['m.body_text', 'm.body_html'])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
}

/** How many of an account's messages (of a role's groups, when limited) are in each status. */
export async function countByStatus(
  db: Db,
  accountId: number,
  groups: GroupScope = null,
): Promise<Map<MessageStatus, number>> {
  const rows = await db
    .selectFrom('messages as m')
    .select((eb) => ['m.status', eb.fn.countAll<number | string>().as('n')])
    .where('m.account_id', '=', accountId)
    .$if(groups !== null, (q) => q.where(messageInScope(groups ?? [], accountId, 'm', dialectOf(db))))
    .groupBy('m.status')
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
export async function countQueueOfAllAccounts(db: Db): Promise<{ pending: number; failed: number }> {
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
