import type { Db } from '../../../core/db/database.js';
import type { CampaignStatus } from '../../../core/db/schema.js';
import type { FieldErrorCollector } from '../../../core/errors.js';
import {
  type CampaignMove,
  type CampaignRows,
  deleteCampaignOfKind,
  moveCampaign,
} from '../../campaigns/index.js';
import { emitTrainingEvents } from './campaigns.events.commands.js';
import { checkReadyToRun, TRAINING_LIFECYCLE } from './campaigns.model.js';
import {
  type CampaignRow,
  deleteCampaignRow,
  lockCampaign,
  updateCampaignRow,
} from './campaigns.repository.js';
import { type CampaignView, campaignNotFound, campaignView, getCampaign } from './campaigns.service.js';

/** A campaign's moves between statuses (launching is campaigns.launch.commands.ts), and deleting a draft. */

/** Training campaign rows as the shared lifecycle moves them. */
const TRAINING_ROWS: CampaignRows<CampaignStatus, CampaignRow> = {
  lifecycle: TRAINING_LIFECYCLE,
  lock: lockCampaign,
  update: updateCampaignRow,
  remove: deleteCampaignRow,
  notFound: campaignNotFound,
  auditType: 'campaign',
};

/** Moves a campaign (the lifecycle says from where to where), after `check` has passed on its view. */
async function transition(
  db: Db,
  accountId: number,
  campaignId: number,
  action: CampaignMove,
  check?: (campaign: CampaignView, errors: FieldErrorCollector, now: number) => void,
): Promise<CampaignView> {
  await moveCampaign(db, TRAINING_ROWS, {
    accountId,
    campaignId,
    move: action,
    check:
      check && (async (trx, row, errors, now) => check(await campaignView(trx, accountId, row), errors, now)),
    moved: async (trx, to) => {
      if (to === 'completed')
        await emitTrainingEvents(trx, accountId, campaignId, { campaign: 'training.campaign_completed' });
    },
  });
  return getCampaign(db, accountId, campaignId);
}

/** draft → scheduled: launches by itself at its start date. */
export function scheduleCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'schedule', (c, errors, now) =>
    checkReadyToRun(errors, c, 'schedule', now),
  );
}

/** scheduled → draft. */
export function unscheduleCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'unschedule');
}

/** active → completed: nobody new is enrolled, no more mail goes out, learner links show that it ended. */
export function stopCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'stop');
}

/** completed (or an unused draft) → archived. */
export function archiveCampaign(db: Db, accountId: number, campaignId: number) {
  return transition(db, accountId, campaignId, 'archive');
}

/** Deletes a draft (nobody was ever enrolled in one). */
export function deleteCampaign(db: Db, accountId: number, campaignId: number): Promise<void> {
  return deleteCampaignOfKind(db, TRAINING_ROWS, accountId, campaignId);
}
