import type { Db } from '../../../core/db/database.js';
import type { FieldErrorCollector } from '../../../core/errors.js';
import { type CampaignMove, moveCampaign } from '../../campaigns/index.js';
import type { SenderPolicy } from '../settings/settings.sender.model.js';
import { checkEffectiveSenderDomain } from '../settings/settings.sender.service.js';
import { campaignStatusChanged } from '../simulation/simulation.campaign-changes.service.js';
import { emitPhishingCampaignEvent } from '../simulation/simulation.domain-events.commands.js';
import { checkReadyToSend } from './campaigns.model.js';
import { cancelQueuedSimulations } from './campaigns.repository.js';
import {
  getPhishingCampaign,
  type PhishingCampaignView,
  phishingCampaignRows,
  phishingCampaignView,
} from './campaigns.service.js';

/** A phishing campaign's moves between statuses (launching is campaigns.launch.commands.ts). */

async function transition(
  db: Db,
  accountId: number,
  campaignId: number,
  action: CampaignMove,
  opts: {
    check?: (
      campaign: PhishingCampaignView,
      errors: FieldErrorCollector,
      now: number,
      trx: Db,
    ) => Promise<void> | void;
    reason?: 'stopped' | 'window_ended';
    now?: number;
  } = {},
): Promise<void> {
  const check = opts.check;
  await moveCampaign(db, phishingCampaignRows(opts.reason ?? 'stopped'), {
    accountId,
    campaignId,
    move: action,
    now: opts.now,
    check:
      check &&
      (async (trx, row, errors, now) =>
        check(await phishingCampaignView(trx, accountId, row), errors, now, trx)),
    moved: async (trx, to) => {
      if (to !== 'completed') return;
      await cancelQueuedSimulations(
        trx,
        accountId,
        campaignId,
        opts.reason === 'window_ended'
          ? 'not sent: the campaign ended'
          : 'not sent: the campaign was stopped',
      );
      await emitPhishingCampaignEvent(trx, accountId, campaignId, 'phishing.campaign_completed');
    },
  });
  campaignStatusChanged(campaignId);
}

/**
 * draft → scheduled: the scheduler launches it when its window opens. With the server's sender
 * policy (the admin API, the CLI), the domain it would send from is checked now too.
 */
export async function schedulePhishingCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
  sender?: SenderPolicy,
) {
  await transition(db, accountId, campaignId, 'schedule', {
    check: async (c, errors, now, trx) => {
      checkReadyToSend(errors, c, now);
      if (sender) await checkEffectiveSenderDomain(trx, accountId, c.sender_domain, sender, errors);
    },
  });
  return getPhishingCampaign(db, accountId, campaignId);
}

/** scheduled → draft. */
export async function unschedulePhishingCampaign(db: Db, accountId: number, campaignId: number) {
  await transition(db, accountId, campaignId, 'unschedule');
  return getPhishingCampaign(db, accountId, campaignId);
}

/** running → completed (`stopped`): the simulations not yet sent are cancelled; links show the teachable page. */
export async function stopPhishingCampaign(db: Db, accountId: number, campaignId: number) {
  await transition(db, accountId, campaignId, 'stop', { reason: 'stopped' });
  return getPhishingCampaign(db, accountId, campaignId);
}

/** completed (or an unused draft) → archived. */
export async function archivePhishingCampaign(db: Db, accountId: number, campaignId: number) {
  await transition(db, accountId, campaignId, 'archive');
  return getPhishingCampaign(db, accountId, campaignId);
}

/** running → completed (`window_ended`): its window and grace period have ended (the scheduler). */
export async function completeEndedPhishingCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
  now: number,
) {
  await transition(db, accountId, campaignId, 'stop', { reason: 'window_ended', now });
}
