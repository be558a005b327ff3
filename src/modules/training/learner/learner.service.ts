import type { Db } from '../../../core/db/database.js';
import { AppError } from '../../../core/errors.js';
import { linkTo } from '../../../core/http/links.js';
import { queueCampaignMessages } from '../../mail/index.js';
import { trainingEnded } from './learner.errors.model.js';
import type { PageBrand } from './learner.layout.presenter.js';
import { learnerLinkSecret, learnerUrl, readLearnerToken } from './learner.links.service.js';
import { learnerPaths } from './learner.paths.model.js';
import {
  type CompletedLearner,
  canAttempt,
  canSeeCompletion,
  firstUnreadLesson,
  integers,
  type Learner,
  type LearnerCourse,
  learnerCourse,
  learnerCourses,
  lessonIndex,
  openActiveLearner,
  openLearner,
  requireActive,
} from './learner.progress.service.js';
import { type QuizAnswers, readQuizAnswers, submitQuiz } from './learner.quiz.model.js';
import {
  findEnrollmentOfLink,
  learnerLinkMail,
  linkMessageStats,
  lockCourseProgress,
  touchEnrollment,
  updateCourseProgress,
} from './learner.repository.js';

/**
 * The learner pages' rules: what the page at a link shows, what a form records and where the
 * learner goes next. Each function answers one route, with a view to render or a step to
 * redirect to; the routes (learner.routes.ts) only render that answer. The token is the
 * credential, opened here (learner.progress.service.ts: cross-account by design).
 */

/** At most one new link by email per enrollment in this time. */
export const NEW_LINK_INTERVAL_MS = 10 * 60_000;

export type NewLinkOutcome = 'queued' | 'recent';

/** Where the learner goes next: a redirect (303) to that page. */
export type LearnerStep =
  | { to: 'overview' }
  | { to: 'lesson'; courseKey: string; lesson: number }
  | { to: 'quiz'; courseKey: string }
  | { to: 'result'; courseKey: string }
  | { to: 'new-link'; sent: NewLinkOutcome };

type Redirect = { redirect: LearnerStep };
type Completion = { view: 'completion'; learner: CompletedLearner; courses: LearnerCourse[] };

/** The link's own page: the overview of the courses; once the campaign ended, a completion only. */
export async function showHome(
  db: Db,
  token: string,
  now = Date.now(),
): Promise<Completion | { view: 'overview'; learner: Learner; courses: LearnerCourse[]; now: number }> {
  const learner = await openLearner(db, token, now);
  if (learner.ended && canSeeCompletion(learner)) {
    return { view: 'completion', learner, courses: await learnerCourses(db, learner) };
  }
  requireActive(learner);
  return { view: 'overview', learner, courses: await learnerCourses(db, learner), now };
}

/** The completion page, to a learner who completed (after the campaign ended too); the others go to the overview. */
export async function showCompletion(db: Db, token: string): Promise<Completion | Redirect> {
  const learner = await openLearner(db, token);
  // A completion is shown by a link that has not expired, running campaign or not.
  if (canSeeCompletion(learner)) {
    return { view: 'completion', learner, courses: await learnerCourses(db, learner) };
  }
  requireActive(learner);
  return { redirect: { to: 'overview' } };
}

/** A lesson of one of the campaign's courses (its number as in the address). */
export async function showLesson(
  db: Db,
  token: string,
  courseKey: string,
  lessonNumber: string,
): Promise<{ view: 'lesson'; entry: LearnerCourse; index: number; brand: PageBrand }> {
  const learner = await openActiveLearner(db, token);
  const { current } = await learnerCourse(db, learner, courseKey);
  return {
    view: 'lesson',
    entry: current,
    index: lessonIndex(current.course, lessonNumber),
    brand: learner.brand,
  };
}

/**
 * Records a lesson as read (and the learner as started; repeating it changes nothing more),
 * then leads on to the next lesson, or to the quiz after the last.
 */
export async function readLesson(
  db: Db,
  token: string,
  courseKey: string,
  lessonNumber: string,
  now = Date.now(),
): Promise<Redirect> {
  const learner = await openActiveLearner(db, token);
  const { current } = await learnerCourse(db, learner, courseKey);
  const { course } = current;
  const index = lessonIndex(course, lessonNumber);
  const { accountId, enrollmentId } = learner;
  await db.transaction().execute(async (trx) => {
    await touchEnrollment(trx, accountId, enrollmentId, now);
    const row = await lockCourseProgress(trx, accountId, enrollmentId, courseKey, now);
    const read = new Set(integers(row.lessons_read));
    if (read.has(index)) return;
    read.add(index);
    await updateCourseProgress(trx, accountId, enrollmentId, courseKey, {
      lessons_read: JSON.stringify([...read].sort((a, b) => a - b)),
      updated_at: now,
    });
  });
  const next = index + 2;
  return {
    redirect:
      next <= course.lessons.length
        ? { to: 'lesson', courseKey: course.key, lesson: next }
        : { to: 'quiz', courseKey: course.key },
  };
}

/**
 * A course's quiz; while some lesson is unread, the page that says so instead; once every attempt
 * the course allows is used, the page that says that.
 */
export async function showQuiz(
  db: Db,
  token: string,
  courseKey: string,
): Promise<{ view: 'quiz' | 'quiz-locked' | 'quiz-closed'; entry: LearnerCourse; brand: PageBrand }> {
  const learner = await openActiveLearner(db, token);
  const { current } = await learnerCourse(db, learner, courseKey);
  if (!canAttempt(current)) return { view: 'quiz-closed', entry: current, brand: learner.brand };
  return {
    view: firstUnreadLesson(current) === null ? 'quiz' : 'quiz-locked',
    entry: current,
    brand: learner.brand,
  };
}

/**
 * A submitted quiz: recorded when every question is answered, then on to its result; else the
 * form again with the answers given and the questions missing (or the locked page, lessons unread;
 * or the closed page, every attempt used, also when another submission took the last one).
 */
export async function answerQuiz(
  db: Db,
  token: string,
  courseKey: string,
  form: Record<string, unknown>,
): Promise<
  | Redirect
  | { view: 'quiz-locked' | 'quiz-closed'; entry: LearnerCourse; brand: PageBrand }
  | { view: 'quiz-incomplete'; entry: LearnerCourse; answers: QuizAnswers; brand: PageBrand }
> {
  const learner = await openActiveLearner(db, token);
  const quiz = await learnerCourse(db, learner, courseKey);
  const entry = quiz.current;
  const brand = learner.brand;
  if (!canAttempt(entry)) return { view: 'quiz-closed', entry, brand };
  if (firstUnreadLesson(entry) !== null) return { view: 'quiz-locked', entry, brand };
  const answers = readQuizAnswers(entry.course, form);
  if (answers.missing.length > 0) return { view: 'quiz-incomplete', entry, answers, brand };
  try {
    await submitQuiz(db, learner, quiz, answers.answers as number[]);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'quiz_attempts_used') throw err;
    return { view: 'quiz-closed', entry: (await learnerCourse(db, learner, courseKey)).current, brand };
  }
  return { redirect: { to: 'result', courseKey: entry.course.key } };
}

/** The last attempt at a course's quiz; before any, the quiz itself. */
export async function showResult(
  db: Db,
  token: string,
  courseKey: string,
): Promise<
  | Redirect
  | { view: 'result'; courses: LearnerCourse[]; position: number; answers: number[]; brand: PageBrand }
> {
  const learner = await openActiveLearner(db, token);
  const { courses, current, position } = await learnerCourse(db, learner, courseKey);
  const answers = current.progress.lastAnswers;
  if (current.progress.attempts === 0 || answers === null) {
    return { redirect: { to: 'quiz', courseKey: current.course.key } };
  }
  return { view: 'result', courses, position, answers, brand: learner.brand };
}

/**
 * "Email me a new link", for an expired link (one that still works needs no replacement):
 * queues an email with a fresh link (kind `link`, numbered by how many were asked for), at
 * most one per NEW_LINK_INTERVAL_MS, ahead of bulk mail: the learner is waiting for it. Two
 * requests at once compute the same number, and the queue's unique (enrollment, kind, round)
 * lets only one of them in.
 */
export async function askForNewLink(db: Db, token: string, now = Date.now()): Promise<Redirect> {
  const learner = await openLearner(db, token, now);
  if (!learner.expired) return { redirect: { to: 'overview' } };
  if (learner.ended) throw trainingEnded(false);
  const links = await linkMessageStats(db, learner.accountId, learner.enrollmentId);
  if (links.latest !== null && now - links.latest < NEW_LINK_INTERVAL_MS) {
    return { redirect: { to: 'new-link', sent: 'recent' } };
  }
  const queued = await queueCampaignMessages(db, {
    accountId: learner.accountId,
    campaignId: learner.campaignId,
    kind: 'link',
    round: links.count + 1,
    now,
    enrollmentIds: [learner.enrollmentId],
    waiting: true,
  });
  return { redirect: { to: 'new-link', sent: queued > 0 ? 'queued' : 'recent' } };
}

/** The page of an expired link: the offer of a new link, or what became of the request (`sent`). */
export async function showNewLink(
  db: Db,
  token: string,
  sent: string | undefined,
): Promise<
  | Redirect
  | { view: 'link-expired' }
  | { view: 'new-link-sent'; outcome: NewLinkOutcome; intervalMinutes: number }
> {
  const learner = await openLearner(db, token);
  if (!learner.expired) return { redirect: { to: 'overview' } };
  if (learner.ended) requireActive(learner);
  return sent === 'queued' || sent === 'recent'
    ? { view: 'new-link-sent', outcome: sent, intervalMinutes: NEW_LINK_INTERVAL_MS / 60_000 }
    : { view: 'link-expired' };
}

/**
 * What the learner already holds for an enrollment of the account, for a page that points to
 * their training without being their link (the phishing teachable page): the personal link of
 * the last mail sent to them while it is valid (the very link, never a new one or a longer-lived
 * one: nothing per link is stored, and the mail is the record of what they were given); a mail on
 * its way; or, once that link expired, the address of "Email me a new link" for it (the learner
 * page's own form and rules); `none` when the training is not running or no link was ever sent.
 */
export type LearnerLinkOffer =
  | { state: 'valid'; url: string }
  | { state: 'on-its-way' }
  | { state: 'expired'; newLinkAction: string }
  | { state: 'none' };

/** A learner link's token as it appears in a mail (`/learn/<token>`); its signature is checked after. */
const TOKEN_IN_MAIL = /\/learn\/([1-9]\d{0,15}\.[0-9a-z]{1,12}\.[\w-]{43})(?![\w-])/;

export async function learnerLinkOffer(
  db: Db,
  accountId: number,
  enrollmentId: number,
  options: { baseUrl: string; now?: number },
): Promise<LearnerLinkOffer> {
  const now = options.now ?? Date.now();
  const enrollment = await findEnrollmentOfLink(db, enrollmentId);
  if (enrollment?.account_id !== accountId || enrollment.campaign_status !== 'active')
    return { state: 'none' };
  const mail = await learnerLinkMail(db, accountId, enrollmentId);
  const token = TOKEN_IN_MAIL.exec(mail.lastSentText ?? '')?.[1];
  const link = token ? readLearnerToken(await learnerLinkSecret(db), token, now) : { valid: false as const };
  const held = token !== undefined && link.valid && link.enrollmentId === enrollmentId ? token : null;
  if (held !== null && link.valid && !link.expired)
    return { state: 'valid', url: learnerUrl(options.baseUrl, held) };
  if (mail.pending) return { state: 'on-its-way' };
  if (held !== null)
    return { state: 'expired', newLinkAction: linkTo(options.baseUrl, learnerPaths(held).newLink) };
  return { state: 'none' };
}
