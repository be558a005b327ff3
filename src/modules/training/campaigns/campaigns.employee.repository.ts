import { countRows } from '../../../core/db/count.js';
import type { Db } from '../../../core/db/database.js';
import { campaignInScope, type GroupScope } from '../../../core/db/group-scope.js';

/** An employee's enrollments across the account's training campaigns (the employee page). */

export interface EmployeeEnrollmentRow {
  id: number;
  campaign_id: number;
  campaign_name: string;
  campaign_status: string;
  due_at: number | null;
  enrolled_at: number;
  started_at: number | null;
  completed_at: number | null;
  score: number | null;
  last_activity_at: number | null;
}

function enrollmentsOf(db: Db, accountId: number, employeeId: number, groups: GroupScope) {
  return db
    .selectFrom('enrollments as e')
    .innerJoin('training_campaigns as c', (join) =>
      join.onRef('c.id', '=', 'e.campaign_id').onRef('c.account_id', '=', 'e.account_id'),
    )
    .where('e.account_id', '=', accountId)
    .where('e.employee_id', '=', employeeId)
    .where('e.employee_deleted_at', 'is', null)
    .$if(groups !== null, (q) => q.where(campaignInScope(groups ?? [], 'campaign_groups', 'c.id')));
}

export function countEmployeeEnrollments(
  db: Db,
  accountId: number,
  employeeId: number,
  groups: GroupScope = null,
): Promise<number> {
  return countRows(enrollmentsOf(db, accountId, employeeId, groups));
}

/** A page of the employee's enrollments, the latest first. */
export function employeeEnrollmentRows(
  db: Db,
  accountId: number,
  employeeId: number,
  limit: number,
  offset: number,
  groups: GroupScope = null,
): Promise<EmployeeEnrollmentRow[]> {
  return enrollmentsOf(db, accountId, employeeId, groups)
    .select([
      'e.id',
      'e.campaign_id',
      'c.name as campaign_name',
      'c.status as campaign_status',
      'c.due_at',
      'e.enrolled_at',
      'e.started_at',
      'e.completed_at',
      'e.score',
      'e.last_activity_at',
    ])
    .orderBy('e.enrolled_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export interface EnrollmentCourseRow {
  enrollment_id: number;
  course_key: string;
  lessons_read: string;
  attempts: number;
  best_score: number | null;
  passed_at: number | null;
}

/** The progress recorded in each course of these enrollments of the account (courses not begun have none). */
export function enrollmentCourseRows(
  db: Db,
  accountId: number,
  enrollmentIds: number[],
): Promise<EnrollmentCourseRow[]> {
  if (enrollmentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('enrollment_courses as ec')
    .select([
      'ec.enrollment_id',
      'ec.course_key',
      'ec.lessons_read',
      'ec.attempts',
      'ec.best_score',
      'ec.passed_at',
    ])
    .where('ec.enrollment_id', 'in', (eb) =>
      eb
        .selectFrom('enrollments as owner')
        .select('owner.id')
        .where('owner.account_id', '=', accountId)
        .where('owner.id', 'in', enrollmentIds),
    )
    .execute();
}
