import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { campaignInScope, type GroupScope } from '../../../core/db/group-scope.js';
import type { PhishingCampaignStatus, PhishingCampaignsTable } from '../../../core/db/schema.js';

/**
 * SQL of an account's phishing campaigns and their children (template pool, remedial course keys),
 * which have no account_id and are reached through the campaign (`ownPhishingCampaignId`). Target
 * groups and remedial courses are written through the campaigns context (campaigns.targets.service.ts).
 */

export type PhishingCampaignRow = Selectable<PhishingCampaignsTable>;

/** The account's campaign id as a subquery (no row: not the account's). */
export function ownPhishingCampaignId(db: Db, accountId: number, campaignId: number) {
  return db
    .selectFrom('phishing_campaigns as owner')
    .select('owner.id')
    .where('owner.account_id', '=', accountId)
    .where('owner.id', '=', campaignId);
}

/** Those of these campaign ids that are the account's, as a subquery (see ownPhishingCampaignId). */
function ownPhishingCampaignIds(db: Db, accountId: number, campaignIds: number[]) {
  return db
    .selectFrom('phishing_campaigns as owner')
    .select('owner.id')
    .where('owner.account_id', '=', accountId)
    .where('owner.id', 'in', campaignIds);
}

export function insertPhishingCampaign(
  trx: Db,
  accountId: number,
  values: Omit<Insertable<PhishingCampaignsTable>, 'account_id'>,
): Promise<PhishingCampaignRow> {
  return trx
    .insertInto('phishing_campaigns')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes a campaign's row; with `fromStatus`, only if it is still in one of those (a race lost → undefined). */
export function updatePhishingCampaignRow(
  trx: Db,
  accountId: number,
  campaignId: number,
  values: Omit<Updateable<PhishingCampaignsTable>, 'id' | 'account_id'>,
  fromStatus?: PhishingCampaignStatus[],
): Promise<PhishingCampaignRow | undefined> {
  let query = trx
    .updateTable('phishing_campaigns')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId);
  if (fromStatus) query = query.where('status', 'in', fromStatus);
  return query.returningAll().executeTakeFirst();
}

/** Deletes a campaign (its children go by cascade). */
export async function deletePhishingCampaignRow(
  trx: Db,
  accountId: number,
  campaignId: number,
): Promise<void> {
  await trx
    .deleteFrom('phishing_campaigns')
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId)
    .execute();
}

/** The campaign row, locked for the rest of the transaction on PostgreSQL. */
export function lockPhishingCampaign(
  trx: Db,
  accountId: number,
  campaignId: number,
): Promise<PhishingCampaignRow | undefined> {
  return trx
    .selectFrom('phishing_campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId)
    .$if(dialectOf(trx) === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
}

export function findPhishingCampaign(
  db: Db,
  accountId: number,
  campaignId: number,
): Promise<PhishingCampaignRow | undefined> {
  return db
    .selectFrom('phishing_campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', campaignId)
    .executeTakeFirst();
}

export function countPhishingCampaigns(
  db: Db,
  accountId: number,
  status?: PhishingCampaignStatus,
  groups: GroupScope = null,
): Promise<number> {
  let query = db.selectFrom('phishing_campaigns').where('account_id', '=', accountId);
  if (status) query = query.where('status', '=', status);
  if (groups)
    query = query.where(campaignInScope(groups, 'phishing_campaign_groups', 'phishing_campaigns.id'));
  return countRows(query);
}

/** One page of an account's campaigns, newest first. */
export function listPhishingCampaigns(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
  status?: PhishingCampaignStatus,
  groups: GroupScope = null,
): Promise<PhishingCampaignRow[]> {
  let query = db.selectFrom('phishing_campaigns').selectAll().where('account_id', '=', accountId);
  if (status) query = query.where('status', '=', status);
  if (groups)
    query = query.where(campaignInScope(groups, 'phishing_campaign_groups', 'phishing_campaigns.id'));
  return query.orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

/** Sets the template pool of the account's campaign, in this order. */
export async function replacePhishingTemplates(
  trx: Db,
  accountId: number,
  campaignId: number,
  keys: string[],
): Promise<void> {
  await trx
    .deleteFrom('phishing_campaign_templates')
    .where('campaign_id', '=', ownPhishingCampaignId(trx, accountId, campaignId))
    .execute();
  if (keys.length === 0) return;
  const owned = await ownPhishingCampaignId(trx, accountId, campaignId).executeTakeFirst();
  if (!owned) return;
  await trx
    .insertInto('phishing_campaign_templates')
    .values(keys.map((template_key, position) => ({ campaign_id: owned.id, template_key, position })))
    .execute();
}

/** Stores the templates' content at launch. */
export async function snapshotTemplates(
  trx: Db,
  accountId: number,
  campaignId: number,
  snapshots: Map<string, string>,
): Promise<void> {
  for (const [key, snapshot] of snapshots) {
    await trx
      .updateTable('phishing_campaign_templates')
      .set({ snapshot })
      .where('campaign_id', '=', ownPhishingCampaignId(trx, accountId, campaignId))
      .where('template_key', '=', key)
      .execute();
  }
}

/** Template keys and course keys of each of the account's campaigns, in their order. */
export async function keysOfPhishingCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
): Promise<Map<number, { template_keys: string[]; course_keys: string[] }>> {
  const out = new Map(
    campaignIds.map((id) => [id, { template_keys: [] as string[], course_keys: [] as string[] }]),
  );
  if (campaignIds.length === 0) return out;
  const owned = ownPhishingCampaignIds(db, accountId, campaignIds);
  const [templates, courses] = await Promise.all([
    db
      .selectFrom('phishing_campaign_templates')
      .select(['campaign_id', 'template_key'])
      .where('campaign_id', 'in', owned)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('phishing_campaign_courses')
      .select(['campaign_id', 'course_key'])
      .where('campaign_id', 'in', owned)
      .orderBy('position')
      .execute(),
  ]);
  for (const t of templates) out.get(t.campaign_id)?.template_keys.push(t.template_key);
  for (const c of courses) out.get(c.campaign_id)?.course_keys.push(c.course_key);
  return out;
}

/** Cancels the campaign's simulations still waiting in the queue (a stop). Returns how many. */
export async function cancelQueuedSimulations(
  trx: Db,
  accountId: number,
  campaignId: number,
  reason: string,
): Promise<number> {
  const result = await trx
    .updateTable('messages')
    .set({ status: 'cancelled', last_error: reason, locked_until: null })
    .where('account_id', '=', accountId)
    .where('kind', '=', 'simulation')
    .where('status', '=', 'queued')
    .where('phishing_recipient_id', 'in', (eb) =>
      eb
        .selectFrom('phishing_recipients')
        .select('id')
        .where('account_id', '=', accountId)
        .where('campaign_id', '=', campaignId)
        .where('status', '=', 'scheduled'),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Names of the account's phishing campaigns in these statuses that target a group. */
export async function phishingCampaignsTargetingGroup(
  db: Db,
  accountId: number,
  groupId: number,
  statuses: PhishingCampaignStatus[],
): Promise<string[]> {
  const rows = await db
    .selectFrom('phishing_campaign_groups as cg')
    .innerJoin('phishing_campaigns as c', 'c.id', 'cg.campaign_id')
    .select('c.name')
    .where('c.account_id', '=', accountId)
    .where('cg.group_id', '=', groupId)
    .where('c.status', 'in', statuses)
    .orderBy('c.id')
    .execute();
  return rows.map((r) => r.name);
}

/**
 * A group being deleted: it leaves the account's draft campaigns. Launched ones keep the row, so
 * their results still name the group's id (each recipient keeps the group ids of the launch).
 */
export async function removeGroupFromDraftPhishingCampaigns(
  trx: Db,
  accountId: number,
  groupId: number,
): Promise<void> {
  await trx
    .deleteFrom('phishing_campaign_groups')
    .where('group_id', '=', groupId)
    .where('campaign_id', 'in', (eb) =>
      eb
        .selectFrom('phishing_campaigns')
        .select('id')
        .where('account_id', '=', accountId)
        .where('status', 'in', ['draft', 'scheduled']),
    )
    .execute();
}

/**
 * An employee being deleted: their simulations stay as the record (marked with when), and their
 * simulation mail goes (it holds their address; one still queued is never sent).
 */
export async function keepRecipientsOfDeletedEmployee(
  trx: Db,
  accountId: number,
  employeeId: number,
  now: number,
): Promise<void> {
  const recipients = trx
    .selectFrom('phishing_recipients')
    .select('id')
    .where('account_id', '=', accountId)
    .where('employee_id', '=', employeeId);
  await trx
    .deleteFrom('messages')
    .where('account_id', '=', accountId)
    .where('phishing_recipient_id', 'in', recipients)
    .execute();
  await trx
    .updateTable('phishing_recipients')
    .set({ employee_deleted_at: now })
    .where('account_id', '=', accountId)
    .where('employee_id', '=', employeeId)
    .execute();
}

/** Scheduled campaigns whose window has opened (the scheduler launches them). */
export function dueScheduledPhishingCampaignsOfAllAccounts(db: Db, now: number, limit: number) {
  // Cross-account by design: the scheduler serves every account, each campaign then in its own.
  return db
    .selectFrom('phishing_campaigns')
    .select(['id', 'account_id'])
    .where('status', '=', 'scheduled')
    .where('window_start_at', '<=', now)
    .orderBy('window_start_at')
    .limit(limit)
    .execute();
}

/** Running campaigns whose window and grace period have ended (the scheduler completes them). */
export function endedRunningPhishingCampaignsOfAllAccounts(db: Db, now: number, limit: number) {
  // Cross-account by design: the scheduler serves every account.
  return db
    .selectFrom('phishing_campaigns')
    .select(['id', 'account_id'])
    .where('status', '=', 'running')
    .where(sql<boolean>`window_end_at + grace_hours * 3600000 <= ${now}`)
    .orderBy('id')
    .limit(limit)
    .execute();
}
