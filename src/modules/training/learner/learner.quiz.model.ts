import type { Db } from '../../../core/db/database.js';
import { emitTrainingEvents } from '../campaigns/campaigns.events.commands.js';
import { type QuizResult, scoreQuiz } from '../courses/courses.catalogue.service.js';
import type { TrainingCourse } from '../courses/courses.lookup.service.js';
import { bestScore } from '../courses/courses.quiz-rules.model.js';
import { quizRulesOfCourse } from '../courses/courses.quiz-rules.service.js';
import { quizAttemptsUsed, quizLocked } from './learner.errors.model.js';
import {
  type CourseProgress,
  firstUnreadLesson,
  type Learner,
  type LearnerCourse,
  toProgress,
} from './learner.progress.service.js';
import {
  courseProgressRows,
  insertQuizAttempt,
  lockCourseProgress,
  recordEnrollmentResult,
  takeQuizAttempt,
  touchEnrollment,
  updateCourseProgress,
} from './learner.repository.js';

/** Quizzes: reading a submitted form, recording an attempt, and the enrollment's score and completion. */

export interface QuizAnswers {
  /** A choice index per question, null where none (valid) was given. */
  answers: (number | null)[];
  /** 0-based indexes of the questions without an answer. */
  missing: number[];
}

/** Reads a submitted quiz form: field `q<i>` holds the choice index given to question i. */
export function readQuizAnswers(course: TrainingCourse, form: Record<string, unknown>): QuizAnswers {
  const answers = course.quiz.map((question, i) => {
    const value = form[`q${i}`];
    if (typeof value !== 'string' || !/^\d{1,2}$/.test(value)) return null;
    const choice = Number(value);
    return choice < question.choices.length ? choice : null;
  });
  const missing = answers.flatMap((a, i) => (a === null ? [i] : []));
  return { answers, missing };
}

/**
 * The enrollment's score and completion from its courses' progress: the score is the floor of
 * the mean best score once every quiz has been taken; complete once every quiz is passed.
 */
export function summarizeEnrollment(
  courseKeys: string[],
  progress: Map<string, Pick<CourseProgress, 'attempts' | 'bestScore' | 'passedAt'>>,
): { score: number | null; complete: boolean } {
  const taken = courseKeys.map((key) => progress.get(key));
  if (taken.length === 0 || taken.some((p) => !p || p.attempts === 0))
    return { score: null, complete: false };
  const total = taken.reduce((sum, p) => sum + (p?.bestScore ?? 0), 0);
  return {
    score: Math.floor(total / taken.length),
    complete: taken.every((p) => p?.passedAt !== null),
  };
}

/**
 * Scores a quiz attempt at one of the campaign's `courses` and records it (its number, score,
 * pass and time), with the course's score (the best passing attempt, else the best) and first
 * pass, then the enrollment's score and completion, all in one transaction. Every question must
 * be answered. Beyond the attempts the course's rules allow it records nothing and throws
 * `quiz_attempts_used`: the attempt is taken by one conditional update, so two submissions at
 * once cannot both have the last one.
 */
export async function submitQuiz(
  db: Db,
  learner: Learner,
  quiz: { courses: LearnerCourse[]; current: LearnerCourse },
  answers: number[],
  now = Date.now(),
): Promise<QuizResult> {
  const { courses, current } = quiz;
  const { accountId, enrollmentId } = learner;
  const course = current.course;
  const courseKey = course.key;
  if (answers.length !== course.quiz.length) throw new Error('submitQuiz needs one answer per question');
  const result = scoreQuiz(course, answers);
  await db.transaction().execute(async (trx) => {
    await touchEnrollment(trx, accountId, enrollmentId, now);
    const row = await lockCourseProgress(trx, accountId, enrollmentId, courseKey, now);
    if (firstUnreadLesson({ course, progress: toProgress(row) }) !== null) throw quizLocked();
    // The rules as they are now (an administrator may have changed them since the page was read).
    const rules = await quizRulesOfCourse(trx, accountId, courseKey);
    const number = await takeQuizAttempt(trx, accountId, enrollmentId, courseKey, rules.max_attempts);
    if (number === null) throw quizAttemptsUsed();
    await insertQuizAttempt(trx, accountId, {
      enrollmentId,
      courseKey,
      number,
      score: result.score,
      passed: result.passed,
      submittedAt: now,
    });
    await updateCourseProgress(trx, accountId, enrollmentId, courseKey, {
      best_score: bestScore({ bestScore: row.best_score, passed: row.passed_at !== null }, result),
      last_answers: JSON.stringify(answers),
      passed_at: row.passed_at ?? (result.passed ? now : null),
      updated_at: now,
    });
    const rows = await courseProgressRows(trx, accountId, enrollmentId);
    const summary = summarizeEnrollment(
      courses.map((c) => c.course.key),
      new Map(rows.map((r) => [r.course_key, toProgress(r)])),
    );
    await recordEnrollmentResult(trx, accountId, enrollmentId, {
      score: summary.score,
      completedAt: summary.complete ? now : null,
    });
    if (summary.complete && learner.completedAt === null) {
      const completed = { type: 'training.enrollment_completed', ids: [enrollmentId] } as const;
      await emitTrainingEvents(trx, accountId, learner.campaignId, { enrollments: completed }, now);
    }
  });
  return result;
}
