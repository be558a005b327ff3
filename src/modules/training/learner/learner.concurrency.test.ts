import { describe, expect, it } from 'vitest';
import { builtIn, makeEnrollment, quizForm, readAllLessons } from '../../../../test/helpers/learner.js';
import { learnerTestApp } from '../../../../test/helpers/learner-app.js';

const learnerApp = learnerTestApp();
const { client, courseRows } = learnerApp;
const phishing = builtIn('phishing');

describe('posts at the same moment (double clicks, two tabs)', () => {
  it('keep every lesson read, each once', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing', 'passwords-and-mfa'] });
    const lessons = [1, 2, 3, 4, 1, 2, 3, 4, 1, 1];
    const responses = await Promise.all([
      ...lessons.map((n) => client.post(`${e.path}/courses/phishing/lessons/${n}`)),
      client.post(`${e.path}/courses/passwords-and-mfa/lessons/2`),
      client.post(`${e.path}/courses/passwords-and-mfa/lessons/2`),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 303));
    const rows = await courseRows(e.enrollmentId);
    expect(Object.fromEntries(rows.map((r) => [r.course_key, JSON.parse(r.lessons_read)]))).toEqual({
      phishing: [0, 1, 2, 3],
      'passwords-and-mfa': [1],
    });
  });

  it('count each quiz submission once, keep the best score, and complete once', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    await readAllLessons(learnerApp.app, e.path, phishing);
    const responses = await Promise.all([
      client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing)),
      client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing, 7)),
      client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing)),
      client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing, 2)),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([303, 303, 303, 303]);
    const [row] = await courseRows(e.enrollmentId);
    expect(row).toMatchObject({ attempts: 4, best_score: 100, lessons_read: '[0,1,2,3]' });
    expect(row?.passed_at).toEqual(expect.any(Number));
    const enrollment = await learnerApp.enrollment(e.enrollmentId);
    expect(enrollment.score).toBe(100);
    expect(enrollment.completed_at).toEqual(expect.any(Number));
    expect(enrollment.completed_at).toBeGreaterThanOrEqual(row?.passed_at ?? 0);
  });
});
