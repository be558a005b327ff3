import type { Db } from '../../core/db/database.js';
import type { GroupScope } from '../../core/db/group-scope.js';
import { getAccount } from '../access/index.js';
import { reportingOverview } from '../phishing/index.js';
import {
  countActiveKeys,
  countEmployees,
  countGroups,
  countTrainingCampaigns,
} from './overview.repository.js';

/** Counts shown on an account's overview page (of the groups given, for a role limited to them). */
export async function accountOverview(db: Db, accountId: number, scope: GroupScope = null) {
  await getAccount(db, accountId);
  const now = Date.now();
  const [employees, groups, campaigns, active_keys, reporting] = await Promise.all([
    countEmployees(db, accountId, scope),
    countGroups(db, accountId, scope),
    countTrainingCampaigns(db, accountId, scope),
    countActiveKeys(db, accountId, now),
    reportingOverview(db, accountId, now, scope),
  ]);
  return { employees, groups, campaigns, active_keys, reporting };
}
