import type { Db } from '../../../core/db/database.js';

/**
 * The account's phishing campaigns whose remedial training is one of these training campaigns
 * (each phishing campaign launched with remedial courses made one of its own).
 */
export function phishingCampaignsWithRemedial(
  db: Db,
  accountId: number,
  trainingCampaignIds: number[],
): Promise<{ id: number; name: string; remedial_campaign_id: number | null }[]> {
  if (trainingCampaignIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('phishing_campaigns')
    .select(['id', 'name', 'remedial_campaign_id'])
    .where('account_id', '=', accountId)
    .where('remedial_campaign_id', 'in', trainingCampaignIds)
    .execute();
}
