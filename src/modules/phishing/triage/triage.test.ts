import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeEmployee, makeKey } from '../../../../test/helpers/factories.js';
import { mailWorkerTo } from '../../../../test/helpers/mail-worker.js';
import { listenToWebhooks, quietLog } from '../../../../test/helpers/phishing.js';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { runScheduledWork } from '../../../workers/scheduler.js';

let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  t = await buildTestApp({ REPORT_READ_TIMEOUT_MS: '60000' });
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

const send = () => adminSender(t.app);
const DAY = 86_400_000;

function phish(
  subject: string,
  from = 'IT Desk <helpdesk@evil.example>',
  link = 'https://login.evil.example/x',
) {
  return [
    `From: ${from}`,
    'To: staff@example.com',
    `Subject: ${subject}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Log in <a href="${link}">here</a></p><img src="https://tracker.evil.example/p.gif"><script>alert(1)</script>`,
    '--b',
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('%PDF-1.4 not really').toString('base64'),
    '--b--',
    '',
  ].join('\r\n');
}

/** An account with a report key, two employees and a signed-in administrator. */
async function setUp() {
  const account = await makeAccount(t.app);
  const { key } = await makeKey(t.app, { accountId: account.id, grants: ['reports:w'] });
  const ada = await makeEmployee(t.app, account.id, { first_name: 'Ada' });
  const bob = await makeEmployee(t.app, account.id, { first_name: 'Bob' });
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  const report = async (reporter: string, message: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/api_gateway/customer/reports/',
      headers: { apikey: key },
      payload: { reporter, eml: Buffer.from(message).toString('base64') },
    });
    expect(res.statusCode).toBe(202);
    return res.json() as { outcome: string; report_id: number };
  };
  return { accountId: account.id, base: `/accounts/${account.id}`, ada, bob, admin, report };
}

describe('the triage inbox', () => {
  it('lists real reports with their reporters and shows one safely', async () => {
    const s = await setUp();
    const { report_id } = await s.report(s.ada.email, phish('Password expires'));
    await s.report(s.bob.email, phish('Password expires'));
    const list = await send()(s.admin, 'GET', `${s.base}/reports`);
    expect(list.json()).toMatchObject({
      count: 1,
      results: [
        {
          id: report_id,
          sender: 'helpdesk@evil.example',
          subject: 'Password expires',
          reporter_count: 2,
          verdict: null,
          reporters: [{ address: s.ada.email }, { address: s.bob.email }],
        },
      ],
    });
    const detail = (await send()(s.admin, 'GET', `${s.base}/reports/${report_id}`)).json();
    expect(detail.message.urls).toEqual([
      {
        url: 'https://login.evil.example/x',
        defanged: 'hxxps://login[.]evil[.]example/x',
        host: 'login.evil.example',
      },
      {
        url: 'https://tracker.evil.example/p.gif',
        defanged: 'hxxps://tracker[.]evil[.]example/p[.]gif',
        host: 'tracker.evil.example',
      },
    ]);
    expect(detail.message.attachments).toEqual([
      {
        name: 'invoice.pdf',
        content_type: 'application/pdf',
        size: 19,
        sha256: createHash('sha256').update('%PDF-1.4 not really').digest('hex'),
      },
    ]);
    expect(detail.message.has_html).toBe(true);
    expect(detail.message.text).toContain('Log in');
    expect(detail.message.text).not.toContain('alert');

    const html = await send()(s.admin, 'GET', `${s.base}/reports/${report_id}/html`);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toContain('sandbox');
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect(html.body).toContain('<a href="https://login.evil.example/x">');
  });

  it('is for administrators with the triage permission, and another account’s report is not found', async () => {
    const s = await setUp();
    const { report_id } = await s.report(s.ada.email, phish('Invoice'));
    const other = await signInAs(t.app, { role: 'account_admin', accountId: s.accountId });
    await t.app.db
      .updateTable('admin_users')
      .set({ can_triage: 0 })
      .where('id', '=', other.user.id)
      .execute();
    const refused = await send()(other, 'GET', `${s.base}/reports/${report_id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toContain('triage permission');
    expect((await send()(other, 'GET', `${s.base}/reports`)).statusCode).toBe(403);
    expect((await send()(other, 'GET', `${s.base}/reporting/settings`)).statusCode).toBe(403);
    const stranger = await setUp();
    expect((await send()(stranger.admin, 'GET', `${stranger.base}/reports/${report_id}`)).statusCode).toBe(
      404,
    );
  });

  it('the triage permission is granted and withdrawn by its holders, never from the last one', async () => {
    const s = await setUp();
    const other = await signInAs(t.app, { role: 'account_admin', accountId: s.accountId });
    const withdrawn = await send()(s.admin, 'PUT', `${s.base}/admins/${other.user.id}/triage`, {
      can_triage: false,
    });
    expect(withdrawn.json()).toMatchObject({ id: other.user.id, can_triage: false });
    expect((await send()(other, 'GET', `${s.base}/reports`)).statusCode).toBe(403);
    const selfGrant = await send()(other, 'PUT', `${s.base}/admins/${other.user.id}/triage`, {
      can_triage: true,
    });
    expect(selfGrant.statusCode).toBe(403);
    const last = await send()(s.admin, 'PUT', `${s.base}/admins/${s.admin.user.id}/triage`, {
      can_triage: false,
    });
    expect(last.json()).toMatchObject({
      status: 400,
      details: { can_triage: [expect.stringContaining('last')] },
    });
    const list = (await send()(s.admin, 'GET', `${s.base}/admins`)).json();
    expect(list.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: s.admin.user.id, can_triage: true }),
        expect.objectContaining({ id: other.user.id, can_triage: false }),
      ]),
    );
  });

  it('a verdict mails each reporter once (a real SMTP sink) and emits report.verdict', async () => {
    const s = await setUp();
    const hooks = await listenToWebhooks(t.app, s.accountId);
    const { report_id } = await s.report(s.ada.email, phish('Bonus payment'));
    await s.report(s.bob.email, phish('Bonus payment'));
    const judged = await send()(s.admin, 'POST', `${s.base}/reports/${report_id}/verdict`, {
      verdict: 'malicious',
      note: 'Blocked at the gateway.',
    });
    expect(judged.json()).toMatchObject({
      verdict: 'malicious',
      verdict_note: 'Blocked at the gateway.',
      verdict_by: { kind: 'admin', id: s.admin.user.id },
    });
    // The same verdict again tells nobody twice.
    await send()(s.admin, 'POST', `${s.base}/reports/${report_id}/verdict`, { verdict: 'malicious' });
    const before = smtp.accepted.length;
    await mailWorkerTo(t.app.db, smtp, { now: Date.now() + 1000 }).drain();
    const mails = smtp.accepted.slice(before).filter((m) => m.text.includes('Bonus payment'));
    expect(mails.map((m) => m.recipients[0]).sort()).toEqual([s.ada.email, s.bob.email].sort());
    expect(mails[0]!.text).toContain('real phishing attack');
    const types = (await hooks.events()).map((e) => e.type);
    expect(types).toEqual(['report.received', 'report.received', 'report.verdict', 'report.verdict']);
  });

  it('rules judge new reports by sender domain or URL host, and tell the reporter at once', async () => {
    const s = await setUp();
    const rule = await send()(s.admin, 'POST', `${s.base}/report-rules`, {
      kind: 'sender_domain',
      value: 'News.Example.com',
      verdict: 'safe',
      note: 'Our newsletter.',
    });
    expect(rule.statusCode).toBe(201);
    expect(rule.json()).toMatchObject({ value: 'news.example.com', verdict: 'safe' });
    const again = await send()(s.admin, 'POST', `${s.base}/report-rules`, {
      kind: 'sender_domain',
      value: 'news.example.com',
      verdict: 'spam',
    });
    expect(again.json()).toMatchObject({ status: 409, code: 'report_rule_exists' });
    await send()(s.admin, 'POST', `${s.base}/report-rules`, {
      kind: 'url_host',
      value: 'track.spammy.example',
      verdict: 'spam',
    });
    const bad = await send()(s.admin, 'POST', `${s.base}/report-rules`, {
      kind: 'url_host',
      value: 'not a host',
      verdict: 'spam',
    });
    expect(bad.json()).toMatchObject({ status: 400, details: { value: [expect.any(String)] } });

    const safe = await s.report(s.ada.email, phish('Weekly news', 'News <letters@mail.news.example.com>'));
    const spam = await s.report(
      s.ada.email,
      phish('Win', 'x@other.example', 'https://a.track.spammy.example/c'),
    );
    const open = await s.report(s.ada.email, phish('Other', 'x@other.example', 'https://elsewhere.example/'));
    const verdictOf = async (id: number) => (await send()(s.admin, 'GET', `${s.base}/reports/${id}`)).json();
    expect(await verdictOf(safe.report_id)).toMatchObject({
      verdict: 'safe',
      verdict_note: 'Our newsletter.',
      verdict_by: { kind: 'rule' },
    });
    expect(await verdictOf(spam.report_id)).toMatchObject({ verdict: 'spam' });
    expect(await verdictOf(open.report_id)).toMatchObject({ verdict: null });
    const queued = await t.app.db
      .selectFrom('messages')
      .select('kind')
      .where('account_id', '=', s.accountId)
      .where('kind', '=', 'report_feedback')
      .execute();
    expect(queued).toHaveLength(2);
  });

  it('deletes a report’s content after the retention, keeping its verdict and counts', async () => {
    const s = await setUp();
    const { report_id } = await s.report(s.ada.email, phish('Old one'));
    const settings = await send()(s.admin, 'PUT', `${s.base}/reporting/settings`, { retention_days: 7 });
    expect(settings.json()).toEqual({ retention_days: 7 });
    await send()(s.admin, 'POST', `${s.base}/reports/${report_id}/verdict`, { verdict: 'spam' });
    await runScheduledWork(t.app.db, Date.now() + 6 * DAY, quietLog);
    expect((await send()(s.admin, 'GET', `${s.base}/reports/${report_id}`)).json().message).not.toBeNull();
    await runScheduledWork(t.app.db, Date.now() + 8 * DAY, quietLog);
    const after = (await send()(s.admin, 'GET', `${s.base}/reports/${report_id}`)).json();
    expect(after).toMatchObject({ message: null, verdict: 'spam', reporter_count: 1, subject: 'Old one' });
    expect(after.content_deleted_at).toEqual(expect.any(String));
  });

  it('feedback templates are the account’s own per verdict, with placeholders checked', async () => {
    const s = await setUp();
    const bad = await send()(s.admin, 'PUT', `${s.base}/reporting/feedback-templates/safe`, {
      subject: 'Hi {{firstname}}',
      body: 'It is safe.',
    });
    expect(bad.json()).toMatchObject({
      status: 400,
      details: { subject: ['unknown placeholder: {{firstname}}'] },
    });
    const saved = await send()(s.admin, 'PUT', `${s.base}/reporting/feedback-templates/safe`, {
      subject: 'All clear, {{first_name}}',
      body: 'The message "{{subject}}" is {{verdict}}. {{note}}',
    });
    expect(saved.json().results).toContainEqual({
      verdict: 'safe',
      subject: 'All clear, {{first_name}}',
      body: 'The message "{{subject}}" is {{verdict}}. {{note}}',
      is_default: false,
    });
    const { report_id } = await s.report(s.ada.email, phish('<b>Lunch</b> menu'));
    await send()(s.admin, 'POST', `${s.base}/reports/${report_id}/verdict`, {
      verdict: 'safe',
      note: 'From catering.',
    });
    const before = smtp.accepted.length;
    await mailWorkerTo(t.app.db, smtp, { now: Date.now() + 1000 }).drain();
    const mail = smtp.accepted.slice(before).find((m) => m.recipients[0] === s.ada.email);
    expect(mail?.subject).toBe('All clear, Ada');
    expect(mail?.text).toContain('The message "<b>Lunch</b> menu" is safe. From catering.');
    expect(mail?.html).toContain('&lt;b&gt;Lunch&lt;/b&gt;');
  });
});

describe('a deleted employee', () => {
  it('leaves the reports they made without their address, the counts kept', async () => {
    const s = await setUp();
    const { report_id } = await s.report(s.ada.email, phish('Forget me'));
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/api/accounts/${s.accountId}/employees/${s.ada.id}`,
      headers: s.admin.headers,
    });
    expect(del.statusCode).toBe(204);
    const detail = (await send()(s.admin, 'GET', `${s.base}/reports/${report_id}`)).json();
    expect(detail).toMatchObject({
      reporter_count: 1,
      reporters: [{ address: `deleted-${s.ada.id}`, employee_id: null }],
    });
    expect(JSON.stringify(detail.reporters)).not.toContain(s.ada.email);
  });
});

describe('the account overview’s reporting figures', () => {
  it('counts real reports per week, the time to a verdict and the reporting accuracy', async () => {
    const s = await setUp();
    const a = await s.report(s.ada.email, phish('One', 'x@one.example', 'https://one.example/'));
    await s.report(s.bob.email, phish('One', 'x@one.example', 'https://one.example/'));
    const b = await s.report(s.ada.email, phish('Two', 'x@two.example', 'https://two.example/'));
    await s.report(s.ada.email, phish('Three', 'x@three.example', 'https://three.example/'));
    await t.app.db
      .updateTable('reports')
      .set({ first_reported_at: Date.now() - 3_600_000 })
      .where('id', 'in', [a.report_id, b.report_id])
      .execute();
    await send()(s.admin, 'POST', `${s.base}/reports/${a.report_id}/verdict`, { verdict: 'malicious' });
    await send()(s.admin, 'POST', `${s.base}/reports/${b.report_id}/verdict`, { verdict: 'safe' });
    const { reporting } = (await send()(s.admin, 'GET', `${s.base}/overview`)).json();
    expect(reporting.reports_per_week).toHaveLength(8);
    expect(reporting.reports_per_week.at(-1).reports).toBe(4);
    expect(reporting.reports_per_week.slice(0, 7).every((w: { reports: number }) => w.reports === 0)).toBe(
      true,
    );
    expect(reporting).toMatchObject({ judged: 2, awaiting_verdict: 1, reporting_accuracy: 0.5 });
    expect(reporting.median_seconds_to_verdict).toBeGreaterThanOrEqual(3600);
    expect(reporting.median_seconds_to_verdict).toBeLessThan(3700);
  });
});

describe('GET /customer/reports/', () => {
  it('lists the account’s real reports with filters, and shows one; reports:read only', async () => {
    const s = await setUp();
    const { key } = await makeKey(t.app, { accountId: s.accountId, grants: ['reports:r'] });
    const writer = await makeKey(t.app, { accountId: s.accountId, grants: ['reports:w'] });
    const a = await s.report(s.ada.email, phish('First'));
    const b = await s.report(s.ada.email, phish('Second', 'x@two.example', 'https://two.example/'));
    await send()(s.admin, 'POST', `${s.base}/reports/${a.report_id}/verdict`, { verdict: 'malicious' });
    const get = (url: string, apikey = key) =>
      t.app.inject({ method: 'GET', url: `/api/api_gateway/customer/reports/${url}`, headers: { apikey } });
    const all = await get('');
    expect(all.json()).toMatchObject({
      count: 2,
      next: null,
      results: [{ id: b.report_id }, { id: a.report_id }],
    });
    expect((await get('?verdict=malicious')).json()).toMatchObject({
      count: 1,
      results: [{ id: a.report_id }],
    });
    expect((await get('?verdict=none')).json()).toMatchObject({ count: 1, results: [{ id: b.report_id }] });
    expect(
      (await get(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).json(),
    ).toMatchObject({ count: 0 });
    expect((await get('?since=yesterday')).statusCode).toBe(400);
    const one = (await get(`${a.report_id}/`)).json();
    expect(one).toMatchObject({ id: a.report_id, verdict: 'malicious', message: { subject: 'First' } });
    expect(one.message).not.toHaveProperty('html');
    expect((await get(`${a.report_id}/`, writer.key)).statusCode).toBe(403);
    const stranger = await makeKey(t.app, { grants: ['reports:r'] });
    expect((await get(`${a.report_id}/`, stranger.key)).statusCode).toBe(404);
  });
});
