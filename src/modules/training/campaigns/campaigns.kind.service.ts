import type { CampaignKind } from '../../campaigns/index.js';
import { queueDueRemindersOfAllAccounts } from '../enrollments/enrollments.reminders.commands.js';
import { launchCampaign } from './campaigns.launch.commands.js';
import { TRAINING_LIFECYCLE } from './campaigns.model.js';
import { dueScheduledCampaignsOfAllAccounts } from './campaigns.scheduler.repository.js';

/**
 * Training campaigns as a kind of campaign: launched at their start date, with reminder rounds
 * queued as they come due; they end when an administrator stops them (a due date does not).
 */
export const trainingCampaignKind: CampaignKind = {
  name: 'training',
  lifecycle: TRAINING_LIFECYCLE,
  due: {
    find: dueScheduledCampaignsOfAllAccounts,
    launch: (db, campaign, now) =>
      launchCampaign(db, {
        accountId: campaign.account_id,
        campaignId: campaign.id,
        trigger: 'scheduled',
        now,
      }),
    failure: 'scheduler: could not launch scheduled campaigns',
  },
  dueMail: {
    queue: queueDueRemindersOfAllAccounts,
    failure: 'scheduler: could not queue reminders',
  },
};
