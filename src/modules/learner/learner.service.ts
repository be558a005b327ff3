import type { Db } from '../../db/database.js';
import { courseKeysOfCampaigns } from '../campaigns/campaigns.repository.js';
import { findCourses, type TrainingCourse } from '../courses/courses.lookup.js';
import { queueCampaignMessages } from '../mail/mail.queue.js';
import {
  invalidLearnerLink,
  learnerLinkExpired,
  learnerPageNotFound,
  trainingEnded,
} from './learner.errors.js';
import {
  type CourseProgressRow,
  courseProgressRows,
  findEnrollment,
  linkMessageStats,
  lockCourseProgress,
  touchEnrollment,
  updateCourseProgress,
} from './learner.repository.js';
import { learnerLinkSecret, readLearnerToken } from './learner-links.js';

/** The person behind a learner link, and the state of their training. */
export interface Learner {
  enrollmentId: number;
  accountId: number;
  campaignId: number;
  firstName: string;
  campaign: { name: string; description: string; dueAt: number | null };
  startedAt: number | null;
  completedAt: number | null;
  score: number | null;
  /** The link is past its expiry (still correctly signed). */
  expired: boolean;
  /** The campaign was stopped (completed or archived). */
  ended: boolean;
}

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
}

/** At most one new link by email per enrollment in this time. */
export const NEW_LINK_INTERVAL_MS = 10 * 60_000;

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
  const link = readLearnerToken(await learnerLinkSecret(db), token, now);
  if (!link.valid) throw invalidLearnerLink();
  const row = await findEnrollment(db, link.enrollmentId);
  // Draft and scheduled campaigns have no enrollments; one that does is not the learner's yet.
  if (!row || row.campaign_status === 'draft' || row.campaign_status === 'scheduled') {
    throw invalidLearnerLink();
  }
  return {
    enrollmentId: row.id,
    accountId: row.account_id,
    campaignId: row.campaign_id,
    firstName: row.first_name,
    campaign: { name: row.campaign_name, description: row.campaign_description, dueAt: row.due_at },
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
export function canSeeCompletion(learner: Learner): learner is Learner & { completedAt: number } {
  return learner.completedAt !== null && !learner.expired;
}

/** The campaign's courses in order, with the learner's progress in each. */
export async function learnerCourses(db: Db, learner: Learner): Promise<LearnerCourse[]> {
  const keys = (await courseKeysOfCampaigns(db, learner.accountId, [learner.campaignId])).get(learner.campaignId) ?? [];
  const [courses, rows] = await Promise.all([
    findCourses(db, learner.accountId, keys),
    courseProgressRows(db, learner.enrollmentId),
  ]);
  const progress = new Map(rows.map((r) => [r.course_key, r]));
  // A custom course deleted after launch is left out rather than failing the whole page.
  return keys.flatMap((key) => {
    const course = courses.get(key);
    return course ? [{ course, progress: toProgress(progress.get(key)) }] : [];
  });
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
export function firstUnreadLesson({ course, progress }: LearnerCourse): number | null {
  const read = new Set(progress.lessonsRead);
  const index = course.lessons.findIndex((_, i) => !read.has(i));
  return index === -1 ? null : index;
}

/** Records a lesson as read (and the learner as started); repeating it changes nothing more. */
export async function markLessonRead(
  db: Db,
  learner: Learner,
  courseKey: string,
  lessonNumber: string,
  now = Date.now(),
): Promise<LearnerCourse> {
  const { current } = await learnerCourse(db, learner, courseKey);
  const index = lessonIndex(current.course, lessonNumber);
  const progress = await db.transaction().execute(async (trx) => {
    await touchEnrollment(trx, learner.enrollmentId, now);
    const row = await lockCourseProgress(trx, learner.enrollmentId, courseKey, now);
    const read = new Set(integers(row.lessons_read));
    if (read.has(index)) return toProgress(row);
    read.add(index);
    const lessonsRead = JSON.stringify([...read].sort((a, b) => a - b));
    await updateCourseProgress(trx, learner.enrollmentId, courseKey, {
      lessons_read: lessonsRead,
      updated_at: now,
    });
    return toProgress({ ...row, lessons_read: lessonsRead });
  });
  return { course: current.course, progress };
}

/**
 * Queues an email with a fresh link (kind `link`, numbered by how many were asked for), at
 * most one per NEW_LINK_INTERVAL_MS, ahead of bulk mail: the learner is waiting for it. Two
 * requests at once compute the same number, and the queue's unique (enrollment, kind, round)
 * lets only one of them in.
 */
export async function requestNewLink(
  db: Db,
  learner: Learner,
  now = Date.now(),
): Promise<'queued' | 'recent'> {
  if (learner.ended) throw trainingEnded(false);
  const links = await linkMessageStats(db, learner.enrollmentId);
  if (links.latest !== null && now - links.latest < NEW_LINK_INTERVAL_MS) return 'recent';
  const queued = await queueCampaignMessages(db, {
    accountId: learner.accountId,
    campaignId: learner.campaignId,
    kind: 'link',
    round: links.count + 1,
    now,
    enrollmentIds: [learner.enrollmentId],
    waiting: true,
  });
  return queued > 0 ? 'queued' : 'recent';
}
