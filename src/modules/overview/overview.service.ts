import type { Db } from '../../core/db/database.js';
import { getAccount } from '../access/index.js';
import { reportingOverview } from '../phishing/index.js';
import {
  countActiveKeys,
  countEmployees,
  countGroups,
  countTrainingCampaigns,
} from './overview.repository.js';

/** Counts shown on an account's overview page. */
export async function accountOverview(db: Db, accountId: number) {
  await getAccount(db, accountId);
  const now = Date.now();
  const [employees, groups, campaigns, active_keys, reporting] = await Promise.all([
    countEmployees(db, accountId),
    countGroups(db, accountId),
    countTrainingCampaigns(db, accountId),
    countActiveKeys(db, accountId, now),
    reportingOverview(db, accountId, now),
  ]);
  return { employees, groups, campaigns, active_keys, reporting };
}
