import { describe, expect, it } from 'vitest';
import {
  builtIn,
  makeEnrollment,
  quizForm,
  readAllLessons,
  setQuizRules,
} from '../../../../test/helpers/learner.js';
import { learnerTestApp } from '../../../../test/helpers/learner-app.js';

// A course's quiz rules on the learner pages: attempts allowed, when the right answers are shown
// (the pages must not hold them otherwise), every attempt kept and the score that counts.

const learnerApp = learnerTestApp();
const { client, enrollment } = learnerApp;
const phishing = builtIn('phishing'); // 7 questions, pass mark 80%

const quizPath = (path: string) => `${path}/courses/phishing/quiz`;
const resultPath = (path: string) => `${path}/courses/phishing/result`;
const html = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll("'", '&#39;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');

/** Nothing of the right answers: no marking, no "right answer", no explanation. */
function expectNoAnswers(body: string) {
  expect(body).not.toContain('Right answer');
  expect(body).not.toContain('Correct');
  expect(body).not.toContain('Incorrect');
  expect(body).not.toContain('class="answer');
  for (const q of phishing.quiz) expect(body).not.toContain(html(q.explanation));
}

function expectAnswers(body: string) {
  expect(body).toContain('Your answers');
  for (const q of phishing.quiz) expect(body).toContain(html(q.explanation));
}

async function attempts(enrollmentId: number) {
  return learnerApp.app.db
    .selectFrom('quiz_attempts')
    .select(['course_key', 'number', 'score', 'passed', 'submitted_at'])
    .where('enrollment_id', '=', enrollmentId)
    .orderBy('number')
    .execute();
}

async function ready(rules: Parameters<typeof setQuizRules>[3]) {
  const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
  await setQuizRules(learnerApp.app.db, e.accountId, 'phishing', rules);
  await readAllLessons(learnerApp.app, e.path, phishing);
  return e;
}

describe('a quiz with a bounded number of attempts', () => {
  it('says how many remain, shows the answers only after the last, then refuses another attempt', async () => {
    const e = await ready({ max_attempts: 2 });
    const overview = await client.get(e.path);
    expect(overview.body).toContain('Quiz not taken yet · 2 attempts left');
    const quiz = await client.get(quizPath(e.path));
    expect(quiz.body).toContain('You need 80% to pass, and you have 2 attempts.');
    expect(quiz.body).toContain('The right answers are shown once you pass, or after your last attempt.');
    expect(quiz.body).not.toContain('This is your last attempt');

    await client.post(quizPath(e.path), quizForm(phishing, 3)); // 57%
    const first = await client.get(resultPath(e.path));
    expect(first.body).toContain('Not passed yet');
    expect(first.body).toContain('<strong>1 attempt left</strong> of 2.');
    expect(first.body).toContain('Try again');
    expectNoAnswers(first.body);
    const again = await client.get(quizPath(e.path));
    expect(again.body).toContain('you have 1 of 2 attempts left.');
    expect(again.body).toContain('This is your last attempt.');

    await client.post(quizPath(e.path), quizForm(phishing, 2)); // 71%
    const last = await client.get(resultPath(e.path));
    expect(last.body).toContain('<h1>Not passed</h1>');
    expect(last.body).toContain('That was your last attempt. Your best score, 71%, is recorded.');
    expect(last.body).not.toContain('Try again');
    expectAnswers(last.body); // after the last attempt, by default

    const closed = await client.get(quizPath(e.path));
    expect(closed.statusCode).toBe(200);
    expect(closed.body).toContain('No attempts left');
    expect(closed.body).toContain('You have used all 2 attempts at this quiz.');
    expect(closed.body).not.toContain('<form');
    const refused = await client.post(quizPath(e.path), quizForm(phishing));
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('No attempts left');
    expect(refused.body).toContain('your best score, 71%, is recorded');

    const [row] = await learnerApp.courseRows(e.enrollmentId);
    expect(row).toMatchObject({ attempts: 2, best_score: 71, passed_at: null });
    expect(await enrollment(e.enrollmentId)).toMatchObject({ score: 71, completed_at: null });
    expect(
      (await attempts(e.enrollmentId)).map(({ number, score, passed }) => ({ number, score, passed })),
    ).toEqual([
      { number: 1, score: 57, passed: 0 },
      { number: 2, score: 71, passed: 0 },
    ]);
    const after = await client.get(e.path);
    expect(after.body).toContain('Quiz not passed (best 71%) · no attempts left');
    expect(after.body).toContain(`href="${resultPath(e.path)}">See result`);
  });

  it('keeps one allowance when submissions arrive at once: only the attempts allowed are recorded', async () => {
    const e = await ready({ max_attempts: 2 });
    const responses = await Promise.all(
      [3, 1, 7, 2, 0, 4].map((wrong) => client.post(quizPath(e.path), quizForm(phishing, wrong))),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([303, 303, 409, 409, 409, 409]);
    for (const r of responses.filter((r) => r.statusCode === 409))
      expect(r.body).toContain('No attempts left');
    const rows = await attempts(e.enrollmentId);
    expect(rows.map((r) => r.number)).toEqual([1, 2]);
    const [progress] = await learnerApp.courseRows(e.enrollmentId);
    expect(progress?.attempts).toBe(2);
    // The course's score is the best of the two recorded attempts.
    expect(progress?.best_score).toBe(Math.max(...rows.map((r) => r.score)));
  });

  it('lets a learner who passed retake the quiz within the allowance, keeping the best passing score', async () => {
    const e = await ready({ max_attempts: 3 });
    await client.post(quizPath(e.path), quizForm(phishing, 1)); // 85%, passed
    expect(await enrollment(e.enrollmentId)).toMatchObject({ score: 85 });
    await client.post(quizPath(e.path), quizForm(phishing, 4)); // 42%, failed: changes nothing
    expect(await enrollment(e.enrollmentId)).toMatchObject({ score: 85 });
    const failedRetake = await client.get(resultPath(e.path));
    expect(failedRetake.body).toContain('You passed this quiz before, with a best score of 85%.');
    await client.post(quizPath(e.path), quizForm(phishing)); // 100%
    expect(await enrollment(e.enrollmentId)).toMatchObject({ score: 100 });
    const closed = await client.get(quizPath(e.path));
    expect(closed.body).toContain('You passed it; your score is 100%.');
    expect((await attempts(e.enrollmentId)).map((r) => [r.score, r.passed])).toEqual([
      [85, 1],
      [42, 0],
      [100, 1],
    ]);
  });
});

describe('when the right answers are shown', () => {
  it('by default, never after a failed attempt while attempts are unlimited; once passed', async () => {
    const e = await ready({});
    for (let i = 0; i < 3; i++) {
      await client.post(quizPath(e.path), quizForm(phishing, 5));
      expectNoAnswers((await client.get(resultPath(e.path))).body);
    }
    await client.post(quizPath(e.path), quizForm(phishing));
    expectAnswers((await client.get(resultPath(e.path))).body);
  });

  it('with "never": not after failing, not after passing, not after the last attempt', async () => {
    const e = await ready({ max_attempts: 2, answers_shown: 'never' });
    expect((await client.get(quizPath(e.path))).body).toContain(
      'The right answers are not shown after an attempt; you see your score.',
    );
    await client.post(quizPath(e.path), quizForm(phishing, 5));
    const failed = await client.get(resultPath(e.path));
    expectNoAnswers(failed.body);
    expect(failed.body).toContain('This course does not show the right answers.');
    await client.post(quizPath(e.path), quizForm(phishing, 1));
    const passed = await client.get(resultPath(e.path));
    expect(passed.body).toContain('You passed');
    expectNoAnswers(passed.body);
  });

  it('with "always": after a failed attempt too', async () => {
    const e = await ready({ answers_shown: 'always' });
    await client.post(quizPath(e.path), quizForm(phishing, 5));
    const failed = await client.get(resultPath(e.path));
    expect(failed.body).toContain('Not passed yet');
    expectAnswers(failed.body);
    expect(failed.body).toContain('Right answer: ');
  });

  it('follows the rules as they are now: an allowance lowered below the attempts made closes the quiz', async () => {
    const e = await ready({});
    await client.post(quizPath(e.path), quizForm(phishing, 5));
    await client.post(quizPath(e.path), quizForm(phishing, 4));
    await setQuizRules(learnerApp.app.db, e.accountId, 'phishing', { max_attempts: 1 });
    expect((await client.post(quizPath(e.path), quizForm(phishing))).statusCode).toBe(409);
    expect(await attempts(e.enrollmentId)).toHaveLength(2);
    expectAnswers((await client.get(resultPath(e.path))).body);
  });
});
