import type { Db } from '../../db/database.js';
import type { CampaignStatus } from '../../db/schema.js';
import { FieldErrorCollector } from '../../errors.js';
import { deleteCampaignRow, lockCampaign, updateCampaignRow } from './campaigns.repository.js';
import { type CampaignAction, checkReadyToRun } from './campaigns.rules.js';
import {
  type CampaignView,
  campaignNotFound,
  campaignView,
  getCampaign,
  wrongStatus,
} from './campaigns.service.js';
import { emitTrainingEvents } from './campaigns.webhooks.js';

/** A campaign's moves between statuses (launching is campaigns.launch.ts), and deleting a draft. */

/**
 * Moves a campaign from one of `from` to `to` with a guarded update (two administrators acting at
 * once: one wins, the other gets the 409), after `check` has passed on the locked campaign.
 */
async function transition(
  db: Db,
  accountId: number,
  campaignId: number,
  action: CampaignAction,
  from: CampaignStatus[],
  to: CampaignStatus,
  check?: (campaign: CampaignView, errors: FieldErrorCollector, now: number) => void,
): Promise<CampaignView> {
  await db.transaction().execute(async (trx) => {
    const row = await lockCampaign(trx, accountId, campaignId);
    if (!row) throw campaignNotFound();
    if (!from.includes(row.status)) throw wrongStatus(action, row.status);
    const now = Date.now();
    if (check) {
      const errors = new FieldErrorCollector();
      check(await campaignView(trx, accountId, row), errors, now);
      errors.throwIfAny();
    }
    const stamp = to === 'completed' ? { completed_at: now } : to === 'archived' ? { archived_at: now } : {};
    const updated = await updateCampaignRow(
      trx,
      accountId,
      campaignId,
      { status: to, ...stamp, updated_at: now },
      from,
    );
    if (!updated) throw wrongStatus(action, row.status);
    if (to === 'completed')
      await emitTrainingEvents(trx, accountId, campaignId, { campaign: 'training.campaign_completed' });
  });
  return getCampaign(db, accountId, campaignId);
}

/** draft → scheduled: launches by itself at its start date. */
export function scheduleCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'schedule', ['draft'], 'scheduled', (c, errors, now) =>
    checkReadyToRun(errors, c, 'schedule', now),
  );
}

/** scheduled → draft. */
export function unscheduleCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'unschedule', ['scheduled'], 'draft');
}

/** active → completed: nobody new is enrolled, no more mail goes out, learner links show that it ended. */
export function stopCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'stop', ['active'], 'completed');
}

/** completed (or an unused draft) → archived. */
export function archiveCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'archive', ['draft', 'completed'], 'archived');
}

/** Deletes a draft (nobody was ever enrolled in one). */
export async function deleteCampaign(db: Db, accountId: number, campaignId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockCampaign(trx, accountId, campaignId);
    if (!row) throw campaignNotFound();
    if (row.status !== 'draft') throw wrongStatus('delete', row.status);
    await deleteCampaignRow(trx, accountId, campaignId);
  });
}
