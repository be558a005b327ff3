import type { Db } from '../../../core/db/database.js';

/** What an administrator sees of learners' quiz attempts: each one kept, and how many were made. */

export interface QuizAttemptRow {
  enrollment_id: number;
  course_key: string;
  number: number;
  score: number;
  passed: number;
  submitted_at: number;
}

/** The account's recorded attempts of these enrollments, in the order they were made. */
export function quizAttemptsOf(
  db: Db,
  accountId: number,
  enrollmentIds: number[],
): Promise<QuizAttemptRow[]> {
  if (enrollmentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('quiz_attempts')
    .select(['enrollment_id', 'course_key', 'number', 'score', 'passed', 'submitted_at'])
    .where('account_id', '=', accountId)
    .where('enrollment_id', 'in', enrollmentIds)
    .orderBy('enrollment_id')
    .orderBy('submitted_at')
    .orderBy('id')
    .execute();
}

/**
 * How many attempts each of the account's enrollments made at all its quizzes (those made before
 * attempts were kept one by one, migration 0018, are counted too); enrollments with none are absent.
 */
export async function attemptCountsOf(
  db: Db,
  accountId: number,
  enrollmentIds: number[],
): Promise<Map<number, number>> {
  if (enrollmentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('enrollment_courses')
    .select((eb) => ['enrollment_id', eb.fn.sum<number | string>('attempts').as('attempts')])
    .where('enrollment_id', 'in', (eb) =>
      eb
        .selectFrom('enrollments as owner')
        .select('owner.id')
        .where('owner.account_id', '=', accountId)
        .where('owner.id', 'in', enrollmentIds),
    )
    .groupBy('enrollment_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.enrollment_id), Number(r.attempts)]));
}
