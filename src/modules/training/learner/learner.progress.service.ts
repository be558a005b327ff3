import type { Db } from '../../../core/db/database.js';
import { brandingOf } from '../../access/index.js';
import { coursesOfCampaigns, type TrainingCourse } from '../courses/courses.lookup.service.js';
import { attemptsLeft, DEFAULT_QUIZ_RULES, type QuizRules } from '../courses/courses.quiz-rules.model.js';
import { quizRulesOf } from '../courses/courses.quiz-rules.service.js';
import {
  invalidLearnerLink,
  learnerLinkExpired,
  learnerPageNotFound,
  trainingEnded,
} from './learner.errors.model.js';
import type { PageBrand } from './learner.layout.presenter.js';
import { learnerLinkSecret, readLearnerToken } from './learner.links.service.js';
import { type CourseProgressRow, courseProgressRows, findEnrollmentOfLink } from './learner.repository.js';

/** The learner behind a link, their campaign's courses and their progress in each. */

/** The person behind a learner link, and the state of their training. */
export interface Learner {
  enrollmentId: number;
  accountId: number;
  campaignId: number;
  firstName: string;
  /** Its due date: the enrollment's own (remedial training), else the campaign's. */
  campaign: { dueAt: number | null };
  /** Who the training is from, as the employee knows them (never the campaign's internal name). */
  brand: PageBrand;
  startedAt: number | null;
  completedAt: number | null;
  score: number | null;
  /** The link is past its expiry (still correctly signed). */
  expired: boolean;
  /** The campaign was stopped (completed or archived). */
  ended: boolean;
}

/** A learner who has completed the training. */
export type CompletedLearner = Learner & { completedAt: number };

export interface CourseProgress {
  /** Lesson indexes read (0-based), ascending. */
  lessonsRead: number[];
  attempts: number;
  bestScore: number | null;
  /** The choice index given to each question in the last attempt. */
  lastAnswers: number[] | null;
  passedAt: number | null;
}

export interface LearnerCourse {
  course: TrainingCourse;
  progress: CourseProgress;
  /** The account's quiz rules of the course. */
  rules: QuizRules;
}

const NO_PROGRESS: CourseProgress = {
  lessonsRead: [],
  attempts: 0,
  bestScore: null,
  lastAnswers: null,
  passedAt: null,
};

/** A JSON array of integers as stored; anything else reads as empty. */
export function integers(json: string | null): number[] {
  if (json === null) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v)) : [];
  } catch {
    return [];
  }
}

export function toProgress(row: CourseProgressRow | undefined): CourseProgress {
  if (!row) return NO_PROGRESS;
  return {
    lessonsRead: integers(row.lessons_read).sort((a, b) => a - b),
    attempts: row.attempts,
    bestScore: row.best_score,
    lastAnswers: row.last_answers === null ? null : integers(row.last_answers),
    passedAt: row.passed_at,
  };
}

/**
 * The learner a link belongs to. An altered or made-up link, or one whose enrollment is gone,
 * is simply not valid; an expired one or a stopped campaign is reported for the page to handle.
 */
export async function openLearner(db: Db, token: string, now = Date.now()): Promise<Learner> {
  // Cross-account by design: the token alone identifies the learner; all after is scoped by their account.
  const link = readLearnerToken(await learnerLinkSecret(db), token, now);
  if (!link.valid) throw invalidLearnerLink();
  const row = await findEnrollmentOfLink(db, link.enrollmentId);
  // Draft and scheduled campaigns have no enrollments; one that does is not the learner's yet.
  if (!row || row.campaign_status === 'draft' || row.campaign_status === 'scheduled') {
    throw invalidLearnerLink();
  }
  return {
    enrollmentId: row.id,
    accountId: row.account_id,
    campaignId: row.campaign_id,
    firstName: row.first_name,
    campaign: { dueAt: row.due_at },
    brand: await brandingOf(db, row.account_id),
    startedAt: row.started_at,
    completedAt: row.completed_at,
    score: row.score,
    expired: link.expired,
    ended: row.campaign_status !== 'active',
  };
}

/** Pages that show or record training need a running campaign and a link that has not expired. */
export function requireActive(learner: Learner): void {
  if (learner.ended) throw trainingEnded(canSeeCompletion(learner));
  if (learner.expired) throw learnerLinkExpired();
}

/** The learner of a link that may show or record training now (requireActive). */
export async function openActiveLearner(db: Db, token: string): Promise<Learner> {
  const learner = await openLearner(db, token);
  requireActive(learner);
  return learner;
}

/** A learner who completed keeps their completion page, after the campaign ends too (not with an expired link). */
export function canSeeCompletion(learner: Learner): learner is CompletedLearner {
  return learner.completedAt !== null && !learner.expired;
}

/** The campaign's courses in order, with the learner's progress in each. */
export async function learnerCourses(db: Db, learner: Learner): Promise<LearnerCourse[]> {
  const { accountId, campaignId, enrollmentId } = learner;
  const [courses, rows] = await Promise.all([
    coursesOfCampaigns(db, accountId, [campaignId]),
    courseProgressRows(db, accountId, enrollmentId),
  ]);
  const progress = new Map(rows.map((r) => [r.course_key, r]));
  const listed = courses.get(campaignId) ?? [];
  const rules = await quizRulesOf(
    db,
    accountId,
    listed.map((c) => c.key),
  );
  // A custom course deleted after launch is left out rather than failing the whole page.
  return listed.flatMap(({ key, course }) =>
    course
      ? [{ course, progress: toProgress(progress.get(key)), rules: rules.get(key) ?? DEFAULT_QUIZ_RULES }]
      : [],
  );
}

/** One of the campaign's courses, with all of them (for "next course"); 404 for any other key. */
export async function learnerCourse(
  db: Db,
  learner: Learner,
  courseKey: string,
): Promise<{ courses: LearnerCourse[]; current: LearnerCourse; position: number }> {
  const courses = await learnerCourses(db, learner);
  const position = courses.findIndex((c) => c.course.key === courseKey);
  const current = courses[position];
  if (!current) throw learnerPageNotFound();
  return { courses, current, position };
}

/** A lesson's number in a URL (1-based) as an index into the course; 404 when out of range. */
export function lessonIndex(course: TrainingCourse, lessonNumber: string): number {
  if (!/^[1-9]\d{0,5}$/.test(lessonNumber)) throw learnerPageNotFound();
  const index = Number(lessonNumber) - 1;
  if (index >= course.lessons.length) throw learnerPageNotFound();
  return index;
}

/** The first lesson not read yet (0-based), or null when all are. */
export function firstUnreadLesson({
  course,
  progress,
}: Pick<LearnerCourse, 'course' | 'progress'>): number | null {
  const read = new Set(progress.lessonsRead);
  const index = course.lessons.findIndex((_, i) => !read.has(i));
  return index === -1 ? null : index;
}

/** Whether the course's quiz rules leave the learner an attempt. */
export function canAttempt({ rules, progress }: Pick<LearnerCourse, 'rules' | 'progress'>): boolean {
  return attemptsLeft(rules, progress.attempts) !== 0;
}
