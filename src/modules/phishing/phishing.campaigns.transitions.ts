import type { Db } from '../../db/database.js';
import type { PhishingCampaignStatus } from '../../db/schema.js';
import { AppError, FieldErrorCollector } from '../../errors.js';
import { campaignStatusChanged } from './phishing.campaign-changes.js';
import {
  cancelQueuedSimulations,
  endedRunningPhishingCampaignsOfAllAccounts,
  lockPhishingCampaign,
  updatePhishingCampaignRow,
} from './phishing.campaigns.repository.js';
import { checkReadyToSend, type PhishingCampaignAction } from './phishing.campaigns.rules.js';
import {
  getPhishingCampaign,
  type PhishingCampaignView,
  phishingCampaignNotFound,
  phishingCampaignView,
  phishingWrongStatus,
} from './phishing.campaigns.service.js';
import { emitPhishingCampaignEvent } from './phishing.webhooks.js';

/** A phishing campaign's moves between statuses (launching is phishing.launch.ts). */

async function transition(
  db: Db,
  accountId: number,
  campaignId: number,
  action: PhishingCampaignAction,
  from: PhishingCampaignStatus[],
  to: PhishingCampaignStatus,
  opts: {
    check?: (campaign: PhishingCampaignView, errors: FieldErrorCollector, now: number) => void;
    reason?: 'stopped' | 'window_ended';
    now?: number;
  } = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockPhishingCampaign(trx, accountId, campaignId);
    if (!row) throw phishingCampaignNotFound();
    if (!from.includes(row.status)) throw phishingWrongStatus(action, row.status);
    const now = opts.now ?? Date.now();
    if (opts.check) {
      const errors = new FieldErrorCollector();
      opts.check(await phishingCampaignView(trx, accountId, row), errors, now);
      errors.throwIfAny();
    }
    const stamp =
      to === 'completed'
        ? { completed_at: now, completed_reason: opts.reason ?? 'stopped' }
        : to === 'archived'
          ? { archived_at: now }
          : {};
    const updated = await updatePhishingCampaignRow(
      trx,
      accountId,
      campaignId,
      { status: to, ...stamp, updated_at: now },
      from,
    );
    if (!updated) throw phishingWrongStatus(action, row.status);
    if (to === 'completed') {
      await cancelQueuedSimulations(
        trx,
        accountId,
        campaignId,
        opts.reason === 'window_ended'
          ? 'not sent: the campaign ended'
          : 'not sent: the campaign was stopped',
      );
      await emitPhishingCampaignEvent(trx, accountId, campaignId, 'phishing.campaign_completed');
    }
  });
  campaignStatusChanged(campaignId);
}

/** draft → scheduled: the scheduler launches it when its window opens. */
export async function schedulePhishingCampaign(db: Db, accountId: number, campaignId: number) {
  await transition(db, accountId, campaignId, 'schedule', ['draft'], 'scheduled', {
    check: (c, errors, now) => checkReadyToSend(errors, c, now),
  });
  return getPhishingCampaign(db, accountId, campaignId);
}

/** scheduled → draft. */
export async function unschedulePhishingCampaign(db: Db, accountId: number, campaignId: number) {
  await transition(db, accountId, campaignId, 'unschedule', ['scheduled'], 'draft');
  return getPhishingCampaign(db, accountId, campaignId);
}

/** running → completed (`stopped`): the simulations not yet sent are cancelled; links show the teachable page. */
export async function stopPhishingCampaign(db: Db, accountId: number, campaignId: number) {
  await transition(db, accountId, campaignId, 'stop', ['running'], 'completed', { reason: 'stopped' });
  return getPhishingCampaign(db, accountId, campaignId);
}

/** completed (or an unused draft) → archived. */
export async function archivePhishingCampaign(db: Db, accountId: number, campaignId: number) {
  await transition(db, accountId, campaignId, 'archive', ['draft', 'completed'], 'archived');
  return getPhishingCampaign(db, accountId, campaignId);
}

/** Completes the running campaigns whose window and grace period have ended. Returns how many. */
export async function completeEndedPhishingCampaignsOfAllAccounts(db: Db, now: number): Promise<number> {
  // Cross-account by design: the scheduler completes every account's ended campaigns, each in its account.
  let completed = 0;
  for (const c of await endedRunningPhishingCampaignsOfAllAccounts(db, now, 100)) {
    try {
      await transition(db, c.account_id, c.id, 'stop', ['running'], 'completed', {
        reason: 'window_ended',
        now,
      });
      completed++;
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'campaign_status_conflict')) throw err;
    }
  }
  return completed;
}
