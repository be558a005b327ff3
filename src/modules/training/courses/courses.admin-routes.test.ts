import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount } from '../../../../test/helpers/factories.js';

// The admin API's course routes: the built-in catalogue beside an account's own courses.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

const COURSE = {
  title: 'Our travel policy',
  summary: 'What to do with laptops abroad.',
  minutes: 10,
  pass_mark: 50,
  lessons: [
    {
      title: 'Before you fly',
      markdown: '## Pack light\n\n<script>alert(1)</script> [x](javascript:alert(1))',
    },
  ],
  quiz: [
    {
      question: 'Border agents ask for your laptop. You…',
      choices: ['refuse', 'call security'],
      answer: 1,
      explanation: 'Call us.',
    },
  ],
};

async function setup() {
  const mine = await makeAccount(t.app);
  const theirs = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: mine.id });
  const theirAdmin = await signInAs(t.app, { role: 'account_admin', accountId: theirs.id });
  return { admin, theirAdmin, base: `/accounts/${mine.id}`, theirBase: `/accounts/${theirs.id}` };
}

describe('courses', () => {
  it('lists the six built-in courses for every account', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'GET', `${base}/courses`);
    expect(res.statusCode).toBe(200);
    const keys = res.json().results.map((c: { key: string }) => c.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'phishing',
        'passwords-and-mfa',
        'social-engineering',
        'safe-browsing',
        'sensitive-data',
        'reporting-incidents',
      ]),
    );
    const phishing = await send(admin, 'GET', `${base}/courses/phishing`);
    expect(phishing.json()).toMatchObject({ key: 'phishing', built_in: true, pass_mark: 80 });
    expect(phishing.json().lessons[0].html).toContain('<h');
  });

  it('creates, shows, changes and deletes an own course; another account cannot see it', async () => {
    const { admin, theirAdmin, base, theirBase } = await setup();
    const created = await send(admin, 'POST', `${base}/courses`, COURSE);
    expect(created.statusCode, created.body).toBe(201);
    const { key } = created.json();
    expect(key).toMatch(/^custom-\d+$/);
    expect(created.json()).toMatchObject({ built_in: false, lesson_count: 1, question_count: 1 });
    // Rendered safely: raw HTML is text and the javascript: link is not a link.
    const html = created.json().lessons[0].html;
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('href="javascript:');

    expect((await send(theirAdmin, 'GET', `${theirBase}/courses/${key}`)).json()).toEqual({
      error: 'Course not found',
      status: 404,
      ...coded('course_not_found'),
    });
    expect(
      (await send(theirAdmin, 'GET', `${theirBase}/courses`))
        .json()
        .results.map((c: { key: string }) => c.key),
    ).not.toContain(key);

    const changed = await send(admin, 'PUT', `${base}/courses/${key}`, {
      ...COURSE,
      title: 'Travel, updated',
    });
    expect(changed.json().title).toBe('Travel, updated');
    const theirs = await send(theirAdmin, 'PUT', `${theirBase}/courses/${key}`, COURSE);
    expect(theirs.statusCode).toBe(404);

    const campaign = await send(admin, 'POST', `${base}/campaigns`, { name: 'Travel', course_keys: [key] });
    expect(campaign.json().courses).toEqual([{ key, title: 'Travel, updated', built_in: false }]);
    const used = await send(admin, 'DELETE', `${base}/courses/${key}`);
    expect(used.json()).toEqual({
      error: 'This course is used by "Travel"; it cannot be deleted',
      status: 409,
      ...coded('course_in_use'),
    });
    await send(admin, 'DELETE', `${base}/campaigns/${campaign.json().id}`);
    expect((await send(admin, 'DELETE', `${base}/courses/${key}`)).statusCode).toBe(204);
    expect((await send(admin, 'GET', `${base}/courses/${key}`)).statusCode).toBe(404);
  });

  it('names every problem of a course by its path', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'POST', `${base}/courses`, {
      title: '',
      minutes: 0,
      pass_mark: 101,
      lessons: [{ title: 'One' }],
      quiz: [{ question: 'Q', choices: ['only one'], answer: 3 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual({
      title: ['must not be empty'],
      minutes: ['must be a whole number from 1 to 600'],
      pass_mark: ['must be a whole number from 1 to 100'],
      'lessons[0].markdown': ['is required'],
      'quiz[0].choices': ['must have at least 2 choices'],
      'quiz[0].answer': ['must be a whole number from 0 to 0'],
    });
  });

  it('keeps the built-in courses as they are', async () => {
    const { admin, base } = await setup();
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await send(
        admin,
        method,
        `${base}/courses/phishing`,
        method === 'PUT' ? COURSE : undefined,
      );
      expect(res.json()).toEqual({
        error: 'Built-in courses cannot be changed; copy it into a course of your own',
        status: 409,
        ...coded('course_built_in'),
      });
    }
  });
});

describe('quiz rules', () => {
  it('are unlimited attempts and answers once passed or after the last attempt until set', async () => {
    const { admin, base } = await setup();
    const list = (await send(admin, 'GET', `${base}/courses`)).json().results;
    for (const course of list) {
      expect(course).toMatchObject({ max_attempts: null, answers_shown: 'passed_or_last' });
    }
    const created = await send(admin, 'POST', `${base}/courses`, COURSE);
    expect(created.json()).toMatchObject({ max_attempts: null, answers_shown: 'passed_or_last' });
  });

  it("set a built-in course's rules for this account only", async () => {
    const { admin, theirAdmin, base, theirBase } = await setup();
    const set = await send(admin, 'PUT', `${base}/courses/phishing/quiz-rules`, {
      max_attempts: 3,
      answers_shown: 'never',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ max_attempts: 3, answers_shown: 'never' });
    expect((await send(admin, 'GET', `${base}/courses/phishing`)).json()).toMatchObject({
      max_attempts: 3,
      answers_shown: 'never',
    });
    const listed = (await send(admin, 'GET', `${base}/courses`)).json().results;
    expect(listed.find((c: { key: string }) => c.key === 'phishing')).toMatchObject({ max_attempts: 3 });
    // Another account's built-in course keeps the defaults.
    expect((await send(theirAdmin, 'GET', `${theirBase}/courses/phishing`)).json()).toMatchObject({
      max_attempts: null,
      answers_shown: 'passed_or_last',
    });
    // Back to unlimited.
    const unlimited = await send(admin, 'PUT', `${base}/courses/phishing/quiz-rules`, {
      max_attempts: null,
      answers_shown: 'always',
    });
    expect(unlimited.json()).toEqual({ max_attempts: null, answers_shown: 'always' });
  });

  it("are part of an own course's form, and go with the course", async () => {
    const { admin, base } = await setup();
    const created = await send(admin, 'POST', `${base}/courses`, {
      ...COURSE,
      max_attempts: 2,
      answers_shown: 'always',
    });
    expect(created.statusCode, created.body).toBe(201);
    const { key } = created.json();
    expect(created.json()).toMatchObject({ max_attempts: 2, answers_shown: 'always' });
    // A change that names no rule keeps them.
    const kept = await send(admin, 'PUT', `${base}/courses/${key}`, { ...COURSE, title: 'Kept' });
    expect(kept.json()).toMatchObject({ title: 'Kept', max_attempts: 2, answers_shown: 'always' });
    const changed = await send(admin, 'PUT', `${base}/courses/${key}`, { ...COURSE, max_attempts: null });
    expect(changed.json()).toMatchObject({ max_attempts: null, answers_shown: 'passed_or_last' });
    expect((await send(admin, 'DELETE', `${base}/courses/${key}`)).statusCode).toBe(204);
    expect(
      await t.app.db.selectFrom('course_quiz_rules').selectAll().where('course_key', '=', key).execute(),
    ).toEqual([]);
  });

  it('refuse values out of bounds by field, and a course the account cannot use', async () => {
    const { admin, base } = await setup();
    for (const [body, details] of [
      [
        { max_attempts: 0, answers_shown: 'sometimes' },
        {
          max_attempts: ['must be a whole number from 1 to 20, or empty for unlimited'],
          answers_shown: ['must be one of passed_or_last, always, never'],
        },
      ],
      [
        { max_attempts: 21, answers_shown: 'never' },
        { max_attempts: ['must be a whole number from 1 to 20, or empty for unlimited'] },
      ],
    ] as const) {
      const res = await send(admin, 'PUT', `${base}/courses/phishing/quiz-rules`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual(details);
    }
    const inCourse = await send(admin, 'POST', `${base}/courses`, { ...COURSE, max_attempts: 2.5 });
    expect(inCourse.statusCode).toBe(400);
    for (const key of ['nope', 'custom-999999999']) {
      const res = await send(admin, 'PUT', `${base}/courses/${key}/quiz-rules`, {
        max_attempts: 1,
        answers_shown: 'never',
      });
      expect(res.json()).toEqual({ error: 'Course not found', status: 404, ...coded('course_not_found') });
    }
    expect((await send(admin, 'GET', `${base}/courses/phishing`)).json().max_attempts).toBeNull();
  });
});
