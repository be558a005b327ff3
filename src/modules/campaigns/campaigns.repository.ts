import { type Selectable, sql } from 'kysely';
import { countRows } from '../../db/count.js';
import type { Db } from '../../db/database.js';
import type { CampaignStatus, TrainingCampaignsTable } from '../../db/schema.js';

export type CampaignRow = Selectable<TrainingCampaignsTable>;

export async function insertCampaign(
  trx: Db,
  accountId: number,
  values: { name: string; status: CampaignStatus; groupIds: number[] },
  now: number,
): Promise<CampaignRow> {
  const campaign = await trx
    .insertInto('training_campaigns')
    .values({
      account_id: accountId,
      name: values.name,
      status: values.status,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (values.groupIds.length > 0) {
    await trx
      .insertInto('campaign_groups')
      .values(values.groupIds.map((group_id) => ({ campaign_id: campaign.id, group_id })))
      .execute();
  }
  return campaign;
}

export async function countCampaigns(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('training_campaigns').where('account_id', '=', accountId));
}

/** One page of an account's campaigns by id: oldest first (the API), or newest first (the web interface). */
export function listCampaigns(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
  order: 'asc' | 'desc' = 'asc',
): Promise<CampaignRow[]> {
  return db
    .selectFrom('training_campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', order)
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Target group ids of each campaign, ascending. */
export async function groupIdsOfCampaigns(db: Db, campaignIds: number[]): Promise<Map<number, number[]>> {
  const byCampaign = new Map<number, number[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .selectFrom('campaign_groups')
    .select(['campaign_id', 'group_id'])
    .where('campaign_id', 'in', campaignIds)
    .orderBy('campaign_id')
    .orderBy('group_id')
    .execute();
  for (const row of rows) byCampaign.get(row.campaign_id)?.push(row.group_id);
  return byCampaign;
}

/** Which of these group ids are groups of this account. */
export async function existingGroupIds(db: Db, accountId: number, groupIds: number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('groups')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', groupIds)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export function findCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
): Promise<CampaignRow | undefined> {
  return db
    .selectFrom('training_campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId)
    .executeTakeFirst();
}

export interface GroupRef {
  id: number;
  name: string;
}

/** Target groups of each campaign, by name. */
export async function groupsOfCampaigns(db: Db, campaignIds: number[]): Promise<Map<number, GroupRef[]>> {
  const byCampaign = new Map<number, GroupRef[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .selectFrom('campaign_groups as cg')
    .innerJoin('groups as g', 'g.id', 'cg.group_id')
    .select(['cg.campaign_id', 'g.id', 'g.name'])
    .where('cg.campaign_id', 'in', campaignIds)
    .orderBy(sql`lower(g.name)`)
    .orderBy('g.id')
    .execute();
  for (const row of rows) byCampaign.get(row.campaign_id)?.push({ id: row.id, name: row.name });
  return byCampaign;
}
