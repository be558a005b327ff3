import type { Db } from '../../../core/db/database.js';
import {
  type CampaignTables,
  type GroupRef,
  knownGroupIds,
  replaceCampaignCourseKeys,
  replaceTargetGroups,
  targetGroupsOfCampaigns,
} from '../../campaigns/index.js';

export type { GroupRef };

/** Training campaigns and their link tables, for the targets every kind of campaign shares. */
export const TRAINING_TABLES: CampaignTables = {
  campaigns: 'training_campaigns',
  groups: 'campaign_groups',
  courses: 'campaign_courses',
};

/** Sets the target groups of the account's campaign: only groups of the same account are taken. */
export function replaceCampaignGroups(
  trx: Db,
  accountId: number,
  campaignId: number,
  groupIds: number[],
): Promise<void> {
  return replaceTargetGroups(trx, accountId, campaignId, groupIds, TRAINING_TABLES);
}

/** Sets the courses of the account's campaign, in this order (nothing for another account's). */
export function replaceCampaignCourses(
  trx: Db,
  accountId: number,
  campaignId: number,
  courseKeys: string[],
): Promise<void> {
  return replaceCampaignCourseKeys(trx, accountId, campaignId, courseKeys, TRAINING_TABLES);
}

/** Target groups of each of the account's campaigns, by name. */
export function groupsOfCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
): Promise<Map<number, GroupRef[]>> {
  return targetGroupsOfCampaigns(db, accountId, campaignIds, TRAINING_TABLES);
}

/** Which of these group ids are groups of this account. */
export function existingGroupIds(db: Db, accountId: number, groupIds: number[]): Promise<Set<number>> {
  return knownGroupIds(db, accountId, groupIds);
}
