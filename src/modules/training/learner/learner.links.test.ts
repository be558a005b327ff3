import { describe, expect, it } from 'vitest';
import {
  builtIn,
  learnerToken,
  makeEnrollment,
  quizForm,
  readAllLessons,
} from '../../../../test/helpers/learner.js';
import { learnerTestApp } from '../../../../test/helpers/learner-app.js';

const learnerApp = learnerTestApp();
const { client } = learnerApp;
const phishing = builtIn('phishing');

function linkMessages(enrollmentId: number) {
  return learnerApp.app.db
    .selectFrom('messages')
    .selectAll()
    .where('enrollment_id', '=', enrollmentId)
    .where('kind', '=', 'link')
    .orderBy('round')
    .execute();
}

async function startedAt(enrollmentId: number) {
  return (await learnerApp.enrollment(enrollmentId)).started_at;
}

describe('links that are not valid', () => {
  it('answers 404 "This link is not valid" for an altered signature, another id, or a made-up token', async () => {
    const e = await makeEnrollment(learnerApp.app.db);
    const other = await makeEnrollment(learnerApp.app.db);
    const [id, expiry, signature] = e.token.split('.') as [string, string, string];
    const flipped = `${signature[10] === 'A' ? 'B' : 'A'}`;
    const tampered = [
      `${id}.${expiry}.${signature.slice(0, 10)}${flipped}${signature.slice(11)}`,
      `${other.enrollmentId}.${expiry}.${signature}`,
      `${id}.${(Number.parseInt(expiry, 36) + 1).toString(36)}.${signature}`,
      `${id}.${expiry}`,
      'not-a-token',
      `${id}.${expiry}.${signature}x`,
    ];
    for (const token of tampered) {
      for (const res of [
        await client.get(`/learn/${token}`),
        await client.get(`/learn/${token}/courses/phishing/lessons/1`),
        await client.post(`/learn/${token}/courses/phishing/lessons/1`),
        await client.post(`/learn/${token}/new-link`),
      ]) {
        expect(res.statusCode, token).toBe(404);
        expect(res.body).toContain('This link is not valid');
        expect(res.body).not.toContain('expired');
      }
    }
    expect(await startedAt(e.enrollmentId)).toBeNull();
    expect(await startedAt(other.enrollmentId)).toBeNull();
    expect(await linkMessages(other.enrollmentId)).toEqual([]);
  });

  it('treats the link of a deleted enrollment as not valid', async () => {
    const e = await makeEnrollment(learnerApp.app.db);
    await learnerApp.app.db.deleteFrom('enrollments').where('id', '=', e.enrollmentId).execute();
    const res = await client.get(e.path);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This link is not valid');
  });
});

describe('an expired link', () => {
  it('explains, records nothing, and emails exactly one new link per 10 minutes without showing the address', async () => {
    const e = await makeEnrollment(learnerApp.app.db, {
      employee: { email: 'ann.expired@example.com' },
      linkExpiresAt: Date.now() - 1000,
    });
    const page = await client.get(e.path);
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('This link has expired');
    expect(page.body).toContain(`<form method="post" action="${e.path}/new-link">`);
    expect(page.body).toContain('Email me a new link');
    const lesson = await client.post(`${e.path}/courses/phishing/lessons/1`);
    expect(lesson.statusCode).toBe(403);
    expect(await startedAt(e.enrollmentId)).toBeNull();

    const asked = await client.post(`${e.path}/new-link`);
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toBe(`${e.path}/new-link?sent=queued`);
    const sent = await client.get(asked.headers.location as string);
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('A new link is on its way to your work email');
    expect(sent.body).not.toContain('ann.expired');
    const first = await linkMessages(e.enrollmentId);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kind: 'link', round: 1, status: 'queued', campaign_id: e.campaignId });

    const again = await client.post(`${e.path}/new-link`);
    expect(again.headers.location).toBe(`${e.path}/new-link?sent=recent`);
    expect((await client.get(again.headers.location as string)).body).toContain('A new link was just sent');
    expect(await linkMessages(e.enrollmentId)).toHaveLength(1);

    // Ten minutes later another may be asked for: the next round.
    await learnerApp.app.db
      .updateTable('messages')
      .set({ created_at: Date.now() - 11 * 60_000 })
      .where('enrollment_id', '=', e.enrollmentId)
      .execute();
    expect((await client.post(`${e.path}/new-link`)).headers.location).toBe(`${e.path}/new-link?sent=queued`);
    expect((await linkMessages(e.enrollmentId)).map((m) => m.round)).toEqual([1, 2]);
  });

  it('sends a working link back to the overview instead of mailing a new one', async () => {
    const e = await makeEnrollment(learnerApp.app.db);
    const res = await client.post(`${e.path}/new-link`);
    expect(res.headers.location).toBe(e.path);
    expect(await linkMessages(e.enrollmentId)).toEqual([]);
  });
});

describe('a stopped campaign', () => {
  it('shows that the training has ended and records nothing more', async () => {
    for (const status of ['completed', 'archived'] as const) {
      const e = await makeEnrollment(learnerApp.app.db, { status, courseKeys: ['phishing'] });
      const res = await client.get(e.path);
      expect(res.statusCode, status).toBe(410);
      expect(res.body).toContain('This training has ended');
      expect((await client.post(`${e.path}/courses/phishing/lessons/1`)).statusCode).toBe(410);
      expect((await client.get(`${e.path}/done`)).statusCode).toBe(410);
      expect(await startedAt(e.enrollmentId)).toBeNull();
    }
    const expired = await makeEnrollment(learnerApp.app.db, {
      status: 'completed',
      linkExpiresAt: Date.now() - 1000,
    });
    const res = await client.get(expired.path);
    expect(res.statusCode).toBe(410);
    expect(res.body).not.toContain('Email me a new link');
    expect((await client.post(`${expired.path}/new-link`)).statusCode).toBe(410);
    expect(await linkMessages(expired.enrollmentId)).toEqual([]);
  });

  it('still shows a learner who completed it their completion page', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    await readAllLessons(learnerApp.app, e.path, phishing);
    await client.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing));
    await learnerApp.app.db
      .updateTable('training_campaigns')
      .set({ status: 'completed' })
      .where('id', '=', e.campaignId)
      .execute();
    for (const path of [e.path, `${e.path}/done`]) {
      const res = await client.get(path);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Congratulations, Ann!');
      expect(res.body).not.toContain('Back to your courses');
    }
    const lesson = await client.get(`${e.path}/courses/phishing/lessons/1`);
    expect(lesson.statusCode).toBe(410);
    expect(lesson.body).toContain(`href="${e.path}/done">See your completion`);
  });
});

describe('what people write is shown as text', () => {
  it("escapes names, campaign text, and a custom course's titles, lessons and quiz", async () => {
    const now = Date.now();
    const e = await makeEnrollment(learnerApp.app.db, {
      employee: { first_name: '<script>alert("name")</script>' },
      campaignName: '<img src=x onerror=alert(1)>',
      description: '"><script>alert("description")</script>',
      courseKeys: [],
    });
    const course = await learnerApp.app.db
      .insertInto('courses')
      .values({
        account_id: e.accountId,
        title: '<script>alert("title")</script>',
        summary: 'x',
        minutes: 5,
        pass_mark: 50,
        lessons: JSON.stringify([
          {
            title: '<b onmouseover=alert(1)>Lesson</b>',
            markdown: 'Text <script>alert("md")</script>\n\n[x](javascript:alert(1))',
          },
        ]),
        quiz: JSON.stringify([
          {
            question: '<i>Why?</i>',
            choices: ['<u>yes</u>', 'no'],
            answer: 0,
            explanation: '<script>alert("why")</script>',
          },
        ]),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const key = `custom-${course.id}`;
    // The name employees see of the account is shown on every page; the campaign's name and
    // description are the administrators' words and shown nowhere.
    await learnerApp.app.db
      .updateTable('accounts')
      .set({ display_name: '<img src=x onerror=alert(1)>' })
      .where('id', '=', e.accountId)
      .execute();
    await learnerApp.app.db
      .insertInto('campaign_courses')
      .values({ campaign_id: e.campaignId, course_key: key, position: 0 })
      .execute();

    await client.post(`${e.path}/courses/${key}/lessons/1`);
    await client.post(`${e.path}/courses/${key}/quiz`, { q0: '1' });
    const pages = [
      await client.get(e.path),
      await client.get(`${e.path}/courses/${key}/lessons/1`),
      await client.get(`${e.path}/courses/${key}/quiz`),
      await client.post(`${e.path}/courses/${key}/quiz`, {}),
      await client.get(`${e.path}/courses/${key}/result`),
    ];
    await client.post(`${e.path}/courses/${key}/quiz`, { q0: '0' });
    // Passed: the result now shows the right answers and explanations too.
    pages.push(await client.get(`${e.path}/courses/${key}/result`), await client.get(`${e.path}/done`));
    for (const page of pages) {
      expect(page.body).not.toMatch(/<script|<img|<b |<i>|<u>|href="javascript:/);
    }
    const all = pages.map((p) => p.body).join('\n');
    for (const text of [
      'Hello, &lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;',
      '&lt;img src=x onerror=alert(1)&gt;',
      '&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;',
      '&lt;b onmouseover=alert(1)&gt;Lesson&lt;/b&gt;',
      'Text &lt;script&gt;alert(',
      '&lt;i&gt;Why?&lt;/i&gt;',
      '&lt;u&gt;yes&lt;/u&gt;',
      '&lt;script&gt;alert(&quot;why&quot;)&lt;/script&gt;',
      'Congratulations, &lt;script&gt;',
    ]) {
      expect(all).toContain(text);
    }
    expect(all).not.toContain('alert(&quot;description&quot;)');
  });
});

describe('logs', () => {
  it('never hold a learner token, whatever the request', async () => {
    const e = await makeEnrollment(learnerApp.app.db, { courseKeys: ['phishing'] });
    const expired = await learnerToken(learnerApp.app.db, e.enrollmentId, Date.now() - 1000);
    const signature = e.token.split('.')[2] as string;
    const before = learnerApp.logs.length;
    await client.get(e.path);
    await client.get(`${e.path}/courses/phishing/lessons/1?utm=x`);
    await client.post(`${e.path}/courses/phishing/lessons/1`);
    await client.get(`${e.path}/courses/nope/quiz`);
    await client.get(`${e.path}x`);
    await learnerApp.app.inject({ method: 'DELETE', url: e.path });
    await client.get(`/learn/${expired}`);
    await client.post(`/learn/${expired}/new-link`);
    const lines = learnerApp.logs.slice(before).join('');
    expect(lines).toContain('/learn/[redacted]');
    expect(lines).not.toContain(signature);
    expect(lines).not.toContain(expired.split('.')[2]);
  });
});
