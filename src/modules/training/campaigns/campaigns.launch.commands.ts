import { recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { sliceSize } from '../../../core/db/id-slices.js';
import { FieldErrorCollector } from '../../../core/errors.js';
import { yieldToOthers } from '../../../core/event-loop.js';
import { employeeSliceEnd } from '../../directory/index.js';
import { queueCampaignMessages } from '../../mail/index.js';
import { enrollGroupMembers, enrollJoiningMembers } from '../enrollments/enrollments.repository.js';
import { emitTrainingEvents } from './campaigns.events.commands.js';
import { checkReadyToRun, TRAINING_LIFECYCLE } from './campaigns.model.js';
import {
  activeCampaignsEnrollingNewcomers,
  lockCampaign,
  lockTargetGroups,
  updateCampaignRow,
} from './campaigns.repository.js';
import {
  type CampaignView,
  campaignNotFound,
  campaignView,
  getCampaign,
  wrongStatus,
} from './campaigns.service.js';

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
    if (!TRAINING_LIFECYCLE.launchFrom(props.trigger).includes(row.status))
      throw wrongStatus('launch', row.status);
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
        status: TRAINING_LIFECYCLE.move('launch').to,
        launched_at: now,
        ...(props.trigger === 'now' && { start_at: now }),
        updated_at: now,
      },
      TRAINING_LIFECYCLE.move('launch').from,
    );
    if (!launched) throw wrongStatus('launch', row.status);
    await lockTargetGroups(trx, props.accountId, id);
    const size = sliceSize(trx);
    for (let after = 0; ; ) {
      const upTo = (await employeeSliceEnd(trx, props.accountId, after, size)) ?? Number.MAX_SAFE_INTEGER;
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
    await recordAudit(trx, {
      accountId: props.accountId,
      action: 'campaign.launched',
      object: { type: 'campaign', id, label: row.name },
      changes: {
        status: { from: row.status, to: launched.status },
        trigger: { from: null, to: props.trigger },
      },
    });
  });
  return getCampaign(db, props.accountId, id);
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
  props: {
    accountId: number;
    campaignIds: number[];
    employeeIds: number[];
    now?: number;
    /** A due date of the enrollments' own (remedial training); absent: the campaign's. */
    dueAt?: number;
  },
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
      dueAt: props.dueAt,
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
