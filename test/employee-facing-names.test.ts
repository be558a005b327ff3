import { beforeAll, describe, expect, it } from 'vitest';
import { queueCampaignMessages } from '../src/modules/mail/index.js';
import { launchPhishingCampaign } from '../src/modules/phishing/campaigns/campaigns.launch.commands.js';
import { createPhishingCampaign } from '../src/modules/phishing/campaigns/campaigns.service.js';
import { launchCampaign } from '../src/modules/training/campaigns/campaigns.launch.commands.js';
import { createCampaign } from '../src/modules/training/campaigns/campaigns.service.js';
import { runScheduledWork } from '../src/workers/scheduler.js';
import { adminSender, signInAs } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { client, makeAccount, makeEmployee, makeGroup, makeKey } from './helpers/factories.js';
import { pngLogo } from './helpers/logos.js';
import { mailWorkerTo } from './helpers/mail-worker.js';
import { BROWSER, quietLog } from './helpers/phishing.js';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from './helpers/smtp.js';

// Issue 21, item 5: what employees see names the training by its courses and the organisation
// by the name (and logo) its administrators chose for them, never by a campaign's name, which is
// the administrators' own word ("Smoke test now"). Every kind of employee mail goes through the
// real mail worker to a real SMTP server, and every employee page is fetched, for campaigns
// whose names and descriptions carry a code name that must appear nowhere.

const CODENAME = 'INTERNAL-CODENAME';
const DAY = 86_400_000;
const _BASE = 'https://vigil.example.com';
const PHISH = 'https://phish.example.net';

let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  t = await buildTestApp();
  smtp = await startSmtpServer();
});

/** The mail worker at `now`, to the test's SMTP server. */
function drainAt(now: number) {
  return mailWorkerTo(t.app.db, smtp, { now, phishBaseUrl: PHISH }).drain();
}

/** An account whose employees know it as "Acme", with a logo, and one employee in one group. */
async function brandedAccount() {
  const account = await makeAccount(t.app, `${CODENAME} account ${Math.random()}`);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  const send = adminSender(t.app);
  expect(
    (await send(admin, 'PATCH', `/accounts/${account.id}/settings`, { display_name: 'Acme' })).statusCode,
  ).toBe(200);
  const logo = await t.app.inject({
    method: 'PUT',
    url: `/admin/api/accounts/${account.id}/settings/logo`,
    headers: { ...admin.headers, 'content-type': 'image/png' },
    payload: pngLogo(),
  });
  expect(logo.statusCode, logo.body).toBe(200);
  const { key } = await makeKey(t.app, { accountId: account.id });
  const ann = await makeEmployee(t.app, account.id, { first_name: 'Ann' });
  const group = await makeGroup(t.app, account.id, 'Everyone');
  await client(t.app, key).put(`/customer/groups/${group.id}/`, { employee_ids: [ann.id] });
  return { account, ann, group };
}

const mailsTo = (email: string) => smtp.accepted.filter((m) => m.recipients.includes(email));

/** What employees see in a mail: nothing of the code name, the organisation by its display name, its logo inline. */
function expectEmployeeFacing(mail: ReceivedMail | undefined) {
  expect(mail).toBeDefined();
  const m = mail as ReceivedMail;
  expect(m.raw).not.toContain(CODENAME);
  expect(m.subject).not.toContain(CODENAME);
  expect(m.text).toContain('Sent on behalf of Acme by Vigil security training.');
  // The logo travels in the message (Content-ID), shown by its cid: reference.
  const cid = /<img src="cid:([^"]+)"/.exec(m.html)?.[1];
  expect(cid).toMatch(/^logo-[0-9a-f]{16}@vigil$/);
  expect(m.raw).toMatch(new RegExp(`^Content-ID: <${cid}>\\r?$`, 'm'));
  expect(m.raw).toMatch(/^Content-Type: image\/png/m);
}

/** What employees see on a page: nothing of the code name, the organisation and its logo. */
function expectEmployeePage(body: string) {
  expect(body).not.toContain(CODENAME);
  expect(body).toContain('Acme');
  expect(body).toContain('src="data:image/png;base64,');
}

const learnerPath = (text: string) => /\/learn\/[^\s"<>]+/.exec(text)?.[0] as string;

describe('employee-facing mail and pages never name a campaign', () => {
  it('a training campaign: invitation, reminder, new link and every learner page', async () => {
    const { account, ann, group } = await brandedAccount();
    const now = Date.now();
    const created = await createCampaign(t.app.db, account.id, {
      name: `${CODENAME}: Smoke test now`,
      description: `${CODENAME} — for the auditors`,
      course_keys: ['phishing', 'passwords-and-mfa'],
      group_ids: [group.id],
      due_date: new Date(now + 20 * DAY).toISOString(),
      reminder_days: [7],
    });
    await launchCampaign(t.app.db, { accountId: account.id, campaignId: created.id, trigger: 'now', now });
    await drainAt(now);
    const [invitation] = mailsTo(ann.email);
    expectEmployeeFacing(invitation);
    expect(invitation?.subject).toBe(
      'Your security training: Spotting phishing and Passwords and multi-factor authentication',
    );

    const home = await t.app.inject({ method: 'GET', url: learnerPath(invitation?.text ?? '') });
    expect(home.statusCode).toBe(200);
    expectEmployeePage(home.body);
    expect(home.body).toContain('Acme has asked you to complete these 2 courses.');
    const lesson = /href="(\/learn\/[^"]+\/lessons\/1)"/.exec(home.body)?.[1] as string;
    const lessonPage = await t.app.inject({ method: 'GET', url: lesson });
    expect(lessonPage.statusCode).toBe(200);
    expectEmployeePage(lessonPage.body);

    const weekBefore = now + 13 * DAY + 1000;
    await runScheduledWork(t.app.db, weekBefore, quietLog);
    await drainAt(weekBefore);
    const reminder = mailsTo(ann.email).find((m) => m.subject.startsWith('Reminder:'));
    expectEmployeeFacing(reminder);
    expect(reminder?.subject).toMatch(/^Reminder: 7 days left for Spotting phishing and /);

    const [enrollment] = await t.app.db
      .selectFrom('enrollments')
      .select('id')
      .where('campaign_id', '=', created.id)
      .execute();
    await t.app.db.transaction().execute((trx) =>
      queueCampaignMessages(trx, {
        accountId: account.id,
        campaignId: created.id,
        kind: 'link',
        round: 1,
        now: weekBefore,
        enrollmentIds: [Number(enrollment?.id)],
      }),
    );
    await drainAt(weekBefore);
    const link = mailsTo(ann.email).find((m) => m.subject.startsWith('Your new link'));
    expectEmployeeFacing(link);
  });

  it('a phishing campaign: the simulation, the teachable page, the remedial invitation, reminder and learner page', async () => {
    const { account, ann, group } = await brandedAccount();
    const now = Date.now();
    const draft = await createPhishingCampaign(t.app.db, account.id, {
      name: `${CODENAME}: Smoke test now`,
      description: `${CODENAME} — internal`,
      group_ids: [group.id],
      template_keys: ['builtin:password-expiry-today'],
      remedial_course_keys: ['phishing'],
      landing: 'teach_on_click',
      window_start_at: new Date(now - DAY).toISOString(),
      window_end_at: new Date(now + DAY).toISOString(),
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      hour_start: 0,
      hour_end: 24,
      automated_window_seconds: 0,
    });
    const campaign = await launchPhishingCampaign(t.app.db, {
      accountId: account.id,
      campaignId: draft.id,
      trigger: 'now',
    });
    // The remedial training campaign is named after the simulation: for administrators only.
    const remedial = await t.app.db
      .selectFrom('training_campaigns')
      .select(['name'])
      .where('id', '=', campaign.remedial_campaign_id as number)
      .executeTakeFirstOrThrow();
    expect(remedial.name).toContain(CODENAME);
    // Planned, and sent, ten minutes ago.
    const recipients = t.app.db
      .selectFrom('phishing_recipients')
      .select('id')
      .where('campaign_id', '=', campaign.id);
    await t.app.db
      .updateTable('phishing_recipients')
      .set({ planned_at: now - 600_000 })
      .where('campaign_id', '=', campaign.id)
      .execute();
    await t.app.db
      .updateTable('messages')
      .set({ next_attempt_at: now - 600_000 })
      .where('phishing_recipient_id', 'in', recipients)
      .execute();
    await drainAt(now - 600_000);
    const [simulation] = mailsTo(ann.email);
    expect(simulation?.raw).not.toContain(CODENAME);
    const token = /\/v\/([\w-]+)/.exec(simulation?.html ?? '')?.[1] as string;

    const clicked = await t.app.inject({
      method: 'GET',
      url: `/v/${token}`,
      headers: { 'user-agent': BROWSER },
      remoteAddress: '198.51.100.20',
    });
    expect(clicked.statusCode).toBe(200);
    expectEmployeePage(clicked.body);
    expect(clicked.body).toContain('a simulation sent by the security team of Acme');

    // The click settles, the person is enrolled and invited.
    const settled = Date.now() + 120_000;
    await runScheduledWork(t.app.db, settled, quietLog);
    await drainAt(settled);
    const invitation = mailsTo(ann.email).find((m) => m.subject.startsWith('Your security training'));
    expectEmployeeFacing(invitation);
    expect(invitation?.subject).toBe('Your security training: Spotting phishing');
    expect(invitation?.text).toContain('Please finish it by');

    const teachable = await t.app.inject({
      method: 'GET',
      url: `/v/${token}/learn`,
      headers: { 'user-agent': BROWSER },
      remoteAddress: '198.51.100.20',
    });
    expectEmployeePage(teachable.body);
    expect(teachable.body).toContain('A short course about spotting phishing was assigned to you.');

    const home = await t.app.inject({ method: 'GET', url: learnerPath(invitation?.text ?? '') });
    expect(home.statusCode).toBe(200);
    expectEmployeePage(home.body);
    expect(home.body).toContain('Due by');

    // Remedial training is due 14 days after the failure; its reminder a week before.
    const weekBefore = settled + 7 * DAY + 1000;
    await runScheduledWork(t.app.db, weekBefore, quietLog);
    await drainAt(weekBefore);
    const reminder = mailsTo(ann.email).find((m) => m.subject.startsWith('Reminder:'));
    expectEmployeeFacing(reminder);
    expect(reminder?.subject).toBe('Reminder: 7 days left for Spotting phishing');
  });
  it('the Outbox shows the logo a training message carried from a data: URL, and none once it is replaced', async () => {
    const { account, ann, group } = await brandedAccount();
    const now = Date.now();
    const created = await createCampaign(t.app.db, account.id, {
      name: `${CODENAME}: outbox`,
      course_keys: ['phishing'],
      group_ids: [group.id],
      due_date: new Date(now + 20 * DAY).toISOString(),
    });
    await launchCampaign(t.app.db, { accountId: account.id, campaignId: created.id, trigger: 'now', now });
    await drainAt(now);
    expectEmployeeFacing(mailsTo(ann.email).at(-1));
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const send = adminSender(t.app);
    const [message] = (await send(admin, 'GET', `/accounts/${account.id}/messages`)).json().results;
    const shown = async () =>
      (await send(admin, 'GET', `/accounts/${account.id}/messages/${message.id}`)).json().body_html as string;
    const html = await shown();
    expect(html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/]+=*" alt=""/);
    expect(html).not.toContain('cid:');
    // Another logo: the one the message carried is no longer at hand, so none is shown.
    const replaced = await t.app.inject({
      method: 'PUT',
      url: `/admin/api/accounts/${account.id}/settings/logo`,
      headers: { ...admin.headers, 'content-type': 'image/png' },
      payload: pngLogo(120, 40, [200, 30, 30]),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const after = await shown();
    expect(after).not.toContain('<img');
    expect(after).toContain('Spotting phishing');
  });
});
