import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import { countRows } from '../../db/count.js';
import { type Db, dialectOf } from '../../db/database.js';
import type { CampaignStatus, TrainingCampaignsTable } from '../../db/schema.js';

export type CampaignRow = Selectable<TrainingCampaignsTable>;

export async function insertCampaign(
  trx: Db,
  values: Insertable<TrainingCampaignsTable>,
): Promise<CampaignRow> {
  return trx.insertInto('training_campaigns').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Changes a campaign's row; with `fromStatus`, only if it is still in one of those (a race lost → undefined). */
export function updateCampaignRow(
  trx: Db,
  accountId: number,
  campaignId: number,
  values: Updateable<TrainingCampaignsTable>,
  fromStatus?: CampaignStatus[],
): Promise<CampaignRow | undefined> {
  let query = trx
    .updateTable('training_campaigns')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId);
  if (fromStatus) query = query.where('status', 'in', fromStatus);
  return query.returningAll().executeTakeFirst();
}

export async function deleteCampaignRow(trx: Db, accountId: number, campaignId: number): Promise<void> {
  await trx
    .deleteFrom('training_campaigns')
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId)
    .execute();
}

/** The campaign row, locked for the rest of the transaction on PostgreSQL. */
export function lockCampaign(
  trx: Db,
  accountId: number,
  campaignId: number,
): Promise<CampaignRow | undefined> {
  return trx
    .selectFrom('training_campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId)
    .$if(dialectOf(trx) === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
}

/**
 * Holds the campaign's target groups until commit (PostgreSQL: `for share`), so no member can be
 * deleted while the launch enrolls them: deleting an employee locks its groups first. SQLite's
 * write transaction already keeps every other writer out.
 */
export async function lockTargetGroups(trx: Db, accountId: number, campaignId: number): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx
    .selectFrom('groups')
    .select('groups.id')
    .where('groups.account_id', '=', accountId)
    .where('groups.id', 'in', (eb) =>
      eb.selectFrom('campaign_groups').select('group_id').where('campaign_id', '=', campaignId),
    )
    .orderBy('groups.id')
    .forShare()
    .execute();
}

export async function replaceCampaignGroups(trx: Db, campaignId: number, groupIds: number[]): Promise<void> {
  await trx.deleteFrom('campaign_groups').where('campaign_id', '=', campaignId).execute();
  if (groupIds.length === 0) return;
  await trx
    .insertInto('campaign_groups')
    .values(groupIds.map((group_id) => ({ campaign_id: campaignId, group_id })))
    .execute();
}

export async function replaceCampaignCourses(
  trx: Db,
  campaignId: number,
  courseKeys: string[],
): Promise<void> {
  await trx.deleteFrom('campaign_courses').where('campaign_id', '=', campaignId).execute();
  if (courseKeys.length === 0) return;
  await trx
    .insertInto('campaign_courses')
    .values(courseKeys.map((course_key, position) => ({ campaign_id: campaignId, course_key, position })))
    .execute();
}

/** Course keys of each campaign, in the campaign's order. */
export async function courseKeysOfCampaigns(db: Db, campaignIds: number[]): Promise<Map<number, string[]>> {
  const byCampaign = new Map<number, string[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .selectFrom('campaign_courses')
    .select(['campaign_id', 'course_key'])
    .where('campaign_id', 'in', campaignIds)
    .orderBy('campaign_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byCampaign.get(row.campaign_id)?.push(row.course_key);
  return byCampaign;
}

export interface EnrollmentCounts {
  enrolled: number;
  completed: number;
}

/** Enrolled and completed people of each campaign, counted from the (campaign_id, completed_at) index. */
export async function enrollmentCounts(
  db: Db,
  campaignIds: number[],
): Promise<Map<number, EnrollmentCounts>> {
  const byCampaign = new Map<number, EnrollmentCounts>(
    campaignIds.map((id) => [id, { enrolled: 0, completed: 0 }]),
  );
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .selectFrom('enrollments')
    .select([
      'campaign_id',
      (eb) => eb.fn.countAll().as('enrolled'),
      (eb) => eb.fn.count('completed_at').as('completed'),
    ])
    .where('campaign_id', 'in', campaignIds)
    .groupBy('campaign_id')
    .execute();
  for (const row of rows) {
    byCampaign.set(row.campaign_id, { enrolled: Number(row.enrolled), completed: Number(row.completed) });
  }
  return byCampaign;
}

/** Names of the account's campaigns in these statuses that target a group. */
export async function campaignsTargetingGroup(
  db: Db,
  accountId: number,
  groupId: number,
  statuses: CampaignStatus[],
): Promise<string[]> {
  const rows = await db
    .selectFrom('campaign_groups as cg')
    .innerJoin('training_campaigns as c', 'c.id', 'cg.campaign_id')
    .select('c.name')
    .where('c.account_id', '=', accountId)
    .where('cg.group_id', '=', groupId)
    .where('c.status', 'in', statuses)
    .orderBy('c.id')
    .execute();
  return rows.map((r) => r.name);
}

/** Scheduled campaigns whose start has come, oldest start first. */
export function dueScheduledCampaigns(db: Db, now: number, limit: number) {
  return db
    .selectFrom('training_campaigns')
    .select(['id', 'account_id'])
    .where('status', '=', 'scheduled')
    .where('start_at', '<=', now)
    .orderBy('start_at')
    .limit(limit)
    .execute();
}

export async function countCampaigns(db: Db, accountId: number, status?: CampaignStatus): Promise<number> {
  let query = db.selectFrom('training_campaigns').where('account_id', '=', accountId);
  if (status) query = query.where('status', '=', status);
  return countRows(query);
}

/** One page of an account's campaigns by id: oldest first (the API), or newest first (the web interface). */
export function listCampaigns(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
  opts: { order?: 'asc' | 'desc'; status?: CampaignStatus } = {},
): Promise<CampaignRow[]> {
  let query = db.selectFrom('training_campaigns').selectAll().where('account_id', '=', accountId);
  if (opts.status) query = query.where('status', '=', opts.status);
  return query
    .orderBy('id', opts.order ?? 'asc')
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
