import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeEmployee, makeKey } from '../../../../test/helpers/factories.js';
import { figuresOf, seedPhishingCampaign } from '../../../../test/helpers/phishing.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ REPORT_READ_TIMEOUT_MS: '60000' });
});

const URL = '/api/api_gateway/customer/reports/';

function post(key: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url: URL, headers: { apikey: key }, payload: payload as object });
}

function phish(options: { from?: string; subject?: string; body?: string; headers?: string[] } = {}) {
  return [
    `From: ${options.from ?? 'IT Service Desk <helpdesk@evil.example>'}`,
    'To: ada@example.com',
    `Subject: ${options.subject ?? 'Your mailbox is full'}`,
    'Message-ID: <m1@evil.example>',
    ...(options.headers ?? []),
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    options.body ?? '<p>Click <a href="https://login.evil.example/reset?u=1">here</a> to keep your mail.</p>',
    '',
  ].join('\r\n');
}

const eml = (message: string) => Buffer.from(message).toString('base64');

describe('POST /customer/reports/', () => {
  it('files a real phish for triage, grouping a second reporter of the same message', async () => {
    const { key, accountId } = await makeKey(t.app, { grants: ['reports:w'] });
    const ada = await makeEmployee(t.app, accountId);
    const bob = await makeEmployee(t.app, accountId);
    const first = await post(key, { reporter: ada.email.toUpperCase(), eml: eml(phish()) });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({
      outcome: 'real',
      report_id: expect.any(Number),
      message: 'Thank you: your security team will look at it.',
    });
    const second = await post(key, {
      reporter: bob.email,
      eml: eml(phish({ body: '<p>Click <a href="https://login.evil.example/reset?u=1">now</a></p>' })),
    });
    expect(second.json().report_id).toBe(first.json().report_id);
    const report = await t.app.db
      .selectFrom('reports')
      .selectAll()
      .where('id', '=', first.json().report_id)
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({
      account_id: accountId,
      sender: 'helpdesk@evil.example',
      sender_domain: 'evil.example',
      subject: 'Your mailbox is full',
      reporters: 2,
      verdict: null,
    });
    const content = JSON.parse(report.content as string);
    expect(content.urls).toEqual([
      { url: 'https://login.evil.example/reset?u=1', host: 'login.evil.example' },
    ]);
    expect(content.headers).toContainEqual({ name: 'Subject', value: 'Your mailbox is full' });
  });

  it('builds the message from an add-in’s parts, keeping the attachments it listed', async () => {
    const { key, accountId } = await makeKey(t.app, { grants: ['reports:w'] });
    const ada = await makeEmployee(t.app, accountId);
    const res = await post(key, {
      reporter: ada.email,
      internet_headers:
        'From: "Payroll" <payroll@evil.example>\r\nSubject: Salary review\r\nContent-Type: multipart/mixed;\r\n boundary="x"\r\nX-Other: 1\r\n',
      html: '<p>See <a href="https://evil.example/salary">the review</a></p>',
      text: 'See the review: https://evil.example/salary',
      attachments: [
        {
          name: 'review.docm',
          content_type: 'application/vnd.ms-word.document.macroEnabled.12',
          size: 40960,
        },
      ],
    });
    expect(res.statusCode).toBe(202);
    const report = await t.app.db
      .selectFrom('reports')
      .selectAll()
      .where('id', '=', res.json().report_id)
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({ sender: 'payroll@evil.example', subject: 'Salary review' });
    const content = JSON.parse(report.content as string);
    expect(content.text).toContain('See the review');
    expect(content.attachments).toEqual([
      {
        name: 'review.docm',
        content_type: 'application/vnd.ms-word.document.macroenabled.12',
        size: 40960,
        sha256: '',
      },
    ]);
    expect(content.headers.map((h: { name: string }) => h.name)).toContain('X-Other');
  });

  it('credits a simulation by the account’s own header name and files nothing', async () => {
    const { key, accountId } = await makeKey(t.app);
    const c = await seedPhishingCampaign(t.app, accountId);
    const [a] = c.people;
    await t.app.db
      .insertInto('phishing_settings')
      .values({ account_id: accountId, simulation_header: 'X-Acme-Check', updated_at: Date.now() })
      .execute();
    const ignored = await post(key, {
      reporter: a!.employee.email,
      eml: eml(phish({ headers: [`X-Vigil-Simulation: ${a!.token}`], body: 'no links' })),
    });
    expect(ignored.json().outcome).toBe('real');
    const res = await post(key, {
      reporter: a!.employee.email,
      eml: eml(phish({ headers: [`X-Acme-Check: ${a!.token}`], subject: 'other', body: 'nothing' })),
    });
    expect(res.json()).toMatchObject({ outcome: 'simulation', report_id: null });
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({ reported: 1 });
  });

  it('refuses a reporter who is not one of the account’s people, and a key of another right', async () => {
    const { key, accountId } = await makeKey(t.app, { grants: ['reports:w'] });
    const other = await makeKey(t.app);
    const stranger = await makeEmployee(t.app, other.accountId);
    const res = await post(key, { reporter: stranger.email, eml: eml(phish()) });
    expect(res.json()).toMatchObject({ status: 404, code: 'reporter_not_found' });
    const reader = await makeKey(t.app, { accountId, grants: ['employees:r'] });
    expect((await post(reader.key, { reporter: 'a@b.c', eml: eml(phish()) })).statusCode).toBe(403);
    expect(
      await t.app.db.selectFrom('reports').select('id').where('account_id', '=', accountId).execute(),
    ).toEqual([]);
  });

  it('takes a message/rfc822 body with ?reporter=, and says what is missing', async () => {
    const { key, accountId } = await makeKey(t.app, { grants: ['reports:w'] });
    const ada = await makeEmployee(t.app, accountId);
    const send = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `${URL}${query}`,
        headers: { apikey: key, 'content-type': 'message/rfc822' },
        payload: phish({ subject: 'Invoice overdue' }),
      });
    expect((await send('')).json()).toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: { reporter: [expect.stringContaining('required')] },
    });
    const res = await send(`?reporter=${encodeURIComponent(ada.email)}`);
    expect(res.statusCode).toBe(202);
    expect(res.json().outcome).toBe('real');
    const bad = await post(key, { reporter: ada.email, eml: '***' });
    expect(bad.json()).toMatchObject({ status: 400, details: { eml: ['must be base64'] } });
    const neither = await post(key, { reporter: ada.email });
    expect(neither.json()).toMatchObject({ status: 400, details: { internet_headers: expect.any(Array) } });
  });

  it('answers a request without a body or a media type 415, not a failure', async () => {
    const { key } = await makeKey(t.app, { grants: ['reports:w'] });
    const res = await t.app.inject({ method: 'POST', url: URL, headers: { apikey: key } });
    expect(res.json()).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('limits each reporter to 30 reports an hour', async () => {
    const { key, accountId } = await makeKey(t.app, { grants: ['reports:w'] });
    const ada = await makeEmployee(t.app, accountId);
    const bob = await makeEmployee(t.app, accountId);
    for (let i = 0; i < 30; i++) {
      expect(
        (await post(key, { reporter: ada.email, eml: eml(phish({ subject: `n${i}` })) })).statusCode,
      ).toBe(202);
    }
    const over = await post(key, { reporter: ada.email, eml: eml(phish()) });
    expect(over.json()).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(key, { reporter: bob.email, eml: eml(phish()) })).statusCode).toBe(202);
  });
});
