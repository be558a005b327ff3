import type { Db } from '../../core/db/database.js';
import type { CampaignTables, GroupRef } from './campaigns.targets.model.js';
import {
  existingGroupIds,
  linkedGroupsOfCampaigns,
  replaceCourseLinks,
  replaceGroupLinks,
} from './campaigns.targets.repository.js';

/**
 * A campaign's targets (its groups) and courses, for every kind: each kind passes its tables.
 * Another account's campaign or group is left alone, as if it did not exist.
 */

/** Sets the target groups of the account's campaign: only groups of the same account are taken. */
export function replaceTargetGroups(
  trx: Db,
  accountId: number,
  campaignId: number,
  groupIds: number[],
  tables: CampaignTables,
): Promise<void> {
  return replaceGroupLinks(trx, accountId, campaignId, groupIds, tables);
}

/** Sets the courses of the account's campaign, in this order (nothing for another account's). */
export function replaceCampaignCourseKeys(
  trx: Db,
  accountId: number,
  campaignId: number,
  courseKeys: string[],
  tables: CampaignTables,
): Promise<void> {
  return replaceCourseLinks(trx, accountId, campaignId, courseKeys, tables);
}

/** Target groups of each of the account's campaigns, by name. */
export function targetGroupsOfCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
  tables: CampaignTables,
): Promise<Map<number, GroupRef[]>> {
  return linkedGroupsOfCampaigns(db, accountId, campaignIds, tables);
}

/** Which of these group ids are groups of this account (a campaign's targets are checked against them). */
export function knownGroupIds(db: Db, accountId: number, groupIds: number[]): Promise<Set<number>> {
  return existingGroupIds(db, accountId, groupIds);
}
