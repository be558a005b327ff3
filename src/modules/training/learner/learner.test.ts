import { describe, expect, it } from 'vitest';
import { makeKey } from '../../../../test/helpers/factories.js';
import { builtIn, makeEnrollment, quizForm, readAllLessons } from '../../../../test/helpers/learner.js';
import { learnerTestApp } from '../../../../test/helpers/learner-app.js';

const learnerApp = learnerTestApp();
const { client, enrollment } = learnerApp;
const phishing = builtIn('phishing');
const passwords = builtIn('passwords-and-mfa');

const escaped = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll("'", '&#39;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');

async function progress(id: number, key: string) {
  return (await learnerApp.courseRows(id)).find((row) => row.course_key === key);
}

describe('opening a learner link', () => {
  it('shows the overview as calm HTML, with no cache, referrer or indexing, and records nothing', async () => {
    const e = await makeEnrollment(learnerApp.app.db, {
      employee: { first_name: 'Ann' },
      campaignName: 'Annual awareness 2026',
      dueAt: Date.UTC(2030, 2, 14, 17),
    });
    const res = await client.get(e.path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toContain('noindex');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('name="viewport"');
    expect(res.body).not.toContain('<script');
    expect(res.body).toContain('Hello, Ann');
    expect(res.body).toContain('<h1>Your security training</h1>');
    // The campaign's name is the administrators' word: employees never see it.
    expect(res.body).not.toContain('Annual awareness 2026');
    expect(res.body).toContain('Due by 14 March 2030');
    expect(res.body).toContain(phishing.title);
    expect(res.body).toContain(`${phishing.minutes} min · 0 of 4 lessons read · Quiz not taken yet`);
    expect(res.body).toContain(`href="${e.path}/courses/phishing/lessons/1">Start`);
    expect(res.body).toContain('value="0"');

    // Mail scanners fetch links: none of the pages a GET reaches records anything.
    for (const path of ['', '/courses/phishing/lessons/1', '/courses/phishing/quiz', '/done']) {
      expect((await client.get(`${e.path}${path}`)).statusCode).toBeLessThan(400);
    }
    const row = await enrollment(e.enrollmentId);
    expect(row).toMatchObject({ started_at: null, last_activity_at: null, completed_at: null, score: null });
    expect(await progress(e.enrollmentId, 'phishing')).toBeUndefined();
  });

  it('says when the training is overdue', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { dueAt: Date.UTC(2024, 0, 5) });
    const res = await client.get(e.path);
    expect(res.body).toContain('Overdue.');
    expect(res.body).toContain('was due on 5 January 2024');
  });

  it('is not part of the API document, and the API still takes only JSON', async () => {
    const doc = await learnerApp.app.inject({ method: 'GET', url: '/api/api_gateway/openapi.json' });
    expect(Object.keys(doc.json().paths).filter((p) => p.includes('learn'))).toEqual([]);
    const { key } = await makeKey(learnerApp.app);
    const form = await learnerApp.app.inject({
      method: 'POST',
      url: '/api/api_gateway/customer/employees/',
      headers: { apikey: key, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'first_name=a',
    });
    expect(form.statusCode).toBe(415);
  });
});

describe('lessons and quiz', () => {
  it('records a lesson as read on POST, starts the learner, and moves on to the next lesson, then the quiz', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    const lesson = await client.get(`${e.path}/courses/phishing/lessons/2`);
    expect(lesson.statusCode).toBe(200);
    expect(lesson.body).toContain('Lesson 2 of 4');
    expect(lesson.body).toContain(`<h1>${phishing.lessons[1]?.title}</h1>`);
    expect(lesson.body).toContain('Mark as read and continue');
    expect(lesson.body).toContain(`href="${e.path}/courses/phishing/lessons/1" rel="prev"`);
    expect(lesson.body).toContain(`href="${e.path}/courses/phishing/lessons/3" rel="next"`);

    const first = await client.post(`${e.path}/courses/phishing/lessons/2`);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`${e.path}/courses/phishing/lessons/3`);
    const started = await enrollment(e.enrollmentId);
    expect(started.started_at).toEqual(expect.any(Number));
    expect(started.last_activity_at).toEqual(expect.any(Number));
    expect(JSON.parse((await progress(e.enrollmentId, 'phishing'))?.lessons_read ?? '')).toEqual([1]);

    const last = await client.post(`${e.path}/courses/phishing/lessons/4`);
    expect(last.headers.location).toBe(`${e.path}/courses/phishing/quiz`);
    // Reading again changes nothing but the time of the last activity; the start stays.
    await client.post(`${e.path}/courses/phishing/lessons/2`);
    expect(JSON.parse((await progress(e.enrollmentId, 'phishing'))?.lessons_read ?? '')).toEqual([1, 3]);
    expect((await enrollment(e.enrollmentId)).started_at).toBe(started.started_at);

    const overview = await client.get(e.path);
    expect(overview.body).toContain('2 of 4 lessons read');
    expect(overview.body).toContain(`href="${e.path}/courses/phishing/lessons/1">Continue`);
    const read = await client.get(`${e.path}/courses/phishing/lessons/2`);
    expect(read.body).toContain('<p class="status ok">Read</p>');
  });

  it('refuses the quiz until every lesson is read, pointing to the first unread one', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    await client.post(`${e.path}/courses/phishing/lessons/1`);
    const page = await client.get(`${e.path}/courses/phishing/quiz`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Read the lessons first');
    expect(page.body).toContain(`href="${e.path}/courses/phishing/lessons/2">Go to lesson 2`);
    expect(page.body).not.toContain('type="radio"');
    const post = await client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing));
    expect(post.statusCode).toBe(409);
    expect((await progress(e.enrollmentId, 'phishing'))?.attempts).toBe(0);
  });

  it('asks again for unanswered questions, keeping the answers given, and records no attempt', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    await readAllLessons(learnerApp.app, e.path, phishing);
    const quiz = await client.get(`${e.path}/courses/phishing/quiz`);
    expect(quiz.body).toContain('<legend>');
    expect(quiz.body).toContain('name="q0"');
    const form = quizForm(phishing);
    delete form.q2;
    delete form.q5;
    form.q3 = '99';
    const res = await client.post(`${e.path}/courses/phishing/quiz`, form);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Please answer every question');
    expect(res.body).toContain('Questions 3, 4 and 6 have no answer yet.');
    expect(res.body).toContain(`name="q0" value="${phishing.quiz[0]?.answer}" checked`);
    expect(res.body).toContain('id="q3-error"');
    expect((await progress(e.enrollmentId, 'phishing'))?.attempts).toBe(0);
  });

  it('fails wrong answers without revealing the right ones, then lets the learner try again and pass', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    await readAllLessons(learnerApp.app, e.path, phishing);
    const quiz = await client.get(`${e.path}/courses/phishing/quiz`);
    expect(quiz.body).toContain('You need 80% to pass, and you can try as often as you like.');
    expect(quiz.body).toContain('The right answers are shown once you pass.');
    const failed = await client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing, 3));
    expect(failed.statusCode).toBe(303);
    expect(failed.headers.location).toBe(`${e.path}/courses/phishing/result`);
    const result = await client.get(`${e.path}/courses/phishing/result`);
    expect(result.body).toContain('Not passed yet');
    expect(result.body).toContain('57%'); // 4 of 7
    expect(result.body).toContain('4 of 7 correct. The pass mark is 80%.');
    expect(result.body).toContain(`href="${e.path}/courses/phishing/quiz">Try again`);
    expect(result.body).toContain('The right answers and explanations are shown once you pass.');
    expect(result.body).not.toContain('>Finish<');
    // By default a failed attempt shows no right answer, no explanation, not even which were wrong.
    expect(result.body).not.toContain('Right answer: ');
    expect(result.body).not.toContain('Incorrect');
    for (const q of phishing.quiz) expect(result.body).not.toContain(escaped(q.explanation));
    expect(await progress(e.enrollmentId, 'phishing')).toMatchObject({
      attempts: 1,
      best_score: 57,
      passed_at: null,
    });
    // Every quiz taken: the enrollment has a score, but is not complete.
    expect(await enrollment(e.enrollmentId)).toMatchObject({ score: 57, completed_at: null });
    expect((await client.get(`${e.path}/done`)).headers.location).toBe(e.path);

    await client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing, 1));
    const passed = await client.get(`${e.path}/courses/phishing/result`);
    expect(passed.body).toContain('You passed');
    expect(passed.body).toContain(`href="${e.path}/done">Finish`);
    // Passed: the answers are shown, the right one beside a wrong one, with every explanation.
    expect(passed.body).toContain('Right answer: ');
    for (const q of phishing.quiz) expect(passed.body).toContain(escaped(q.explanation));
    expect(await progress(e.enrollmentId, 'phishing')).toMatchObject({ attempts: 2, best_score: 85 });
  });

  it('completes the enrollment once every course is passed, scored by the mean of the best scores', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing', 'passwords-and-mfa'] });
    await readAllLessons(learnerApp.app, e.path, phishing);
    await client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing, 7));
    await client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing));
    const next = await client.get(`${e.path}/courses/phishing/result`);
    expect(next.body).toContain(`href="${e.path}/courses/passwords-and-mfa/lessons/1">Next course`);
    expect(await enrollment(e.enrollmentId)).toMatchObject({ score: null, completed_at: null });

    await readAllLessons(learnerApp.app, e.path, passwords);
    await client.post(`${e.path}/courses/passwords-and-mfa/quiz`, quizForm(passwords, 1)); // 7 of 8: 87
    const done = await enrollment(e.enrollmentId);
    expect(done.score).toBe(93); // floor((100 + 87) / 2)
    expect(done.completed_at).toEqual(expect.any(Number));

    const page = await client.get(`${e.path}/done`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Congratulations, Ann!');
    expect(page.body).toContain('93%');
    expect(page.body).toContain(phishing.title);
    expect(page.body).toContain('best score 87%');
    expect((await client.get(e.path)).body).toContain('You have completed this training.');

    // Retaking a quiz later keeps the first completion time and the best scores.
    await client.post(`${e.path}/courses/passwords-and-mfa/quiz`, quizForm(passwords, 8));
    expect(await enrollment(e.enrollmentId)).toMatchObject({ completed_at: done.completed_at, score: 93 });
    expect((await client.get(`${e.path}/courses/passwords-and-mfa/result`)).body).toContain(
      'You passed this quiz before',
    );
  });

  it('answers 404 for a course outside the campaign and lessons out of range', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    for (const path of [
      '/courses/safe-browsing/lessons/1',
      '/courses/nope/quiz',
      '/courses/phishing/lessons/0',
      '/courses/phishing/lessons/5',
      '/courses/phishing/lessons/abc',
      '/courses/phishing/lessons/01',
      '/courses/safe-browsing/result',
      '/elsewhere',
    ]) {
      const res = await client.get(`${e.path}${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).toContain('Page not found');
    }
    expect((await client.post(`${e.path}/courses/phishing/lessons/5`)).statusCode).toBe(404);
    expect((await client.post(`${e.path}/courses/safe-browsing/quiz`, quizForm(phishing))).statusCode).toBe(
      404,
    );
    expect(await progress(e.enrollmentId, 'safe-browsing')).toBeUndefined();
    expect((await enrollment(e.enrollmentId)).started_at).toBeNull();
  });
});
