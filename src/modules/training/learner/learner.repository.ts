import { type Selectable, sql, type Updateable } from 'kysely';
import { type Db, dialectOf } from '../../../core/db/database.js';
import type { CampaignStatus, EnrollmentCoursesTable } from '../../../core/db/schema.js';

/**
 * The learner page's SQL. A learner link names an enrollment and nothing else, so the entry
 * point is the enrollment id (proved by the link's signature); the account, campaign and
 * employee come from that row, and every later query is scoped by that account.
 */

export interface EnrollmentView {
  id: number;
  account_id: number;
  campaign_id: number;
  started_at: number | null;
  completed_at: number | null;
  score: number | null;
  first_name: string;
  campaign_status: CampaignStatus;
  due_at: number | null;
}

export type CourseProgressRow = Selectable<EnrollmentCoursesTable>;

/** An enrollment with what its pages show of the employee and the campaign, whatever its account. */
export function findEnrollmentOfLink(db: Db, enrollmentId: number): Promise<EnrollmentView | undefined> {
  // Cross-account by design: the signed link alone identifies the enrollment, and so its account.
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
      'c.status as campaign_status',
      // An enrollment's own due date (remedial training) comes before its campaign's.
      sql<number | null>`coalesce(e.due_at, c.due_at)`.as('due_at'),
    ])
    .where('e.id', '=', enrollmentId)
    .executeTakeFirst();
}

/** The account's enrollment id, as a subquery evaluated once: enrollment_courses is scoped through it. */
function ownEnrollmentId(db: Db, accountId: number, enrollmentId: number) {
  return db
    .selectFrom('enrollments as owner')
    .select('owner.id')
    .where('owner.account_id', '=', accountId)
    .where('owner.id', '=', enrollmentId);
}

/** Every course the learner has acted in. */
export function courseProgressRows(
  db: Db,
  accountId: number,
  enrollmentId: number,
): Promise<CourseProgressRow[]> {
  return db
    .selectFrom('enrollment_courses')
    .selectAll()
    .where('enrollment_id', '=', ownEnrollmentId(db, accountId, enrollmentId))
    .execute();
}

/** An update of the account's enrollment (its `set` still to come). */
function updateEnrollment(trx: Db, accountId: number, enrollmentId: number) {
  return trx.updateTable('enrollments').where('account_id', '=', accountId).where('id', '=', enrollmentId);
}

/**
 * Records activity on the enrollment (and its start, the first time). Runs first in every
 * progress transaction: the row lock it takes (PostgreSQL) or the write lock (SQLite) makes one
 * learner's concurrent posts, a double click or two tabs, take their turns.
 */
export async function touchEnrollment(
  trx: Db,
  accountId: number,
  enrollmentId: number,
  now: number,
): Promise<void> {
  await updateEnrollment(trx, accountId, enrollmentId)
    .set({ last_activity_at: now, started_at: sql<number>`coalesce(started_at, ${now})` })
    .execute();
}

/** Sets the enrollment's score, and its completion time unless it already has one. */
export async function recordEnrollmentResult(
  trx: Db,
  accountId: number,
  enrollmentId: number,
  result: { score: number | null; completedAt: number | null },
): Promise<void> {
  await updateEnrollment(trx, accountId, enrollmentId)
    .set({
      score: result.score,
      ...(result.completedAt === null
        ? {}
        : { completed_at: sql<number>`coalesce(completed_at, ${result.completedAt})` }),
    })
    .execute();
}

/** The learner's row for one course, created empty if it is not there yet, locked on PostgreSQL. */
export async function lockCourseProgress(
  trx: Db,
  accountId: number,
  enrollmentId: number,
  courseKey: string,
  now: number,
): Promise<CourseProgressRow> {
  await trx
    .insertInto('enrollment_courses')
    .columns(['enrollment_id', 'course_key', 'started_at', 'updated_at'])
    .expression(
      ownEnrollmentId(trx, accountId, enrollmentId).select([
        sql.val(courseKey).as('course_key'),
        // Literals: PostgreSQL would take a parameter in this select list for text.
        sql.lit(now).as('started_at'),
        sql.lit(now).as('updated_at'),
      ]),
    )
    .onConflict((oc) => oc.columns(['enrollment_id', 'course_key']).doNothing())
    .execute();
  return trx
    .selectFrom('enrollment_courses')
    .selectAll()
    .where('enrollment_id', '=', ownEnrollmentId(trx, accountId, enrollmentId))
    .where('course_key', '=', courseKey)
    .$if(dialectOf(trx) === 'postgres', (query) => query.forUpdate())
    .executeTakeFirstOrThrow();
}

/**
 * Counts one more attempt at a course's quiz unless the learner made `maxAttempts` already (null:
 * no limit), in one conditional update: of two submissions at once only those within the
 * allowance get a number. The attempt's number, or null when none is left.
 */
export async function takeQuizAttempt(
  trx: Db,
  accountId: number,
  enrollmentId: number,
  courseKey: string,
  maxAttempts: number | null,
): Promise<number | null> {
  const row = await trx
    .updateTable('enrollment_courses')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('enrollment_id', '=', ownEnrollmentId(trx, accountId, enrollmentId))
    .where('course_key', '=', courseKey)
    .$if(maxAttempts !== null, (query) => query.where('attempts', '<', maxAttempts ?? 0))
    .returning('attempts')
    .executeTakeFirst();
  return row ? Number(row.attempts) : null;
}

/** Records one attempt at a course's quiz (its number is unique per enrollment and course). */
export async function insertQuizAttempt(
  trx: Db,
  accountId: number,
  attempt: {
    enrollmentId: number;
    courseKey: string;
    number: number;
    score: number;
    passed: boolean;
    submittedAt: number;
  },
): Promise<void> {
  await trx
    .insertInto('quiz_attempts')
    .values({
      account_id: accountId,
      enrollment_id: attempt.enrollmentId,
      course_key: attempt.courseKey,
      number: attempt.number,
      score: attempt.score,
      passed: attempt.passed ? 1 : 0,
      submitted_at: attempt.submittedAt,
    })
    .execute();
}

export async function updateCourseProgress(
  trx: Db,
  accountId: number,
  enrollmentId: number,
  courseKey: string,
  values: Updateable<EnrollmentCoursesTable>,
): Promise<void> {
  await trx
    .updateTable('enrollment_courses')
    .set(values)
    .where('enrollment_id', '=', ownEnrollmentId(trx, accountId, enrollmentId))
    .where('course_key', '=', courseKey)
    .execute();
}

/** How many new links were asked for on this enrollment, and when the latest was. */
export async function linkMessageStats(
  db: Db,
  accountId: number,
  enrollmentId: number,
): Promise<{ count: number; latest: number | null }> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.max('created_at').as('latest')])
    .where('account_id', '=', accountId)
    .where('enrollment_id', '=', enrollmentId)
    .where('kind', '=', 'link')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), latest: row.latest === null ? null : Number(row.latest) };
}

/** The kinds of mail that carry the learner's personal link. */
const LINK_KINDS = ['invitation', 'reminder', 'link'] as const;

/**
 * The learner's mail that carries their link: the text of the last one sent (the link in it is
 * the one the learner holds), and whether another is still queued or being sent.
 */
export async function learnerLinkMail(
  db: Db,
  accountId: number,
  enrollmentId: number,
): Promise<{ lastSentText: string | null; pending: boolean }> {
  const [sent, pending] = await Promise.all([
    db
      .selectFrom('messages')
      .select('body_text')
      .where('account_id', '=', accountId)
      .where('enrollment_id', '=', enrollmentId)
      .where('kind', 'in', [...LINK_KINDS])
      .where('status', '=', 'sent')
      .orderBy('sent_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', accountId)
      .where('enrollment_id', '=', enrollmentId)
      .where('kind', 'in', [...LINK_KINDS])
      .where('status', 'in', ['queued', 'sending'])
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { lastSentText: sent?.body_text ?? null, pending: pending !== undefined };
}
