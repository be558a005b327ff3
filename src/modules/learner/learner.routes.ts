import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../errors.js';
import { toAppError } from '../../http/errors.js';
import {
  errorPage,
  invalidLinkPage,
  linkExpiredPage,
  newLinkSentPage,
  pageNotFoundPage,
  trainingEndedPage,
} from './learner.message-views.js';
import { learnerPaths } from './learner.paths.js';
import { readQuizAnswers, submitQuiz } from './learner.quiz.js';
import { quizLockedPage, quizPage, resultPage } from './learner.quiz-views.js';
import {
  canSeeCompletion,
  firstUnreadLesson,
  learnerCourse,
  learnerCourses,
  lessonIndex,
  markLessonRead,
  NEW_LINK_INTERVAL_MS,
  openActiveLearner,
  openLearner,
  requestNewLink,
  requireActive,
} from './learner.service.js';
import { completionPage, lessonPage, overviewPage } from './learner.views.js';

/**
 * The learner page under `/learn/<token>`: server-rendered HTML and plain forms (POST, then a
 * 303 to a page), so it works without any script. The token is the credential. A GET never
 * changes anything (mail scanners open links); progress is recorded by POSTs only.
 */

const TokenParams = Type.Object({ token: Type.String() });
const CourseParams = Type.Object({ token: Type.String(), courseKey: Type.String() });
const LessonParams = Type.Object({ token: Type.String(), courseKey: Type.String(), lesson: Type.String() });
const NewLinkQuery = Type.Object({ sent: Type.Optional(Type.String()) });
// Every learner route: the token in the address is the learner's credential, never logged.
const LINK = { secretParams: ['token'] };

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}

function pageForError(request: FastifyRequest, err: unknown): { status: number; page: string } {
  const error = toAppError(err, request);
  const token = (request.params as { token?: unknown } | undefined)?.token;
  const paths = typeof token === 'string' ? learnerPaths(token) : null;
  switch (error.code) {
    case 'invalid_learner_link':
      return { status: error.status, page: invalidLinkPage() };
    case 'learner_link_expired':
      if (paths) return { status: error.status, page: linkExpiredPage(paths) };
      break;
    case 'training_ended':
      return { status: error.status, page: trainingEndedPage(paths, error.details?.completed === true) };
    case 'not_found': // no such course or lesson, or no such route
      return { status: error.status, page: pageNotFoundPage(paths) };
  }
  return { status: error.status, page: errorPage(error.status, error.message) };
}

export const learnerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // HTML forms post url-encoded bodies; only these routes accept them (the API stays JSON-only).
  await app.register(formbody);

  app.addHook('onRequest', async (_request, reply) => {
    // The address holds the credential: never cached, never sent on as a referrer, never indexed.
    reply.header('Cache-Control', 'no-store');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Robots-Tag', 'noindex, nofollow');
  });
  app.setErrorHandler((err, request, reply) => {
    const { status, page } = pageForError(request, err);
    if (status >= 500) request.log[status === 503 ? 'warn' : 'error']({ err }, 'learner page failed');
    const headers = toAppError(err, request).headers;
    if (headers) reply.headers(headers);
    return sendPage(reply, status, page);
  });
  app.setNotFoundHandler(async () => {
    throw notFound();
  });

  app.get(
    '/:token',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const learner = await openLearner(app.db, request.params.token);
      const paths = learnerPaths(request.params.token);
      if (learner.ended && canSeeCompletion(learner)) {
        return sendPage(reply, 200, completionPage(paths, learner, await learnerCourses(app.db, learner)));
      }
      requireActive(learner);
      return sendPage(
        reply,
        200,
        overviewPage(paths, learner, await learnerCourses(app.db, learner), Date.now()),
      );
    },
  );

  app.get(
    '/:token/done',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const learner = await openLearner(app.db, request.params.token);
      const paths = learnerPaths(request.params.token);
      if (!(learner.ended && canSeeCompletion(learner))) requireActive(learner);
      if (!canSeeCompletion(learner)) return reply.redirect(paths.overview, 303);
      return sendPage(reply, 200, completionPage(paths, learner, await learnerCourses(app.db, learner)));
    },
  );

  app.get(
    '/:token/courses/:courseKey/lessons/:lesson',
    { schema: { hide: true, params: LessonParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey, lesson } = request.params;
      const learner = await openActiveLearner(app.db, token);
      const { current } = await learnerCourse(app.db, learner, courseKey);
      return sendPage(
        reply,
        200,
        lessonPage(learnerPaths(token), current, lessonIndex(current.course, lesson)),
      );
    },
  );

  app.post(
    '/:token/courses/:courseKey/lessons/:lesson',
    { schema: { hide: true, params: LessonParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey, lesson } = request.params;
      const learner = await openActiveLearner(app.db, token);
      const { course } = await markLessonRead(app.db, learner, courseKey, lesson);
      const paths = learnerPaths(token);
      const next = Number(lesson) + 1;
      return reply.redirect(
        next <= course.lessons.length ? paths.lesson(course.key, next) : paths.quiz(course.key),
        303,
      );
    },
  );

  app.get(
    '/:token/courses/:courseKey/quiz',
    { schema: { hide: true, params: CourseParams }, config: LINK },
    async (request, reply) => {
      const learner = await openActiveLearner(app.db, request.params.token);
      const { current } = await learnerCourse(app.db, learner, request.params.courseKey);
      const paths = learnerPaths(request.params.token);
      if (firstUnreadLesson(current) !== null) return sendPage(reply, 200, quizLockedPage(paths, current));
      return sendPage(reply, 200, quizPage(paths, current));
    },
  );

  app.post(
    '/:token/courses/:courseKey/quiz',
    { schema: { hide: true, params: CourseParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey } = request.params;
      const learner = await openActiveLearner(app.db, token);
      const { current } = await learnerCourse(app.db, learner, courseKey);
      const paths = learnerPaths(token);
      if (firstUnreadLesson(current) !== null) return sendPage(reply, 409, quizLockedPage(paths, current));
      const form = readQuizAnswers(current.course, (request.body ?? {}) as Record<string, unknown>);
      if (form.missing.length > 0) return sendPage(reply, 400, quizPage(paths, current, form));
      await submitQuiz(app.db, learner, courseKey, form.answers as number[]);
      return reply.redirect(paths.result(courseKey), 303);
    },
  );

  app.get(
    '/:token/courses/:courseKey/result',
    { schema: { hide: true, params: CourseParams }, config: LINK },
    async (request, reply) => {
      const learner = await openActiveLearner(app.db, request.params.token);
      const { courses, current, position } = await learnerCourse(app.db, learner, request.params.courseKey);
      const paths = learnerPaths(request.params.token);
      const answers = current.progress.lastAnswers;
      if (current.progress.attempts === 0 || answers === null) {
        return reply.redirect(paths.quiz(current.course.key), 303);
      }
      return sendPage(reply, 200, resultPage(paths, courses, position, answers));
    },
  );

  app.post(
    '/:token/new-link',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const learner = await openLearner(app.db, request.params.token);
      const paths = learnerPaths(request.params.token);
      // A link that still works needs no replacement.
      if (!learner.expired) return reply.redirect(paths.overview, 303);
      const outcome = await requestNewLink(app.db, learner);
      return reply.redirect(`${paths.newLink}?sent=${outcome}`, 303);
    },
  );

  app.get(
    '/:token/new-link',
    { schema: { hide: true, params: TokenParams, querystring: NewLinkQuery }, config: LINK },
    async (request, reply) => {
      const learner = await openLearner(app.db, request.params.token);
      const paths = learnerPaths(request.params.token);
      if (!learner.expired) return reply.redirect(paths.overview, 303);
      if (learner.ended) requireActive(learner);
      return request.query.sent === 'queued' || request.query.sent === 'recent'
        ? sendPage(reply, 200, newLinkSentPage(request.query.sent, NEW_LINK_INTERVAL_MS / 60_000))
        : sendPage(reply, 200, linkExpiredPage(paths));
    },
  );
};
