import type { Db } from '../../core/db/database.js';
import { type CampaignMessages, insertCampaignMessages } from './mail.messages.repository.js';

/**
 * The order in which workers claim due mail: messages someone is waiting for (a new link a
 * learner asked for, an invitation resent at someone's request) before bulk campaign mail
 * (launch invitations, reminders), so they never wait behind a launch's thousands.
 */
export const MAIL_PRIORITY = { waiting: 0, bulk: 1 } as const;

export interface QueueCampaignMessagesProps extends Omit<CampaignMessages, 'round' | 'priority'> {
  accountId: number;
  /** 0 (the default) for invitations; the days before due for a reminder round; a counter for new links. */
  round?: number;
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
  const { accountId, waiting, ...which } = props;
  return insertCampaignMessages(trx, accountId, {
    ...which,
    round: props.round ?? 0,
    priority: waiting ? MAIL_PRIORITY.waiting : MAIL_PRIORITY.bulk,
  });
}
