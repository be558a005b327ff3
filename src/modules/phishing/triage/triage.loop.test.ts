import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeEmployee, makeKey } from '../../../../test/helpers/factories.js';
import { mailWorkerTo } from '../../../../test/helpers/mail-worker.js';
import { startSmtpServer } from '../../../../test/helpers/smtp.js';
import { startReceiver } from '../../../../test/helpers/webhook-receiver.js';
import { systemClock } from '../../../core/outbox/clock.js';
import { WebhookWorker } from '../../../workers/webhook-worker.js';

// The whole loop with real peers: an SMTP server receives the feedback mail, an HTTP receiver
// the signed webhooks, checked with the standardwebhooks package.
const { app } = await buildTestApp({
  WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32',
  WEBHOOKS_ALLOW_HTTP: 'on',
  REPORT_READ_TIMEOUT_MS: '60000',
});
const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
const smtp = await startSmtpServer();
afterAll(() => smtp.close());

describe('the reporting loop, end to end', () => {
  it('a reported phish → a verdict → the reporter’s feedback mail arrives and both webhooks are delivered signed', async () => {
    const { id: accountId } = await makeAccount(app);
    const { key } = await makeKey(app, { accountId });
    const reportKey = (await makeKey(app, { accountId, grants: ['reports:w'] })).key;
    const ann = await makeEmployee(app, accountId, { first_name: 'Ann', email: 'ann.lee@example.com' });
    const endpoint = await client(app, key).post('/customer/webhooks/endpoints/', {
      url: `${receiver.url}/soc`,
      event_types: ['report.received', 'report.verdict'],
    });
    const { secret } = endpoint.json() as { secret: string };

    const eml = [
      'From: Payroll <payroll@payro11.example>',
      'To: ann.lee@example.com',
      'Subject: Your salary statement',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Open https://payro11.example/statement to see your salary.',
      '',
    ].join('\r\n');
    const reported = await app.inject({
      method: 'POST',
      url: '/api/api_gateway/customer/reports/',
      headers: { apikey: reportKey },
      payload: { reporter: ann.email, eml: Buffer.from(eml).toString('base64') },
    });
    expect(reported.json()).toMatchObject({ outcome: 'real' });
    const reportId = reported.json().report_id as number;

    const admin = await signInAs(app, { role: 'account_admin', accountId });
    const judged = await app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${accountId}/reports/${reportId}/verdict`,
      headers: admin.headers,
      payload: { verdict: 'malicious', note: 'Credential phishing; blocked at the gateway.' },
    });
    expect(judged.statusCode).toBe(200);

    await mailWorkerTo(app.db, smtp, { now: Date.now() + 1000 }).drain();
    const mail = smtp.accepted.find((m) => m.recipients.includes(ann.email));
    expect(mail?.subject).toBe('You reported a real attack: thank you');
    expect(mail?.text).toContain('Hello Ann');
    expect(mail?.text).toContain('"Your salary statement"');
    expect(mail?.text).toContain('Credential phishing; blocked at the gateway.');

    const worker = new WebhookWorker({
      db: app.db,
      log: { info() {}, warn() {}, error() {} },
      timeoutMs: 5000,
      leaseMs: 60_000,
      concurrency: 1,
      allowedNetworks: app.config.webhooks.allowedNetworks,
      clock: systemClock,
      random: () => 0.5,
    });
    expect((await worker.drain()).succeeded).toBe(2);
    const verified = receiver.received
      .filter((r) => r.path === '/soc')
      .map(
        (r) =>
          new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
            type: string;
            data: Record<string, unknown>;
          },
      );
    expect(verified.map((v) => v.type)).toEqual(['report.received', 'report.verdict']);
    expect(verified[0]!.data).toMatchObject({
      created: true,
      reporter: { address: ann.email, channel: 'addin' },
      report: { id: reportId, sender: 'payroll@payro11.example', verdict: null },
    });
    expect(verified[1]!.data).toMatchObject({ id: reportId, verdict: 'malicious', reporter_count: 1 });
  });
});
