import { byName } from '../../core/db/collation.js';
import type { Db } from '../../core/db/database.js';
import type { CampaignTables, GroupRef } from './campaigns.targets.model.js';

/**
 * SQL of a campaign's link rows (its target groups, its courses), the same for both kinds of
 * campaign: training (`campaigns` module) and phishing. Link tables have no account_id: they are
 * reached through the campaign, as the account's campaign id in the same statement.
 */

/**
 * The kind's campaign table under an alias, typed as the training one because Kysely cannot build
 * on a union of tables: these statements read only `id` and `account_id`, the same in both.
 */
function campaignsAs<A extends string>(tables: CampaignTables, alias: A) {
  return `${tables.campaigns} as ${alias}` as `training_campaigns as ${A}`;
}

/** The kind's group links under an alias (the two tables are alike; typed as one, see campaignsAs). */
function groupLinksAs<A extends string>(tables: CampaignTables, alias: A) {
  return `${tables.groups} as ${alias}` as `campaign_groups as ${A}`;
}

/** The account's campaign id as a subquery, evaluated once (no row: not the account's). */
export function ownCampaignIdIn(db: Db, accountId: number, campaignId: number, tables: CampaignTables) {
  return db
    .selectFrom(campaignsAs(tables, 'owner'))
    .select('owner.id')
    .where('owner.account_id', '=', accountId)
    .where('owner.id', '=', campaignId);
}

/** Those of these campaign ids that are the account's, as a subquery (see ownCampaignIdIn). */
export function ownCampaignIdsIn(db: Db, accountId: number, campaignIds: number[], tables: CampaignTables) {
  return db
    .selectFrom(campaignsAs(tables, 'owner'))
    .select('owner.id')
    .where('owner.account_id', '=', accountId)
    .where('owner.id', 'in', campaignIds);
}

/** Sets the target groups of the account's campaign: only groups of the same account are taken. */
export async function replaceGroupLinks(
  trx: Db,
  accountId: number,
  campaignId: number,
  groupIds: number[],
  tables: CampaignTables,
): Promise<void> {
  await trx
    .deleteFrom(tables.groups)
    .where('campaign_id', '=', ownCampaignIdIn(trx, accountId, campaignId, tables))
    .execute();
  if (groupIds.length === 0) return;
  await trx
    .insertInto(tables.groups)
    .columns(['campaign_id', 'group_id'])
    .expression(
      trx
        .selectFrom(campaignsAs(tables, 'c'))
        .innerJoin('groups as g', 'g.account_id', 'c.account_id')
        .select(['c.id', 'g.id as group_id'])
        .where('c.account_id', '=', accountId)
        .where('c.id', '=', campaignId)
        .where('g.id', 'in', groupIds),
    )
    .execute();
}

/** Sets the courses of the account's campaign, in this order (nothing for another account's). */
export async function replaceCourseLinks(
  trx: Db,
  accountId: number,
  campaignId: number,
  courseKeys: string[],
  tables: CampaignTables,
): Promise<void> {
  await trx
    .deleteFrom(tables.courses)
    .where('campaign_id', '=', ownCampaignIdIn(trx, accountId, campaignId, tables))
    .execute();
  if (courseKeys.length === 0) return;
  const owned = await ownCampaignIdIn(trx, accountId, campaignId, tables).executeTakeFirst();
  if (!owned) return;
  await trx
    .insertInto(tables.courses)
    .values(courseKeys.map((course_key, position) => ({ campaign_id: owned.id, course_key, position })))
    .execute();
}

/** Target groups of each of the account's campaigns, by name. */
export async function linkedGroupsOfCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
  tables: CampaignTables,
): Promise<Map<number, GroupRef[]>> {
  const byCampaign = new Map<number, GroupRef[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .selectFrom(groupLinksAs(tables, 'cg'))
    .innerJoin('groups as g', 'g.id', 'cg.group_id')
    .select(['cg.campaign_id', 'g.id', 'g.name'])
    .where('g.account_id', '=', accountId)
    .where('cg.campaign_id', 'in', ownCampaignIdsIn(db, accountId, campaignIds, tables))
    .orderBy(byName(db, 'g.name'))
    .orderBy('g.id')
    .execute();
  for (const row of rows) byCampaign.get(row.campaign_id)?.push({ id: row.id, name: row.name });
  return byCampaign;
}

/** Which of these group ids are groups of this account (a campaign's targets are checked against them). */
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
