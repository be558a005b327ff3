import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import {
  AccountParams,
  Body,
  NoContent,
  NullableTimestamp,
  PathId,
  responses,
} from '../../../core/http/admin-schemas.js';
import { presentCourse, presentCourseSummary, presentQuizRules } from './courses.presenter.js';
import { ANSWERS_SHOWN, type AnswersShown, QUIZ_RULE_LIMITS } from './courses.quiz-rules.model.js';
import { setQuizRules } from './courses.quiz-rules.service.js';
import { createCourse, deleteCourse, getCourse, listCourses, updateCourse } from './courses.service.js';

const MaxAttempts = Type.Union([Type.Integer(), Type.Null()], {
  description: `Attempts a learner has at the quiz, ${QUIZ_RULE_LIMITS.max_attempts.min} to ${QUIZ_RULE_LIMITS.max_attempts.max}; null: unlimited.`,
});
const AnswersShownField = Type.Unsafe<AnswersShown>({
  type: 'string',
  enum: [...ANSWERS_SHOWN],
  description:
    'When a learner sees the right answers and explanations after an attempt: `passed_or_last` once passed or after the last attempt (the default), `always`, or `never`.',
});

const QuizRules = Type.Object(
  { max_attempts: MaxAttempts, answers_shown: AnswersShownField },
  { title: 'QuizRules' },
);

const CourseSummary = Type.Object(
  {
    key: Type.String({ description: 'A built-in slug (`phishing`) or `custom-<id>`.' }),
    title: Type.String(),
    summary: Type.String(),
    minutes: Type.Integer(),
    pass_mark: Type.Integer({ description: 'Whole percent of right answers needed to pass.' }),
    lesson_count: Type.Integer(),
    question_count: Type.Integer(),
    built_in: Type.Boolean(),
    max_attempts: MaxAttempts,
    answers_shown: AnswersShownField,
    created_at: NullableTimestamp,
    updated_at: NullableTimestamp,
  },
  { title: 'CourseSummary' },
);

const QuizQuestion = Type.Object(
  {
    question: Type.String(),
    choices: Type.Array(Type.String()),
    answer: Type.Integer({ description: 'Index of the right choice.' }),
    explanation: Type.String(),
  },
  { title: 'QuizQuestion' },
);

const Course = Type.Composite(
  [
    CourseSummary,
    Type.Object({
      lessons: Type.Array(
        Type.Object({
          title: Type.String(),
          markdown: Type.String({ description: 'The source.' }),
          html: Type.String({ description: 'As the learner sees it (rendered with raw HTML off).' }),
        }),
      ),
      quiz: Type.Array(QuizQuestion),
    }),
  ],
  { title: 'Course' },
);

const CourseParams = Type.Object({ accountId: PathId, courseKey: Type.String({ maxLength: 100 }) });

// The shape; the values' rules are the service's (courses.model.ts, limits in GET /admin/api/limits).
// Inside lessons and questions every field is optional here so that the service can name a
// missing one by its path (`lessons[1].markdown`), which the editor shows on that input.
const CourseBody = Body({
  max_attempts: Type.Optional(MaxAttempts),
  answers_shown: Type.Optional(Type.String({ description: AnswersShownField.description })),
  title: Type.String(),
  summary: Type.Optional(Type.String()),
  minutes: Type.Integer(),
  pass_mark: Type.Integer(),
  lessons: Type.Array(
    Type.Object(
      { title: Type.Optional(Type.String()), markdown: Type.Optional(Type.String()) },
      { additionalProperties: false, description: 'Both fields are required (checked by the service).' },
    ),
  ),
  quiz: Type.Array(
    Type.Object(
      {
        question: Type.Optional(Type.String()),
        choices: Type.Optional(Type.Array(Type.String())),
        answer: Type.Optional(Type.Integer()),
        explanation: Type.Optional(Type.String()),
      },
      {
        additionalProperties: false,
        description: '`question`, `choices` and `answer` are required (checked by the service).',
      },
    ),
  ),
});

// The values' rules are the service's (courses.quiz-rules.model.ts), so a wrong one is a field error.
const QuizRulesBody = Body({ max_attempts: MaxAttempts, answers_shown: Type.String({ maxLength: 40 }) });

const tags = ['Courses'];

/** The admin API's course routes, relative to `/admin/api/accounts/:accountId`. */
export const coursesAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/courses',
    {
      config: { adminPermission: 'training:read' },
      schema: {
        tags,
        summary: "Built-in courses first, then the account's by title",
        params: AccountParams,
        response: responses({ 200: Type.Object({ results: Type.Array(CourseSummary) }) }),
      },
    },
    async (request) => ({
      results: (await listCourses(app.db, accountOf(request).accountId)).map(presentCourseSummary),
    }),
  );

  app.post(
    '/courses',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary: 'Creates a course of the account (`custom-<id>`)',
        params: AccountParams,
        body: CourseBody,
        response: responses({ 201: Course }),
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentCourse(await createCourse(app.db, accountOf(request).accountId, request.body))),
  );

  app.get(
    '/courses/:courseKey',
    {
      config: { adminPermission: 'training:read' },
      schema: { tags, summary: 'One course', params: CourseParams, response: responses({ 200: Course }) },
    },
    async (request) =>
      presentCourse(await getCourse(app.db, accountOf(request).accountId, request.params.courseKey)),
  );

  app.put(
    '/courses/:courseKey',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary: 'Replaces a course of the account; a built-in one is a 409',
        params: CourseParams,
        body: CourseBody,
        response: responses({ 200: Course }),
      },
    },
    async (request) =>
      presentCourse(
        await updateCourse(app.db, accountOf(request).accountId, request.params.courseKey, request.body),
      ),
  );

  app.put(
    '/courses/:courseKey/quiz-rules',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary:
          "Sets the account's quiz rules of a course, built-in or its own: attempts allowed and when the right answers are shown",
        params: CourseParams,
        body: QuizRulesBody,
        response: responses({ 200: QuizRules }),
      },
    },
    async (request) =>
      presentQuizRules(
        await setQuizRules(app.db, accountOf(request).accountId, request.params.courseKey, request.body),
      ),
  );

  app.delete(
    '/courses/:courseKey',
    {
      config: { adminPermission: 'training:write' },
      schema: {
        tags,
        summary: 'Deletes a course of the account; a built-in one or one a campaign uses is a 409',
        params: CourseParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await deleteCourse(app.db, accountOf(request).accountId, request.params.courseKey);
      return reply.status(204).send();
    },
  );
};
