import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/core/db/database.js';
import type { AnswersShown, CampaignStatus } from '../../src/core/db/schema.js';
import { employeeSearchText } from '../../src/core/search-text.js';
import {
  builtInCourses,
  type TrainingCourse,
} from '../../src/modules/training/courses/courses.lookup.service.js';
import {
  learnerLinkSecret,
  signLearnerToken,
} from '../../src/modules/training/learner/learner.links.service.js';

/**
 * Learner-page fixtures: an employee enrolled in a running campaign, written straight into
 * the database (as a launch leaves it, without mail), with their personal link; and a client
 * that acts as a browser does. Takes any open database, a browser test's server's too.
 */

const DAY_MS = 86_400_000;

export interface EnrollmentOptions {
  /** The account (a new one when absent). */
  accountId?: number;
  /** The campaign's courses, in order (two built-in courses by default). */
  courseKeys?: string[];
  /** The campaign's state (active by default). */
  status?: CampaignStatus;
  campaignName?: string;
  description?: string;
  /** The due date (epoch ms); in two weeks by default, null for none. */
  dueAt?: number | null;
  employee?: { first_name?: string; last_name?: string; email?: string };
  /** When the learner link expires (epoch ms); in 30 days by default. */
  linkExpiresAt?: number;
}

export interface TestEnrollment {
  accountId: number;
  campaignId: number;
  employeeId: number;
  enrollmentId: number;
  /** The learner link's token, and its page's path (`/learn/<token>`). */
  token: string;
  path: string;
}

/** A learner link for an enrollment, signed with the database's secret. */
export async function learnerToken(db: Db, enrollmentId: number, expiresAt = Date.now() + 30 * DAY_MS) {
  return signLearnerToken(await learnerLinkSecret(db), enrollmentId, expiresAt);
}

/** An employee enrolled in a campaign made for the purpose, and their link. */
export async function makeEnrollment(db: Db, options: EnrollmentOptions = {}): Promise<TestEnrollment> {
  const now = Date.now();
  const tag = randomBytes(5).toString('hex');
  const accountId =
    options.accountId ??
    (
      await db
        .insertInto('accounts')
        .values({ name: `Account ${tag}`, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const status = options.status ?? 'active';
  const stopped = status === 'completed' || status === 'archived';
  const campaign = await db
    .insertInto('training_campaigns')
    .values({
      account_id: accountId,
      name: options.campaignName ?? `Campaign ${tag}`,
      description: options.description ?? '',
      status,
      start_at: now - DAY_MS,
      due_at: options.dueAt === undefined ? now + 14 * DAY_MS : options.dueAt,
      launched_at: now - DAY_MS,
      completed_at: stopped ? now : null,
      archived_at: status === 'archived' ? now : null,
      created_at: now - DAY_MS,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const keys = options.courseKeys ?? ['phishing', 'passwords-and-mfa'];
  if (keys.length > 0) {
    await db
      .insertInto('campaign_courses')
      .values(keys.map((course_key, position) => ({ campaign_id: campaign.id, course_key, position })))
      .execute();
  }
  const email = options.employee?.email ?? `ann.${tag}@example.com`;
  const names = {
    first_name: options.employee?.first_name ?? 'Ann',
    last_name: options.employee?.last_name ?? 'Lee',
  };
  const employee = await db
    .insertInto('employees')
    .values({
      account_id: accountId,
      ...names,
      email,
      email_normalized: email.toLowerCase(),
      search_text: employeeSearchText({ ...names, email }),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const enrollment = await db
    .insertInto('enrollments')
    .values({ account_id: accountId, campaign_id: campaign.id, employee_id: employee.id, enrolled_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = await learnerToken(db, enrollment.id, options.linkExpiresAt);
  return {
    accountId,
    campaignId: campaign.id,
    employeeId: employee.id,
    enrollmentId: enrollment.id,
    token,
    path: `/learn/${token}`,
  };
}

/** Requests as a browser makes them on the learner page: plain GETs and url-encoded form posts. */
export function learnerClient(app: FastifyInstance) {
  return {
    get: (url: string) => app.inject({ method: 'GET', url }),
    post: (url: string, form: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      }),
  };
}

export function builtIn(key: string): TrainingCourse {
  const course = builtInCourses().get(key);
  if (!course) throw new Error(`no built-in course ${key}`);
  return course;
}

/** A quiz form with the right answer to every question but the first `wrong` ones. */
export function quizForm(course: TrainingCourse, wrong = 0): Record<string, string> {
  return Object.fromEntries(
    course.quiz.map((q, i) => [`q${i}`, String(i < wrong ? (q.answer + 1) % q.choices.length : q.answer)]),
  );
}

/** Reads every lesson of a course through the page's forms. */
export async function readAllLessons(
  app: FastifyInstance,
  path: string,
  course: TrainingCourse,
): Promise<void> {
  const client = learnerClient(app);
  for (let n = 1; n <= course.lessons.length; n++) {
    const res = await client.post(`${path}/courses/${course.key}/lessons/${n}`);
    if (res.statusCode !== 303) throw new Error(`lesson ${n}: ${res.statusCode}`);
  }
}

/** Sets an account's quiz rules of a course, as an administrator's "Quiz rules" would. */
export async function setQuizRules(
  db: Db,
  accountId: number,
  courseKey: string,
  rules: { max_attempts?: number | null; answers_shown?: AnswersShown },
): Promise<void> {
  const values = {
    max_attempts: rules.max_attempts ?? null,
    answers_shown: rules.answers_shown ?? 'passed_or_last',
    updated_at: Date.now(),
  };
  await db
    .insertInto('course_quiz_rules')
    .values({ account_id: accountId, course_key: courseKey, ...values })
    .onConflict((oc) => oc.columns(['account_id', 'course_key']).doUpdateSet(values))
    .execute();
}
