import { subscribe, watchEvents } from '../../../core/events.js';
import { campaignsEnrollingNewcomers, enrollNewMembers } from './campaigns.launch.commands.js';
import { campaignsTargetingGroup } from './campaigns.repository.js';

/** What training does when the directory changes: newcomers enrolled, targeted groups kept. */
export function subscribeTrainingCampaigns(): void {
  // People who join a group that an active campaign enrolling newcomers targets are enrolled in
  // it and invited, in the membership change's transaction. Asked once before the change: when
  // no campaign does, the directory does not even collect who joined.
  watchEvents('group.members_added', 'training.enroll-newcomers', async (db, { accountId, groupId }) => {
    const campaignIds = await campaignsEnrollingNewcomers(db, accountId, groupId);
    if (campaignIds.length === 0) return undefined;
    return async (trx, { employeeIds }) => {
      await enrollNewMembers(trx, { accountId, campaignIds, employeeIds: [...employeeIds] });
    };
  });
  // Deleting a group a scheduled or active campaign targets would silently change who it trains.
  subscribe('group.deleting', 'training.keep-targeted-groups', async (trx, event) => {
    const { accountId, groupId } = event;
    event.targetedBy.push(
      ...(await campaignsTargetingGroup(trx, accountId, groupId, ['scheduled', 'active'])),
    );
  });
}
