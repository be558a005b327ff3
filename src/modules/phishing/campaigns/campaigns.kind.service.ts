import type { Db } from '../../../core/db/database.js';
import {
  type CampaignKind,
  completeEndedCampaigns,
  launchDueCampaigns,
  type SchedulingLog,
} from '../../campaigns/index.js';
import { senderPolicyOf } from '../settings/settings.sender.service.js';
import { catchUpSimulationOutcomesOfAllAccounts } from '../simulation/simulation.delivery.commands.js';
import { launchPhishingCampaign, returnUnlaunchableToDraft } from './campaigns.launch.commands.js';
import { PHISHING_LIFECYCLE } from './campaigns.model.js';
import {
  dueScheduledPhishingCampaignsOfAllAccounts,
  endedRunningPhishingCampaignsOfAllAccounts,
} from './campaigns.repository.js';
import { completeEndedPhishingCampaign } from './campaigns.transitions.commands.js';

/**
 * Phishing campaigns as a kind of campaign: launched when their send window opens (one that can
 * no longer launch goes back to draft), completed when the window and the grace period have
 * ended, after which the outcomes of simulations still unrecorded are caught up.
 */
export const phishingCampaignKind: CampaignKind = {
  name: 'phishing',
  lifecycle: PHISHING_LIFECYCLE,
  due: {
    find: dueScheduledPhishingCampaignsOfAllAccounts,
    // The sender domain is checked again: the operator's policy (PHISHING_ALLOW_LOCAL_SENDER,
    // PHISH_URL) may have changed since the campaign was scheduled. A refused one goes back to
    // draft, logged, as any campaign that can no longer launch.
    launch: (db, campaign, now, instance) =>
      launchPhishingCampaign(db, {
        accountId: campaign.account_id,
        campaignId: campaign.id,
        trigger: 'scheduled',
        now,
        ...(instance && {
          sender: senderPolicyOf(
            instance.config.phishing.allowLocalSender,
            instance.config.phishUrl ?? instance.baseUrl,
          ),
        }),
      }),
    refused: returnUnlaunchableToDraft,
    failure: 'scheduler: could not launch scheduled phishing campaigns',
  },
  ended: {
    find: endedRunningPhishingCampaignsOfAllAccounts,
    complete: (db, campaign, now) => completeEndedPhishingCampaign(db, campaign.account_id, campaign.id, now),
    afterwards: catchUpSimulationOutcomesOfAllAccounts,
    failure: 'scheduler: could not complete phishing campaigns',
  },
};

/** Launches the scheduled campaigns whose window has opened (the scheduler does, for every kind). Returns how many. */
export function launchDuePhishingCampaignsOfAllAccounts(
  db: Db,
  now: number,
  log?: SchedulingLog,
): Promise<number> {
  return launchDueCampaigns(db, phishingCampaignKind, now, log);
}

/** Completes the running campaigns whose window and grace period have ended. Returns how many. */
export function completeEndedPhishingCampaignsOfAllAccounts(db: Db, now: number): Promise<number> {
  return completeEndedCampaigns(db, phishingCampaignKind, now);
}
