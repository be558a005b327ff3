import type { Db } from '../../../core/db/database.js';
import {
  type CampaignTables,
  type GroupRef,
  knownGroupIds,
  replaceCampaignCourseKeys,
  replaceTargetGroups,
  targetGroupsOfCampaigns,
} from '../../campaigns/index.js';
import { keysOfPhishingCampaigns, replacePhishingTemplates } from './campaigns.repository.js';

/** Phishing campaigns and their group and course link tables, for the targets every kind shares. */
export const PHISHING_TABLES: CampaignTables = {
  campaigns: 'phishing_campaigns',
  groups: 'phishing_campaign_groups',
  courses: 'phishing_campaign_courses',
};

/** Sets the target groups of the account's campaign: only groups of the same account are taken. */
export function replacePhishingGroups(
  trx: Db,
  accountId: number,
  campaignId: number,
  groupIds: number[],
): Promise<void> {
  return replaceTargetGroups(trx, accountId, campaignId, groupIds, PHISHING_TABLES);
}

/** Sets the template pool (or the remedial courses) of the account's campaign, in this order. */
export function replacePhishingKeys(
  trx: Db,
  accountId: number,
  campaignId: number,
  which: 'templates' | 'courses',
  keys: string[],
): Promise<void> {
  if (which === 'courses')
    return replaceCampaignCourseKeys(trx, accountId, campaignId, keys, PHISHING_TABLES);
  return replacePhishingTemplates(trx, accountId, campaignId, keys);
}

export interface PhishingChildren {
  groups: GroupRef[];
  template_keys: string[];
  course_keys: string[];
}

/** Target groups (by name), template keys and course keys of each of the account's campaigns. */
export async function childrenOfPhishingCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
): Promise<Map<number, PhishingChildren>> {
  const out = new Map<number, PhishingChildren>(
    campaignIds.map((id) => [id, { groups: [], template_keys: [], course_keys: [] }]),
  );
  if (campaignIds.length === 0) return out;
  const [groups, keys] = await Promise.all([
    targetGroupsOfCampaigns(db, accountId, campaignIds, PHISHING_TABLES),
    keysOfPhishingCampaigns(db, accountId, campaignIds),
  ]);
  for (const [id, targets] of groups) out.get(id)?.groups.push(...targets);
  for (const [id, k] of keys) {
    out.get(id)?.template_keys.push(...k.template_keys);
    out.get(id)?.course_keys.push(...k.course_keys);
  }
  return out;
}

/** Which of these group ids are groups of this account. */
export function existingGroupIds(db: Db, accountId: number, groupIds: number[]): Promise<Set<number>> {
  return knownGroupIds(db, accountId, groupIds);
}
