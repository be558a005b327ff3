import type { Db } from '../../db/database.js';
import { sliceSize } from '../../db/id-slices.js';
import { AppError, FieldErrorCollector } from '../../errors.js';
import { yieldToOthers } from '../../event-loop.js';
import { employeeIdAfter } from '../employees/employees.repository.js';
import { queueCampaignMessages } from '../mail/mail.queue.js';
import {
  activeCampaignsEnrollingNewcomers,
  lockCampaign,
  lockTargetGroups,
  updateCampaignRow,
} from './campaigns.repository.js';
import { checkReadyToRun } from './campaigns.rules.js';
import { dueScheduledCampaignsOfAllAccounts } from './campaigns.scheduler.repository.js';
import {
  type CampaignView,
  campaignNotFound,
  campaignView,
  getCampaign,
  wrongStatus,
} from './campaigns.service.js';
import { emitTrainingEvents } from './campaigns.webhooks.js';
import { enrollGroupMembers, enrollJoiningMembers } from './enrollments.repository.js';

export interface LaunchCampaignProps {
  accountId: number;
  campaignId: number;
  /** `now`: an administrator launches it now; `scheduled`: the scheduler, at its start date. */
  trigger: 'now' | 'scheduled';
  now?: number;
}

/**
 * Launches a campaign: in one transaction it becomes active, every member of its target groups
 * is enrolled once (however many of the groups they are in) and one invitation per enrollment
 * is queued for the mail workers. Nothing is sent here. The people are enrolled and invited in
 * slices of the account's employees by id (db/id-slices.ts), so launching for 100,000 never
 * stalls other requests.
 */
export async function launchCampaign(db: Db, props: LaunchCampaignProps): Promise<CampaignView> {
  const id = props.campaignId;
  const now = props.now ?? Date.now();
  await db.transaction().execute(async (trx) => {
    const row = await lockCampaign(trx, props.accountId, id);
    if (!row) throw campaignNotFound();
    const from = props.trigger === 'now' ? ['draft', 'scheduled'] : ['scheduled'];
    if (!from.includes(row.status)) throw wrongStatus('launch', row.status);
    if (props.trigger === 'now') {
      const campaign = await campaignView(trx, props.accountId, row);
      const errors = new FieldErrorCollector();
      checkReadyToRun(errors, campaign, 'launch', now);
      errors.throwIfAny();
    }
    const launched = await updateCampaignRow(
      trx,
      props.accountId,
      id,
      {
        status: 'active',
        launched_at: now,
        ...(props.trigger === 'now' && { start_at: now }),
        updated_at: now,
      },
      ['draft', 'scheduled'],
    );
    if (!launched) throw wrongStatus('launch', row.status);
    await lockTargetGroups(trx, props.accountId, id);
    const size = sliceSize(trx);
    for (let after = 0; ; ) {
      const upTo = (await employeeIdAfter(trx, props.accountId, after, size)) ?? Number.MAX_SAFE_INTEGER;
      const people = { after, upTo };
      await enrollGroupMembers(trx, { accountId: props.accountId, campaignId: id, now, ...people });
      await queueCampaignMessages(trx, {
        accountId: props.accountId,
        campaignId: id,
        kind: 'invitation',
        now,
        employees: people,
      });
      if (upTo === Number.MAX_SAFE_INTEGER) break;
      after = upTo;
      await yieldToOthers();
    }
    const events = { type: 'training.enrollment_created', ids: 'all' } as const;
    await emitTrainingEvents(
      trx,
      props.accountId,
      id,
      { campaign: 'training.campaign_launched', enrollments: events },
      now,
    );
  });
  return getCampaign(db, props.accountId, id);
}

/** Launches the scheduled campaigns whose start date has come (the scheduler calls this). Returns how many. */
export async function launchDueCampaignsOfAllAccounts(db: Db, now: number): Promise<number> {
  // Cross-account by design: the scheduler launches every account's due campaigns, each in its account.
  let launched = 0;
  for (const campaign of await dueScheduledCampaignsOfAllAccounts(db, now, 100)) {
    try {
      await launchCampaign(db, {
        accountId: campaign.account_id,
        campaignId: campaign.id,
        trigger: 'scheduled',
        now,
      });
      launched++;
    } catch (err) {
      // Another instance launched it first, or it was unscheduled meanwhile: nothing to do.
      if (!(err instanceof AppError && err.code === 'campaign_status_conflict')) throw err;
    }
  }
  return launched;
}

/**
 * The active campaigns that target this group and enroll newcomers: people who join the group
 * (inside the membership change's transaction) are enrolled in each and invited.
 */
export function campaignsEnrollingNewcomers(trx: Db, accountId: number, groupId: number): Promise<number[]> {
  return activeCampaignsEnrollingNewcomers(trx, accountId, groupId);
}

/**
 * People who just joined a group: each of these campaigns (campaignsEnrollingNewcomers)
 * enrolls and invites them. Returns how many enrollments were made.
 */
export async function enrollNewMembers(
  trx: Db,
  props: { accountId: number; campaignIds: number[]; employeeIds: number[]; now?: number },
): Promise<number> {
  if (props.employeeIds.length === 0) return 0;
  const now = props.now ?? Date.now();
  let enrolled = 0;
  for (const campaignId of props.campaignIds) {
    const ids = await enrollJoiningMembers(trx, {
      accountId: props.accountId,
      campaignId,
      employeeIds: props.employeeIds,
      now,
    });
    enrolled += ids.length;
    await emitTrainingEvents(
      trx,
      props.accountId,
      campaignId,
      { enrollments: { type: 'training.enrollment_created', ids } },
      now,
    );
    await queueCampaignMessages(trx, {
      accountId: props.accountId,
      campaignId,
      kind: 'invitation',
      now,
      enrollmentIds: ids,
    });
  }
  return enrolled;
}
