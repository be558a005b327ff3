import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { MessageKind } from '../../db/schema.js';
import { idRows } from '../../db/value-table.js';

/**
 * The order in which workers claim due mail: messages someone is waiting for (a new link a
 * learner asked for, an invitation resent at someone's request) before bulk campaign mail
 * (launch invitations, reminders), so they never wait behind a launch's thousands.
 */
export const MAIL_PRIORITY = { waiting: 0, bulk: 1 } as const;

export interface QueueCampaignMessagesProps {
  accountId: number;
  campaignId: number;
  kind: MessageKind;
  /** 0 for invitations; the days before due for a reminder round; a counter for new links. */
  round?: number;
  now: number;
  /** Only these enrollments (of the campaign); all of them when absent. */
  enrollmentIds?: number[];
  /** Only the enrollments of employees whose id is in (after, upTo] (a launch, slice by slice). */
  employees?: { after: number; upTo: number };
  /** Leave out people who have completed the campaign (reminders). */
  incompleteOnly?: boolean;
  /** Someone is waiting for this message: sent before bulk mail (MAIL_PRIORITY). */
  waiting?: boolean;
}

/**
 * Queues one message per enrollment of a campaign, in one statement, inside the caller's
 * transaction (so a launch and its invitations commit together). A message already queued for
 * the same enrollment, kind and round is left alone: enqueueing is idempotent. Returns how many
 * messages were added.
 */
export async function queueCampaignMessages(trx: Db, props: QueueCampaignMessagesProps): Promise<number> {
  if (props.enrollmentIds?.length === 0) return 0;
  let source = trx
    .selectFrom('enrollments as e')
    .select([
      'e.account_id',
      'e.campaign_id',
      'e.id',
      sql.lit(props.kind).as('kind'),
      sql.lit(props.round ?? 0).as('round'),
      sql.lit('queued').as('status'),
      sql.lit(0).as('attempts'),
      sql.lit(props.waiting ? MAIL_PRIORITY.waiting : MAIL_PRIORITY.bulk).as('priority'),
      sql.lit(props.now).as('next_attempt_at'),
      sql.lit(props.now).as('created_at'),
    ])
    .where('e.account_id', '=', props.accountId)
    .where('e.campaign_id', '=', props.campaignId)
    // A deleted employee's enrollment is a record only: nobody to write to.
    .where('e.employee_deleted_at', 'is', null);
  if (props.enrollmentIds) {
    source = source.where(sql<boolean>`e.id in (select id from ${idRows(trx, props.enrollmentIds)})`);
  }
  if (props.employees) {
    source = source
      .where('e.employee_id', '>', props.employees.after)
      .where('e.employee_id', '<=', props.employees.upTo);
  }
  if (props.incompleteOnly) source = source.where('e.completed_at', 'is', null);
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
