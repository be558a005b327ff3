import { type Selectable, sql, type Updateable } from 'kysely';
import { type Db, dialectOf } from '../../db/database.js';
import type { CampaignStatus, EnrollmentCoursesTable } from '../../db/schema.js';

/**
 * The learner page's SQL. A learner link names an enrollment and nothing else, so the entry
 * point is the enrollment id (proved by the link's signature); the account, campaign and
 * employee come from that row, and every later query is scoped by them.
 */

export interface EnrollmentView {
  id: number;
  account_id: number;
  campaign_id: number;
  started_at: number | null;
  completed_at: number | null;
  score: number | null;
  first_name: string;
  campaign_name: string;
  campaign_description: string;
  campaign_status: CampaignStatus;
  due_at: number | null;
}

export type CourseProgressRow = Selectable<EnrollmentCoursesTable>;

/** An enrollment with what its pages show of the employee and the campaign. */
export function findEnrollment(db: Db, enrollmentId: number): Promise<EnrollmentView | undefined> {
  return db
    .selectFrom('enrollments as e')
    .innerJoin('employees as p', (join) =>
      join.onRef('p.id', '=', 'e.employee_id').onRef('p.account_id', '=', 'e.account_id'),
    )
    .innerJoin('training_campaigns as c', (join) =>
      join.onRef('c.id', '=', 'e.campaign_id').onRef('c.account_id', '=', 'e.account_id'),
    )
    .select([
      'e.id',
      'e.account_id',
      'e.campaign_id',
      'e.started_at',
      'e.completed_at',
      'e.score',
      'p.first_name',
      'c.name as campaign_name',
      'c.description as campaign_description',
      'c.status as campaign_status',
      'c.due_at',
    ])
    .where('e.id', '=', enrollmentId)
    .executeTakeFirst();
}

/** Every course the learner has acted in. */
export function courseProgressRows(db: Db, enrollmentId: number): Promise<CourseProgressRow[]> {
  return db.selectFrom('enrollment_courses').selectAll().where('enrollment_id', '=', enrollmentId).execute();
}

/**
 * Records activity on the enrollment (and its start, the first time). Runs first in every
 * progress transaction: the row lock it takes (PostgreSQL) or the write lock (SQLite) makes one
 * learner's concurrent posts, a double click or two tabs, take their turns.
 */
export async function touchEnrollment(trx: Db, enrollmentId: number, now: number): Promise<void> {
  await trx
    .updateTable('enrollments')
    .set({ last_activity_at: now, started_at: sql<number>`coalesce(started_at, ${now})` })
    .where('id', '=', enrollmentId)
    .execute();
}

/** The learner's row for one course, created empty if it is not there yet, locked on PostgreSQL. */
export async function lockCourseProgress(
  trx: Db,
  enrollmentId: number,
  courseKey: string,
  now: number,
): Promise<CourseProgressRow> {
  await trx
    .insertInto('enrollment_courses')
    .values({ enrollment_id: enrollmentId, course_key: courseKey, started_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['enrollment_id', 'course_key']).doNothing())
    .execute();
  return trx
    .selectFrom('enrollment_courses')
    .selectAll()
    .where('enrollment_id', '=', enrollmentId)
    .where('course_key', '=', courseKey)
    .$if(dialectOf(trx) === 'postgres', (query) => query.forUpdate())
    .executeTakeFirstOrThrow();
}

export async function updateCourseProgress(
  trx: Db,
  enrollmentId: number,
  courseKey: string,
  values: Updateable<EnrollmentCoursesTable>,
): Promise<void> {
  await trx
    .updateTable('enrollment_courses')
    .set(values)
    .where('enrollment_id', '=', enrollmentId)
    .where('course_key', '=', courseKey)
    .execute();
}

/** Sets the enrollment's score, and its completion time unless it already has one. */
export async function recordEnrollmentResult(
  trx: Db,
  enrollmentId: number,
  result: { score: number | null; completedAt: number | null },
): Promise<void> {
  await trx
    .updateTable('enrollments')
    .set({
      score: result.score,
      ...(result.completedAt === null
        ? {}
        : { completed_at: sql<number>`coalesce(completed_at, ${result.completedAt})` }),
    })
    .where('id', '=', enrollmentId)
    .execute();
}

/** How many new links were asked for on this enrollment, and when the latest was. */
export async function linkMessageStats(
  db: Db,
  enrollmentId: number,
): Promise<{ count: number; latest: number | null }> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.max('created_at').as('latest')])
    .where('enrollment_id', '=', enrollmentId)
    .where('kind', '=', 'link')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), latest: row.latest === null ? null : Number(row.latest) };
}
