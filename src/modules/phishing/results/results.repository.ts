import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.js';
import { campaignInScope, employeeInScope, type GroupScope } from '../../../core/db/group-scope.js';
import type { PhishingRecipientStatus } from '../../../core/db/schema.js';
import {
  aliased,
  LISTED_RECIPIENT_COLUMNS,
  type ListedRecipient,
} from '../simulation/simulation.recipient-columns.repository.js';

/**
 * SQL of a phishing campaign's results (read only): the campaigns as the Customer API lists
 * them, and the recipients with the employee they name. Every function takes the account first
 * and filters by it; the child tables are reached through their campaign.
 */

export const CAMPAIGN_COLUMNS = [
  'id',
  'account_id',
  'name',
  'description',
  'status',
  'window_start_at',
  'window_end_at',
  'weekdays',
  'hour_start',
  'hour_end',
  'time_zone',
  'remedial_on',
  'launched_at',
  'completed_at',
  'created_at',
  'updated_at',
] as const;

export function campaignRow(db: Db, accountId: number, campaignId: number) {
  return db
    .selectFrom('phishing_campaigns')
    .select(CAMPAIGN_COLUMNS)
    .where('id', '=', campaignId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export type PhishingCampaignRow = NonNullable<Awaited<ReturnType<typeof campaignRow>>>;

export function campaignRows(db: Db, accountId: number, limit: number, offset: number) {
  return db
    .selectFrom('phishing_campaigns')
    .select(CAMPAIGN_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countCampaigns(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('phishing_campaigns')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account's campaigns among `ids` (a subquery every child read starts from). */
const ofAccount = (db: Db, accountId: number, ids: readonly number[]) =>
  db
    .selectFrom('phishing_campaigns')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', [...ids]);

/** Target groups of the account's campaigns, with their names (null: the group was deleted since). */
export async function groupsOfCampaigns(db: Db, accountId: number, campaignIds: readonly number[]) {
  if (campaignIds.length === 0) return [];
  return db
    .selectFrom('phishing_campaign_groups as cg')
    .leftJoin('groups as g', (j) => j.onRef('g.id', '=', 'cg.group_id').on('g.account_id', '=', accountId))
    .select(['cg.campaign_id', 'cg.group_id', 'g.name'])
    .where('cg.campaign_id', 'in', ofAccount(db, accountId, campaignIds))
    .orderBy('cg.campaign_id')
    .orderBy('cg.group_id')
    .execute();
}

/** The template pool of the account's campaigns, in order, with the launch snapshot. */
export async function templatesOfCampaigns(db: Db, accountId: number, campaignIds: readonly number[]) {
  if (campaignIds.length === 0) return [];
  return db
    .selectFrom('phishing_campaign_templates')
    .select(['campaign_id', 'template_key', 'position', 'snapshot'])
    .where('campaign_id', 'in', ofAccount(db, accountId, campaignIds))
    .orderBy('campaign_id')
    .orderBy('position')
    .execute();
}

/** What a recipients list may be narrowed to. `reported` is a pseudo-status: `reported_at` is set. */
export interface RecipientFilter {
  campaignId: number;
  status?: PhishingRecipientStatus | 'reported';
  employeeId?: number;
  groupId?: number;
  templateKey?: string;
  /** A LIKE pattern over names and address (`foldedContainsPattern`, for `employees.search_text`). */
  pattern?: string;
  /**
   * Only the people who belong to one of these groups (a role limited to groups,
   * docs/roles.md): someone removed from them since the launch is left out.
   */
  groups?: GroupScope;
}

/**
 * The account's campaign, as a scalar subquery: recipients are filtered by it alone, so the
 * planner reads the (campaign, employee) and (campaign, status) indexes rather than every row of
 * the account (the account is still checked in the same statement).
 */
const campaignOfAccount = (db: Db, accountId: number, campaignId: number) =>
  db
    .selectFrom('phishing_campaigns')
    .select('id')
    .where('id', '=', campaignId)
    .where('account_id', '=', accountId);

function filtered(db: Db, accountId: number, f: RecipientFilter) {
  let q = db
    .selectFrom('phishing_recipients as r')
    .where('r.campaign_id', '=', (eb) =>
      eb.selectFrom(campaignOfAccount(db, accountId, f.campaignId).as('c')).select('c.id'),
    );
  if (f.status === 'reported') q = q.where('r.reported_at', 'is not', null);
  else if (f.status !== undefined) q = q.where('r.status', '=', f.status);
  if (f.employeeId !== undefined) q = q.where('r.employee_id', '=', f.employeeId);
  if (f.groups) q = q.where(employeeInScope(f.groups, 'r.employee_id'));
  if (f.templateKey !== undefined) q = q.where('r.template_key', '=', f.templateKey);
  if (f.groupId !== undefined) {
    // group_ids is a JSON array of integers, "[3,7]": look for ",7," in ",3,7,".
    const needle = `%,${f.groupId},%`;
    q = q.where(sql<boolean>`(',' || substr(r.group_ids, 2, length(r.group_ids) - 2) || ',') like ${needle}`);
  }
  if (f.pattern !== undefined) {
    const p = f.pattern;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('employees as se')
          .select(sql`1`.as('one'))
          .whereRef('se.id', '=', 'r.employee_id')
          .where('se.account_id', '=', accountId)
          .where(sql<boolean>`se.search_text like ${p} escape '\\'`),
      ),
    );
  }
  return q;
}

export async function countRecipients(db: Db, accountId: number, f: RecipientFilter): Promise<number> {
  const row = await filtered(db, accountId, f)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const RECIPIENT_COLUMNS = aliased('r', LISTED_RECIPIENT_COLUMNS);
const PAGE_COLUMNS = aliased('p', LISTED_RECIPIENT_COLUMNS);

/** The page's recipients with the people they name (the join runs on the page's rows only). */
function withPeople(db: Db, accountId: number, ids: { id: number }[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('phishing_recipients as p')
    .leftJoin('employees as e', (j) =>
      j.onRef('e.id', '=', 'p.employee_id').on('e.account_id', '=', accountId),
    )
    .select(PAGE_COLUMNS)
    .select(['e.first_name', 'e.last_name', 'e.email'])
    .where('p.account_id', '=', accountId)
    .where(
      'p.id',
      'in',
      ids.map((r) => r.id),
    )
    .orderBy('p.employee_id')
    .execute();
}

/**
 * One page of a campaign's recipients by employee id: first the page's ids alone, which the
 * unique index on (campaign, employee) holds (an offset steps through index entries, not rows),
 * then those rows with their people.
 */
export async function recipientRows(
  db: Db,
  accountId: number,
  f: RecipientFilter,
  limit: number,
  offset: number,
) {
  const ids = await filtered(db, accountId, f)
    .select('r.id')
    .orderBy('r.employee_id')
    .limit(limit)
    .offset(offset)
    .execute();
  return (await withPeople(db, accountId, ids)) as RecipientListRow[];
}

export interface RecipientListRow extends ListedRecipient {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}
export type RecipientRow = RecipientListRow;

/** Recipients after `afterEmployeeId`, in employee order (keyset: the CSV export reads in batches). */
export async function recipientsAfter(
  db: Db,
  accountId: number,
  campaignId: number,
  afterEmployeeId: number,
  limit: number,
  groups: GroupScope = null,
): Promise<RecipientRow[]> {
  const ids = await filtered(db, accountId, { campaignId, groups })
    .select('r.id')
    .where('r.employee_id', '>', afterEmployeeId)
    .orderBy('r.employee_id')
    .limit(limit)
    .execute();
  return (await withPeople(db, accountId, ids)) as RecipientListRow[];
}

/** One employee's recipients across the account's campaigns, newest first, with the campaign's name. */
export function recipientsOfEmployee(
  db: Db,
  accountId: number,
  employeeId: number,
  limit: number,
  offset: number,
  groups: GroupScope = null,
) {
  return db
    .selectFrom('phishing_recipients as r')
    .innerJoin('phishing_campaigns as c', (j) =>
      j.onRef('c.id', '=', 'r.campaign_id').on('c.account_id', '=', accountId),
    )
    .select(RECIPIENT_COLUMNS)
    .select(['c.name as campaign_name', 'c.status as campaign_status'])
    .where('r.account_id', '=', accountId)
    .where('r.employee_id', '=', employeeId)
    .$if(groups !== null, (q) =>
      q.where(campaignInScope(groups ?? [], 'phishing_campaign_groups', 'r.campaign_id')),
    )
    .orderBy('r.planned_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countRecipientsOfEmployee(
  db: Db,
  accountId: number,
  employeeId: number,
  groups: GroupScope = null,
): Promise<number> {
  const row = await db
    .selectFrom('phishing_recipients')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .where('employee_id', '=', employeeId)
    .$if(groups !== null, (q) =>
      q.where(campaignInScope(groups ?? [], 'phishing_campaign_groups', 'phishing_recipients.campaign_id')),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account's employee, if any (the history of an unknown one is a 404). */
export function employeeOfAccount(db: Db, accountId: number, employeeId: number) {
  return db
    .selectFrom('employees')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('id', '=', employeeId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** One recipient of the account with its person, as a result shows it (the report's answer). */
export async function recipientResultRow(db: Db, accountId: number, recipientId: number) {
  const [row] = await withPeople(db, accountId, [{ id: recipientId }]);
  return row;
}
