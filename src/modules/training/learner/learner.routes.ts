import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../../core/errors.js';
import { acceptBodies, FORM_BODY } from '../../../core/http/bodies.js';
import { toAppError } from '../../../core/http/errors.js';
import {
  errorPage,
  invalidLinkPage,
  linkExpiredPage,
  newLinkSentPage,
  pageNotFoundPage,
  trainingEndedPage,
} from './learner.message-views.presenter.js';
import { type LearnerPaths, learnerPaths } from './learner.paths.model.js';
import { quizClosedPage, quizLockedPage, quizPage, resultPage } from './learner.quiz-views.presenter.js';
import {
  answerQuiz,
  askForNewLink,
  type LearnerStep,
  readLesson,
  showCompletion,
  showHome,
  showLesson,
  showNewLink,
  showQuiz,
  showResult,
} from './learner.service.js';
import { completionPage, lessonPage, overviewPage } from './learner.views.presenter.js';

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

/** The address of the page a step leads to. */
function stepPath(paths: LearnerPaths, step: LearnerStep): string {
  switch (step.to) {
    case 'overview':
      return paths.overview;
    case 'lesson':
      return paths.lesson(step.courseKey, step.lesson);
    case 'quiz':
      return paths.quiz(step.courseKey);
    case 'result':
      return paths.result(step.courseKey);
    case 'new-link':
      return `${paths.newLink}?sent=${step.sent}`;
  }
}

function redirect(reply: FastifyReply, token: string, step: LearnerStep): FastifyReply {
  return reply.redirect(stepPath(learnerPaths(token), step), 303);
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
  // HTML forms post url-encoded bodies, and that is all these pages take (64 KiB at most).
  acceptBodies(app, () => FORM_BODY);
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
      const paths = learnerPaths(request.params.token);
      const shown = await showHome(app.db, request.params.token);
      return sendPage(
        reply,
        200,
        shown.view === 'completion'
          ? completionPage(paths, shown.learner, shown.courses)
          : overviewPage(paths, shown.learner, shown.courses, shown.now),
      );
    },
  );

  app.get(
    '/:token/done',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const { token } = request.params;
      const shown = await showCompletion(app.db, token);
      if ('redirect' in shown) return redirect(reply, token, shown.redirect);
      return sendPage(reply, 200, completionPage(learnerPaths(token), shown.learner, shown.courses));
    },
  );

  app.get(
    '/:token/courses/:courseKey/lessons/:lesson',
    { schema: { hide: true, params: LessonParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey, lesson } = request.params;
      const shown = await showLesson(app.db, token, courseKey, lesson);
      return sendPage(reply, 200, lessonPage(learnerPaths(token), shown.entry, shown.index, shown.brand));
    },
  );

  app.post(
    '/:token/courses/:courseKey/lessons/:lesson',
    { schema: { hide: true, params: LessonParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey, lesson } = request.params;
      return redirect(reply, token, (await readLesson(app.db, token, courseKey, lesson)).redirect);
    },
  );

  app.get(
    '/:token/courses/:courseKey/quiz',
    { schema: { hide: true, params: CourseParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey } = request.params;
      const shown = await showQuiz(app.db, token, courseKey);
      const paths = learnerPaths(token);
      return sendPage(
        reply,
        200,
        shown.view === 'quiz-locked'
          ? quizLockedPage(paths, shown.entry, shown.brand)
          : shown.view === 'quiz-closed'
            ? quizClosedPage(paths, shown.entry, shown.brand)
            : quizPage(paths, shown.entry, undefined, shown.brand),
      );
    },
  );

  app.post(
    '/:token/courses/:courseKey/quiz',
    { schema: { hide: true, params: CourseParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey } = request.params;
      const form = (request.body ?? {}) as Record<string, unknown>;
      const answer = await answerQuiz(app.db, token, courseKey, form);
      if ('redirect' in answer) return redirect(reply, token, answer.redirect);
      const paths = learnerPaths(token);
      switch (answer.view) {
        case 'quiz-locked':
          return sendPage(reply, 409, quizLockedPage(paths, answer.entry, answer.brand));
        case 'quiz-closed':
          return sendPage(reply, 409, quizClosedPage(paths, answer.entry, answer.brand));
        case 'quiz-incomplete':
          return sendPage(reply, 400, quizPage(paths, answer.entry, answer.answers, answer.brand));
      }
    },
  );

  app.get(
    '/:token/courses/:courseKey/result',
    { schema: { hide: true, params: CourseParams }, config: LINK },
    async (request, reply) => {
      const { token, courseKey } = request.params;
      const shown = await showResult(app.db, token, courseKey);
      if ('redirect' in shown) return redirect(reply, token, shown.redirect);
      return sendPage(
        reply,
        200,
        resultPage(learnerPaths(token), shown.courses, shown.position, shown.answers, shown.brand),
      );
    },
  );

  app.post(
    '/:token/new-link',
    { schema: { hide: true, params: TokenParams }, config: LINK },
    async (request, reply) => {
      const { token } = request.params;
      return redirect(reply, token, (await askForNewLink(app.db, token)).redirect);
    },
  );

  app.get(
    '/:token/new-link',
    { schema: { hide: true, params: TokenParams, querystring: NewLinkQuery }, config: LINK },
    async (request, reply) => {
      const { token } = request.params;
      const shown = await showNewLink(app.db, token, request.query.sent);
      if ('redirect' in shown) return redirect(reply, token, shown.redirect);
      return sendPage(
        reply,
        200,
        shown.view === 'new-link-sent'
          ? newLinkSentPage(shown.outcome, shown.intervalMinutes)
          : linkExpiredPage(learnerPaths(token)),
      );
    },
  );
};
