import { beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './app.js';
import { learnerClient } from './learner.js';

/**
 * A learner-page test file's set-up: the app, built before the file's tests, a client that acts
 * as a browser on it, and reads of what the pages recorded.
 */
export function learnerTestApp() {
  let built: TestApp | undefined;
  beforeAll(async () => {
    built = await buildTestApp();
  });
  const test = () => {
    if (!built) throw new Error('learnerTestApp: the app is built before the tests (beforeAll)');
    return built;
  };
  const app = () => test().app;
  return {
    get app() {
      return app();
    },
    /** Every log line the app wrote. */
    get logs() {
      return test().logs;
    },
    client: {
      get: (url: string) => learnerClient(app()).get(url),
      post: (url: string, form?: Record<string, string>) => learnerClient(app()).post(url, form),
    },
    enrollment: (id: number) =>
      app().db.selectFrom('enrollments').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    /** The learner's rows of enrollment_courses, by course key. */
    courseRows: (enrollmentId: number) =>
      app()
        .db.selectFrom('enrollment_courses')
        .selectAll()
        .where('enrollment_id', '=', enrollmentId)
        .orderBy('course_key')
        .execute(),
  };
}
