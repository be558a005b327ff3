import { createTransport } from 'nodemailer';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { afterFile } from '../../../../test/helpers/cleanup.js';
import { makeAccount, makeEmployee } from '../../../../test/helpers/factories.js';
import { figuresOf, seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import {
  gmailForward,
  microsoft365Report,
  type Original,
  phoneForward,
} from '../../../../test/helpers/reporting-mail.js';
import { type ReportsByMail, startReportsByMail } from './mailbox.intake.service.js';
import { reportingAddressOf } from './mailbox.service.js';

// End to end: the real app's intake behind the listener, real SMTP from nodemailer, on the
// database under test. A forwarded simulation is credited to the employee; a forwarded real
// phish is filed for triage; a stranger is refused with the reason.

const DOMAIN = 'reports.example.com';
const PHISH_URL = 'https://phish.example.net';

let t: TestApp;
let reports: ReportsByMail;
beforeAll(async () => {
  t = await buildTestApp({
    REPORT_SMTP_PORT: '0',
    REPORT_SMTP_HOST: '127.0.0.1',
    REPORT_DOMAIN: DOMAIN,
    PUBLIC_URL: 'https://training.example.com',
    PHISH_URL,
    REPORT_READ_TIMEOUT_MS: '60000',
  });
  reports = (await startReportsByMail({
    config: t.app.config,
    db: t.app.db,
    log: t.app.log,
    intake: t.app.reportIntake,
  })) as ReportsByMail;
  afterFile(() => reports.close());
});

async function send(raw: string, to: string) {
  const transport = createTransport({
    host: '127.0.0.1',
    port: reports.port,
    secure: false,
    ignoreTLS: true,
  });
  try {
    return await transport.sendMail({
      envelope: { from: 'SRS0=x=YZ=acme.example=a@forwarder.example', to },
      raw,
    });
  } finally {
    transport.close();
  }
}

const realPhish = (to: string): Original => ({
  from: 'IT Service Desk <helpdesk@evil.example>',
  to,
  subject: 'Your mailbox is full',
  text: 'Keep your mail: https://login.evil.example/reset?u=1',
});

async function reportsOf(accountId: number) {
  return t.app.db
    .selectFrom('reports')
    .select(['id', 'sender', 'subject', 'reporters'])
    .where('account_id', '=', accountId)
    .execute();
}

describe('the reporting address, end to end', () => {
  it('credits a simulation reported with Microsoft 365’s Report button to the employee who reported it', async () => {
    const account = await makeAccount(t.app);
    const address = (await reportingAddressOf(t.app.db, account.id, DOMAIN)) as string;
    const campaign = await seedPhishingCampaign(t.app, account.id);
    const [person] = campaign.people;
    const email = person?.employee.email as string;
    const raw = microsoft365Report({
      reporter: `Ada <${email}>`,
      to: 'phish-reports@acme.example',
      original: {
        from: 'Payroll <payroll@payroll-portal.example>',
        to: email,
        subject: 'Your December payslip',
        text: `Open your payslip: ${PHISH_URL}/v/${person?.token}`,
      },
    });
    const info = await send(raw, address);
    expect(info.response).toMatch(/^250 /);
    expect(await figuresOf(t.app, campaign.campaignId)).toMatchObject({ reported: 1 });
    expect(await reportsOf(account.id)).toEqual([]);
  });

  it('files a real phish forwarded from Gmail and from a phone as one report with two reporters', async () => {
    const account = await makeAccount(t.app);
    const address = (await reportingAddressOf(t.app.db, account.id, DOMAIN)) as string;
    const ada = await makeEmployee(t.app, account.id);
    const bob = await makeEmployee(t.app, account.id);
    await send(
      gmailForward({ reporter: `Ada <${ada.email}>`, to: address, original: realPhish(ada.email) }),
      address,
    );
    await send(phoneForward({ reporter: bob.email, to: address, original: realPhish(bob.email) }), address);
    const filed = await reportsOf(account.id);
    expect(filed).toEqual([
      {
        id: expect.anything(),
        sender: 'helpdesk@evil.example',
        subject: 'Your mailbox is full',
        reporters: 2,
      },
    ]);
    const reporters = await t.app.db
      .selectFrom('report_reporters')
      .select(['address', 'channel'])
      .where('account_id', '=', account.id)
      .orderBy('id')
      .execute();
    expect(reporters).toEqual([
      { address: ada.email.toLowerCase(), channel: 'smtp' },
      { address: bob.email.toLowerCase(), channel: 'smtp' },
    ]);
  });

  it('refuses a reporter who is not one of the account’s employees, with the reason, and files nothing', async () => {
    const account = await makeAccount(t.app);
    const other = await makeAccount(t.app);
    const address = (await reportingAddressOf(t.app.db, account.id, DOMAIN)) as string;
    const stranger = await makeEmployee(t.app, other.id);
    const raw = gmailForward({ reporter: stranger.email, to: address, original: realPhish(stranger.email) });
    const refused = await send(raw, address).then(
      () => null,
      (err: { responseCode?: number; response?: string }) => err,
    );
    expect(refused?.responseCode).toBe(550);
    expect(refused?.response).toBe(
      `550 5.7.1 ${stranger.email} is not an employee of the organisation this reporting address belongs to; only its employees' reports are accepted`,
    );
    expect(await reportsOf(account.id)).toEqual([]);
    expect(await reportsOf(other.id)).toEqual([]);
  });
});
