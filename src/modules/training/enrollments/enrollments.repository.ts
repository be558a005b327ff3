import { type RawBuilder, sql } from 'kysely';
import { byName, walkBeatsSort } from '../../../core/db/collation.js';
import { countRows } from '../../../core/db/count.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import { employeeInScope, type GroupScope } from '../../../core/db/group-scope.js';
import { inactiveEmployees } from '../../../core/db/schema.js';
import { idRows } from '../../../core/db/value-table.js';
import type { ListPage, ListWindow } from '../../../core/pagination.js';

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

/** The states a learner's enrollment is shown in. `overdue`: not completed and past the due date. */
export const ENROLLMENT_STATUSES = ['not_started', 'in_progress', 'completed', 'overdue'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/**
 * Enrolls the members of the account's campaign's target groups whose id is in (`after`, `upTo`],
 * once each; already enrolled people are left alone.
 */
export async function enrollGroupMembers(
  trx: Db,
  props: { accountId: number; campaignId: number; now: number; after: number; upTo: number },
): Promise<number> {
  const result = await trx
    .insertInto('enrollments')
    .columns(['account_id', 'campaign_id', 'employee_id', 'enrolled_at'])
    .expression(
      trx
        .selectFrom('campaign_groups as cg')
        // A join, not a subquery: the planner sees the campaign id itself (the launch's hot path).
        .innerJoin('training_campaigns as c', 'c.id', 'cg.campaign_id')
        .innerJoin('group_members as gm', 'gm.group_id', 'cg.group_id')
        .select([
          sql.lit(props.accountId).as('account_id'),
          'cg.campaign_id',
          'gm.employee_id',
          sql.lit(props.now).as('enrolled_at'),
        ])
        .distinct()
        .where('c.account_id', '=', props.accountId)
        .where('cg.campaign_id', '=', props.campaignId)
        .where('gm.employee_id', '>', props.after)
        .where('gm.employee_id', '<=', props.upTo)
        // Deactivated people (SCIM `active: false`) are trained no more (their small partial index).
        .where(sql<boolean>`gm.employee_id not in (${inactiveEmployees(props.accountId)})`)
        .orderBy('gm.employee_id'),
    )
    .onConflict((oc) => oc.columns(['campaign_id', 'employee_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Enrolls these employees (who just joined a target group) in the account's campaign; returns the new enrollments' ids. */
export async function enrollJoiningMembers(
  trx: Db,
  props: { accountId: number; campaignId: number; employeeIds: number[]; now: number; dueAt?: number | null },
): Promise<number[]> {
  const { rows } = await sql<{
    id: number;
  }>`insert into enrollments (account_id, campaign_id, employee_id, enrolled_at, due_at)
      select e.account_id, c.id, e.id, ${props.now}, cast(${props.dueAt ?? null} as bigint)
      from ${idRows(trx, props.employeeIds)} join employees e on e.id = u.id
      join training_campaigns c on c.id = ${props.campaignId} and c.account_id = e.account_id
      where e.account_id = ${props.accountId} and e.active = 1
      on conflict (campaign_id, employee_id) do nothing
      returning id`.execute(trx);
  return rows.map((r) => Number(r.id));
}

export interface EnrollmentFilter {
  campaignId: number;
  /** The campaign's due date: past it, an enrollment not completed is overdue. */
  dueAt: number | null;
  now: number;
  status?: EnrollmentStatus;
  /** A LIKE pattern over names and address (`foldedContainsPattern`, for `employees.search_text`). */
  pattern?: string;
  /** Only this enrollment. */
  enrollmentId?: number;
  /** Only these enrollments (webhook events; at most a slice's worth). */
  enrollmentIds?: number[];
  /**
   * Only the people who belong to one of these groups (a role limited to groups,
   * docs/roles.md): someone removed from them since the launch is left out.
   */
  groups?: GroupScope;
}

/** The filter's conditions on an enrollment (`enrollments`), but its campaign: the ids, the status. */
function conditions(filter: EnrollmentFilter): RawBuilder<boolean>[] {
  const where: RawBuilder<boolean>[] = [];
  if (filter.groups)
    where.push(employeeInScope(filter.groups, 'enrollments.employee_id') as RawBuilder<boolean>);
  if (filter.enrollmentId !== undefined) where.push(sql`enrollments.id = ${filter.enrollmentId}`);
  if (filter.enrollmentIds !== undefined)
    where.push(
      filter.enrollmentIds.length === 0
        ? sql`1 = 0`
        : sql`enrollments.id in (${sql.join(filter.enrollmentIds)})`,
    );
  // Past the due date: the enrollment's own (remedial training), else the campaign's.
  const dueAt = sql`coalesce(enrollments.due_at, cast(${filter.dueAt} as bigint))`;
  const pastDue = sql<boolean>`(${dueAt} < ${filter.now})`;
  const notPastDue = sql<boolean>`(${dueAt} is null or ${dueAt} >= ${filter.now})`;
  switch (filter.status) {
    case 'completed':
      where.push(sql`enrollments.completed_at is not null`);
      break;
    case 'overdue':
      where.push(sql`enrollments.completed_at is null`, pastDue);
      break;
    case 'in_progress':
    case 'not_started':
      where.push(
        sql`enrollments.completed_at is null`,
        notPastDue,
        filter.status === 'in_progress'
          ? sql`enrollments.started_at is not null`
          : sql`enrollments.started_at is null`,
      );
      break;
  }
  return where;
}

/** The employees whose names or address match a search's LIKE pattern (`foldedContainsPattern`). */
function searched(pattern: string): RawBuilder<boolean> {
  return sql<boolean>`employees.search_text like ${pattern} escape '\\'`;
}

/** The campaign's enrollments (none unless it is the account's) that meet the filter's conditions on them alone. */
function campaignEnrollments(db: Db, accountId: number, filter: EnrollmentFilter) {
  let query = db
    .selectFrom('enrollments')
    .where('enrollments.campaign_id', '=', filter.campaignId)
    .where((eb) => eb.exists(ownCampaignId(db, accountId, filter.campaignId)));
  for (const condition of conditions(filter)) query = query.where(condition);
  return query;
}

// A deleted employee's enrollments stay (migration 0007) and find no employee: left joins.
function filtered(db: Db, accountId: number, filter: EnrollmentFilter) {
  const query = campaignEnrollments(db, accountId, filter).leftJoin(
    'employees',
    'employees.id',
    'enrollments.employee_id',
  );
  return filter.pattern ? query.where(searched(filter.pattern)) : query;
}

export function countEnrollments(db: Db, accountId: number, filter: EnrollmentFilter): Promise<number> {
  // Without a search the employees are not read: the campaign's index alone counts them.
  return countRows(
    filter.pattern ? filtered(db, accountId, filter) : campaignEnrollments(db, accountId, filter),
  );
}

export interface EnrollmentListRow {
  id: number;
  employee_id: number;
  /** Null once the employee is deleted (then `employee_deleted_at` says when). */
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  employee_deleted_at: number | null;
  enrolled_at: number;
  started_at: number | null;
  completed_at: number | null;
  score: number | null;
  last_activity_at: number | null;
  /** Its own due date (remedial training); null: the campaign's. */
  due_at: number | null;
  invitation_status: string | null;
  invitation_sent_at: number | null;
}

/**
 * The round of an enrollment's latest invitation (the first is round 0, an administrator's
 * resends 1, 2, …), for joining that one message; `enrollment` is the enrollments table's alias.
 */
function latestInvitationRound(enrollment: 'enrollments' | 'e') {
  return sql<number>`(select max(i.round) from messages i where i.enrollment_id = ${sql.ref(`${enrollment}.id`)} and i.kind = 'invitation')`;
}

/** Enrollments with their employee and latest invitation, filtered (not yet ordered or limited). */
function enrollmentRows(db: Db, accountId: number, filter: EnrollmentFilter) {
  return filtered(db, accountId, filter)
    .leftJoin('messages as m', (join) =>
      join
        .onRef('m.enrollment_id', '=', 'enrollments.id')
        .on('m.kind', '=', 'invitation')
        .on('m.round', '=', latestInvitationRound('enrollments')),
    )
    .select([
      'enrollments.id',
      'enrollments.employee_id',
      'employees.first_name',
      'employees.last_name',
      'employees.email',
      'enrollments.employee_deleted_at',
      'enrollments.enrolled_at',
      'enrollments.started_at',
      'enrollments.completed_at',
      'enrollments.score',
      'enrollments.last_activity_at',
      'enrollments.due_at',
      'm.status as invitation_status',
      'm.sent_at as invitation_sent_at',
    ]);
}

/** One page of enrollments with the employee, by employee id (the Customer API). */
export function listEnrollments(
  db: Db,
  accountId: number,
  filter: EnrollmentFilter,
  limit: number,
  offset: number,
): Promise<EnrollmentListRow[]> {
  return enrollmentRows(db, accountId, filter)
    .orderBy('enrollments.employee_id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * One page of enrollments with the employee by name (the web interface), and how many match:
 * the people by last name, then first name (collation.ts), then the deleted employees'
 * enrollments, which have no name any more, by employee id. The count comes first: it tells
 * SQLite whether to walk the name index or sort (walkBeatsSort). The page's ids come next, then
 * their rows with the latest invitation: one look-up a row of the page, none for those skipped.
 */
export async function readEnrollmentsByName(
  db: Db,
  accountId: number,
  filter: EnrollmentFilter,
  window: ListWindow,
): Promise<ListPage<EnrollmentListRow>> {
  const count = await countEnrollments(db, accountId, filter);
  if (!Number.isSafeInteger(window.offset) || window.offset >= count) return { count, items: [] };
  const ids = await pageIdsByName(db, accountId, filter, window, count);
  if (ids.length === 0) return { count, items: [] };
  const rows = await enrollmentRows(db, accountId, { ...filter, enrollmentIds: ids }).execute();
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return { count, items: ids.flatMap((id) => byId.get(id) ?? []) };
}

/**
 * The people enrolled in the campaign, by name (collation.ts). Walking, they are read along the
 * employees' name index (migration 0020), each looking up its enrollment (the unique (campaign,
 * employee) index), until a page is full, and nothing is sorted: SQLite takes the tables in
 * the order a `cross join` names them. Otherwise SQLite takes the campaign's enrollments and
 * sorts them, as every page once did (at 100,000 enrolled: 201–504 ms of the server's one thread,
 * bench/RESULTS.md). PostgreSQL plans as it sees fit either way.
 */
export function enrolledPeopleByName(
  db: Db,
  accountId: number,
  filter: EnrollmentFilter,
  how: 'walk' | 'sort' = 'walk',
) {
  const tables =
    how === 'walk'
      ? db.selectFrom('employees').crossJoin('enrollments')
      : db.selectFrom('enrollments').crossJoin('employees');
  let people = tables
    .where('employees.account_id', '=', accountId)
    .where('enrollments.campaign_id', '=', filter.campaignId)
    .whereRef('enrollments.employee_id', '=', 'employees.id')
    .where((eb) => eb.exists(ownCampaignId(db, accountId, filter.campaignId)));
  for (const condition of conditions(filter)) people = people.where(condition);
  if (filter.pattern) people = people.where(searched(filter.pattern));
  return people
    .select('enrollments.id')
    .orderBy(byName(db, 'employees.last_name'))
    .orderBy(byName(db, 'employees.first_name'))
    .orderBy('employees.id');
}

/** The ids of one page by name: the people, then the deleted employees' enrollments by employee id. */
async function pageIdsByName(
  db: Db,
  accountId: number,
  filter: EnrollmentFilter,
  { limit, offset }: ListWindow,
  matches: number,
): Promise<number[]> {
  const walk =
    dialectOf(db) === 'postgres' ||
    (await walkBeatsSort({
      matches,
      everyone: () => countAccountEmployees(db, accountId),
      rowsBeforePageEnd: offset + limit,
    }));
  const named = await enrolledPeopleByName(db, accountId, filter, walk ? 'walk' : 'sort')
    .limit(limit)
    .offset(offset)
    .execute();
  const ids = named.map((row) => Number(row.id));
  // A search matches names and addresses, which deleted employees no longer have.
  if (ids.length === limit || filter.pattern) return ids;
  // Past the people: the deleted employees' enrollments, after as many as the people were.
  const peopleCount =
    ids.length > 0
      ? offset + ids.length
      : matches - (await countRows(campaignEnrollments(db, accountId, filter).where(deletedEmployee)));
  const rest = await campaignEnrollments(db, accountId, filter)
    .where(deletedEmployee)
    .select('enrollments.id')
    .orderBy('enrollments.employee_id')
    .limit(limit - ids.length)
    .offset(Math.max(0, offset - peopleCount))
    .execute();
  return [...ids, ...rest.map((row) => Number(row.id))];
}

const deletedEmployee = sql<boolean>`enrollments.employee_deleted_at is not null`;

/** How many employees the account has (its covering index counts them). */
async function countAccountEmployees(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('employees').where('account_id', '=', accountId));
}

/** The next enrollments after an employee id, by employee id (keyset: the CSV export reads in batches). */
export function enrollmentsAfter(
  db: Db,
  accountId: number,
  filter: EnrollmentFilter,
  afterEmployeeId: number,
  limit: number,
): Promise<EnrollmentListRow[]> {
  return enrollmentRows(db, accountId, filter)
    .where('enrollments.employee_id', '>', afterEmployeeId)
    .orderBy('enrollments.employee_id')
    .limit(limit)
    .execute();
}

/** One enrollment of the account's campaign, with the state of its latest invitation; undefined if not this campaign's. */
export async function findCampaignEnrollment(
  db: Db,
  accountId: number,
  campaignId: number,
  enrollmentId: number,
): Promise<
  | {
      id: number;
      completed_at: number | null;
      employee_deleted_at: number | null;
      round: number | null;
      invitation_status: string | null;
    }
  | undefined
> {
  return db
    .selectFrom('enrollments as e')
    .leftJoin('messages as m', (join) =>
      join
        .onRef('m.enrollment_id', '=', 'e.id')
        .on('m.kind', '=', 'invitation')
        .on('m.round', '=', latestInvitationRound('e')),
    )
    .select(['e.id', 'e.completed_at', 'e.employee_deleted_at', 'm.round', 'm.status as invitation_status'])
    .where('e.account_id', '=', accountId)
    .where('e.campaign_id', '=', campaignId)
    .where('e.id', '=', enrollmentId)
    .executeTakeFirst();
}

/**
 * An employee being deleted: their enrollments stay, with their progress and scores, as the
 * record of their training, marked with when the person was deleted (the name and address go
 * with the employee row); their messages go, since each holds their address, name and a
 * personal link, and none queued is sent any more.
 */
export async function keepEnrollmentsOfDeletedEmployee(
  trx: Db,
  accountId: number,
  employeeId: number,
  now: number,
): Promise<void> {
  const enrollments = trx
    .selectFrom('enrollments')
    .select('id')
    .where('account_id', '=', accountId)
    .where('employee_id', '=', employeeId);
  await trx.deleteFrom('messages').where('enrollment_id', 'in', enrollments).execute();
  await trx
    .updateTable('enrollments')
    .set({ employee_deleted_at: now })
    .where('account_id', '=', accountId)
    .where('employee_id', '=', employeeId)
    .execute();
}
