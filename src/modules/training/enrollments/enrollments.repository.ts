import { sql } from 'kysely';
import { byName } from '../../../core/db/collation.js';
import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import { inactiveEmployees } from '../../../core/db/schema.js';
import { idRows } from '../../../core/db/value-table.js';

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
}

// A deleted employee's enrollments stay (migration 0007) and find no employee: left joins.
function filtered(db: Db, accountId: number, filter: EnrollmentFilter) {
  let query = db
    .selectFrom('enrollments')
    .leftJoin('employees', 'employees.id', 'enrollments.employee_id')
    .where('enrollments.campaign_id', '=', filter.campaignId)
    .where((eb) => eb.exists(ownCampaignId(db, accountId, filter.campaignId)));
  if (filter.enrollmentId !== undefined) query = query.where('enrollments.id', '=', filter.enrollmentId);
  if (filter.enrollmentIds !== undefined) query = query.where('enrollments.id', 'in', filter.enrollmentIds);
  // Past the due date: the enrollment's own (remedial training), else the campaign's.
  const dueAt = sql`coalesce(enrollments.due_at, cast(${filter.dueAt} as bigint))`;
  const pastDue = sql<boolean>`(${dueAt} < ${filter.now})`;
  const notPastDue = sql<boolean>`(${dueAt} is null or ${dueAt} >= ${filter.now})`;
  switch (filter.status) {
    case 'completed':
      query = query.where('enrollments.completed_at', 'is not', null);
      break;
    case 'overdue':
      query = query.where('enrollments.completed_at', 'is', null).where(pastDue);
      break;
    case 'in_progress':
    case 'not_started':
      query = query
        .where('enrollments.completed_at', 'is', null)
        .where(notPastDue)
        .where('enrollments.started_at', filter.status === 'in_progress' ? 'is not' : 'is', null);
      break;
  }
  if (filter.pattern) {
    const p = filter.pattern;
    query = query.where(sql<boolean>`employees.search_text like ${p} escape '\\'`);
  }
  return query;
}

export function countEnrollments(db: Db, accountId: number, filter: EnrollmentFilter): Promise<number> {
  return countRows(filtered(db, accountId, filter));
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

/** One page of enrollments with the employee: by employee id (the API) or by name (the web interface). */
export function listEnrollments(
  db: Db,
  accountId: number,
  filter: EnrollmentFilter,
  order: 'employee' | 'name',
  limit: number,
  offset: number,
): Promise<EnrollmentListRow[]> {
  const query = enrollmentRows(db, accountId, filter);
  const ordered =
    order === 'employee'
      ? query.orderBy('enrollments.employee_id')
      : query
          // Deleted employees (no name) after everyone else, by id, in both databases.
          .orderBy(sql`enrollments.employee_deleted_at is not null`)
          .orderBy(byName(db, 'employees.last_name'))
          .orderBy(byName(db, 'employees.first_name'))
          .orderBy('enrollments.employee_id');
  return ordered.limit(limit).offset(offset).execute();
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
