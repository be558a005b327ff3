import { subscribe } from '../../../core/events.js';
import {
  keepRecipientsOfDeletedEmployee,
  phishingCampaignsTargetingGroup,
  removeGroupFromDraftPhishingCampaigns,
} from './campaigns.repository.js';

/** What phishing campaigns do when the directory changes: targeted groups kept, records kept. */
export function subscribePhishingCampaigns(): void {
  // A scheduled or running campaign's group stays; draft campaigns no longer target a deleted one.
  subscribe('group.deleting', 'phishing.keep-targeted-groups', async (trx, event) => {
    const { accountId, groupId } = event;
    const running = await phishingCampaignsTargetingGroup(trx, accountId, groupId, ['scheduled', 'running']);
    event.targetedBy.push(...running);
    // Undone with the rest when the deletion is refused.
    await removeGroupFromDraftPhishingCampaigns(trx, accountId, groupId);
  });
  // A deleted employee's simulations stay in the results (as "Deleted employee #<id>"); their mail goes.
  subscribe('employee.deleting', 'phishing.keep-recipients', (trx, { accountId, employeeId, at }) =>
    keepRecipientsOfDeletedEmployee(trx, accountId, employeeId, at),
  );
}
