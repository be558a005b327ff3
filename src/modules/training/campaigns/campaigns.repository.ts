import type { Insertable, Selectable, Updateable } from 'kysely';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { campaignInScope, employeeInScope, type GroupScope } from '../../../core/db/group-scope.js';
import type { CampaignStatus, TrainingCampaignsTable } from '../../../core/db/schema.js';

export type CampaignRow = Selectable<TrainingCampaignsTable>;

/**
 * The account's campaign id as a subquery, evaluated once (no row: not the account's). Tables
 * without an account_id (campaign_groups, campaign_courses, …) are scoped through it, by their
 * campaign_id indexes; the hot queries over enrollments keep the id itself in their condition
 * (so the planner sees it) and check the ownership with `exists` on this subquery.
 */
export function ownCampaignId(db: Db, accountId: number, campaignId: number) {
  return db
    .selectFrom('training_campaigns as owner')
    .select('owner.id')
    .where('owner.account_id', '=', accountId)
    .where('owner.id', '=', campaignId);
}

/** Those of these campaign ids that are the account's, as a subquery (see ownCampaignId). */
export function ownCampaignIds(db: Db, accountId: number, campaignIds: number[]) {
  return db
    .selectFrom('training_campaigns as owner')
    .select('owner.id')
    .where('owner.account_id', '=', accountId)
    .where('owner.id', 'in', campaignIds);
}

export async function insertCampaign(
  trx: Db,
  accountId: number,
  values: Omit<Insertable<TrainingCampaignsTable>, 'account_id'>,
): Promise<CampaignRow> {
  return trx
    .insertInto('training_campaigns')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes a campaign's row; with `fromStatus`, only if it is still in one of those (a race lost → undefined). */
export function updateCampaignRow(
  trx: Db,
  accountId: number,
  campaignId: number,
  values: Omit<Updateable<TrainingCampaignsTable>, 'id' | 'account_id'>,
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

export interface EnrollmentCounts {
  enrolled: number;
  completed: number;
}

/**
 * Enrolled and completed people of each of the account's campaigns, counted from the
 * (campaign_id, completed_at) index; of these groups' people only, when given (a role limited to
 * groups, docs/roles.md).
 */
export async function enrollmentCounts(
  db: Db,
  accountId: number,
  campaignIds: number[],
  groups: GroupScope = null,
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
    .where('campaign_id', 'in', ownCampaignIds(db, accountId, campaignIds))
    .$if(groups !== null, (q) => q.where(employeeInScope(groups ?? [], 'enrollments.employee_id')))
    .groupBy('campaign_id')
    .execute();
  for (const row of rows) {
    byCampaign.set(row.campaign_id, { enrolled: Number(row.enrolled), completed: Number(row.completed) });
  }
  return byCampaign;
}

/** The account's campaigns `c` that target a group. */
function campaignsOfGroup(db: Db, accountId: number, groupId: number) {
  return db
    .selectFrom('campaign_groups as cg')
    .innerJoin('training_campaigns as c', 'c.id', 'cg.campaign_id')
    .where('c.account_id', '=', accountId)
    .where('cg.group_id', '=', groupId);
}

/** Names of the account's campaigns in these statuses that target a group. */
export async function campaignsTargetingGroup(
  db: Db,
  accountId: number,
  groupId: number,
  statuses: CampaignStatus[],
): Promise<string[]> {
  const rows = await campaignsOfGroup(db, accountId, groupId)
    .select('c.name')
    .where('c.status', 'in', statuses)
    .orderBy('c.id')
    .execute();
  return rows.map((r) => r.name);
}

/** Ids of the account's active campaigns that target a group and enroll people who join it. */
export async function activeCampaignsEnrollingNewcomers(
  db: Db,
  accountId: number,
  groupId: number,
): Promise<number[]> {
  const rows = await campaignsOfGroup(db, accountId, groupId)
    .select('c.id')
    .where('c.status', '=', 'active')
    .where('c.enroll_new_members', '=', 1)
    .execute();
  return rows.map((r) => r.id);
}

export async function countCampaigns(
  db: Db,
  accountId: number,
  status?: CampaignStatus,
  groups: GroupScope = null,
): Promise<number> {
  let query = db.selectFrom('training_campaigns').where('account_id', '=', accountId);
  if (status) query = query.where('status', '=', status);
  if (groups) query = query.where(campaignInScope(groups, 'campaign_groups', 'training_campaigns.id'));
  return countRows(query);
}

/** One page of an account's campaigns by id: oldest first (the API), or newest first (the web interface). */
export function listCampaigns(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
  opts: { order?: 'asc' | 'desc'; status?: CampaignStatus; groups?: GroupScope } = {},
): Promise<CampaignRow[]> {
  let query = db.selectFrom('training_campaigns').selectAll().where('account_id', '=', accountId);
  if (opts.status) query = query.where('status', '=', opts.status);
  if (opts.groups) {
    query = query.where(campaignInScope(opts.groups, 'campaign_groups', 'training_campaigns.id'));
  }
  return query
    .orderBy('id', opts.order ?? 'asc')
    .limit(limit)
    .offset(offset)
    .execute();
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
