import { countRows } from '../../core/db/count.js';
import type { Db } from '../../core/db/database.js';
import {
  campaignInScope,
  employeeInScope,
  type GroupScope,
  groupInScope,
} from '../../core/db/group-scope.js';

/**
 * The overview's counts, read straight from the tables they count: a read model, so the counting
 * contexts export no repository for it.
 */
export function countEmployees(db: Db, accountId: number, groups: GroupScope): Promise<number> {
  return countRows(
    db
      .selectFrom('employees')
      .where('account_id', '=', accountId)
      .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'employees.id'))),
  );
}

export function countGroups(db: Db, accountId: number, groups: GroupScope): Promise<number> {
  return countRows(
    db
      .selectFrom('groups')
      .where('account_id', '=', accountId)
      .$if(groups !== null, (q) => q.where(groupInScope(groups ?? [], 'groups.id'))),
  );
}

/** Training campaigns, in every status. */
export function countTrainingCampaigns(db: Db, accountId: number, groups: GroupScope): Promise<number> {
  return countRows(
    db
      .selectFrom('training_campaigns')
      .where('account_id', '=', accountId)
      .$if(groups !== null, (q) =>
        q.where(campaignInScope(groups ?? [], 'campaign_groups', 'training_campaigns.id')),
      ),
  );
}

/** Keys of the account that still work: not revoked, not expired. */
export function countActiveKeys(db: Db, accountId: number, now: number): Promise<number> {
  return countRows(
    db
      .selectFrom('api_keys')
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])),
  );
}
