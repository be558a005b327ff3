import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.js';
import { presentCourse, presentCourseSummary } from './courses.presenter.js';
import { createCourse, deleteCourse, getCourse, listCourses, updateCourse } from './courses.service.js';

const Nullable = Type.Union([Timestamp, Type.Null()]);

const CourseSummary = Type.Object({
  key: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  minutes: Type.Integer(),
  pass_mark: Type.Integer(),
  lesson_count: Type.Integer(),
  question_count: Type.Integer(),
  built_in: Type.Boolean(),
  created_at: Nullable,
  updated_at: Nullable,
});

const Course = Type.Composite([
  CourseSummary,
  Type.Object({
    lessons: Type.Array(Type.Object({ title: Type.String(), markdown: Type.String(), html: Type.String() })),
    quiz: Type.Array(
      Type.Object({
        question: Type.String(),
        choices: Type.Array(Type.String()),
        answer: Type.Integer(),
        explanation: Type.String(),
      }),
    ),
  }),
]);

const CourseParams = Type.Object({ courseKey: Type.String({ maxLength: 100 }) });
// Any object: the rules (and their messages, per field path) are the service's, courses.rules.ts.
const CourseBody = Type.Object({}, { additionalProperties: true });

/** The admin API's course routes, relative to `/admin/api/accounts/:accountId`. */
export const coursesAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/courses',
    { schema: { hide: true, response: { 200: Type.Object({ results: Type.Array(CourseSummary) }) } } },
    async (request) => ({
      results: (await listCourses(app.db, request.admin.accountId)).map(presentCourseSummary),
    }),
  );

  app.post(
    '/courses',
    { schema: { hide: true, body: CourseBody, response: { 201: Course } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentCourse(await createCourse(app.db, request.admin.accountId, request.body))),
  );

  app.get(
    '/courses/:courseKey',
    { schema: { hide: true, params: CourseParams, response: { 200: Course } } },
    async (request) =>
      presentCourse(await getCourse(app.db, request.admin.accountId, request.params.courseKey)),
  );

  app.put(
    '/courses/:courseKey',
    { schema: { hide: true, params: CourseParams, body: CourseBody, response: { 200: Course } } },
    async (request) =>
      presentCourse(
        await updateCourse(app.db, request.admin.accountId, request.params.courseKey, request.body),
      ),
  );

  app.delete(
    '/courses/:courseKey',
    { schema: { hide: true, params: CourseParams } },
    async (request, reply) => {
      await deleteCourse(app.db, request.admin.accountId, request.params.courseKey);
      return reply.status(204).send();
    },
  );
};
