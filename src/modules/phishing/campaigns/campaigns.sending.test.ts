import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import { mailWorkerTo } from '../../../../test/helpers/mail-worker.js';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { deleteEmployee } from '../../directory/employees/employees.service.js';
import { catchUpSimulationOutcomesOfAllAccounts } from '../simulation/simulation.delivery.commands.js';
import { launchPhishingCampaign } from './campaigns.launch.commands.js';
import { createPhishingCampaign } from './campaigns.service.js';
import { stopPhishingCampaign } from './campaigns.transitions.commands.js';

// Simulations through the real mail queue and worker to a real SMTP server: what arrives (the
// header, the sender, the personal link and tracking image on PHISH_URL, values escaped), and
// the recipient's step, event and figures once the outcome is known.

const PHISH = 'https://phish.example.net';
const BASE = 'https://vigil.example.com';
const DAY = 86_400_000;

let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  t = await buildTestApp();
  smtp = await startSmtpServer();
});

function worker(now: number) {
  return mailWorkerTo(t.app.db, smtp, { now, concurrency: 2, baseUrl: BASE, phishBaseUrl: PHISH });
}

async function launched(accountName: string, senderDomain: string | null = null) {
  const account = await makeAccount(t.app, accountName);
  const { key } = await makeKey(t.app, { accountId: account.id });
  const ann = await makeEmployee(t.app, account.id, { first_name: '<b>Ann</b> & "Co"' });
  const bob = await makeEmployee(t.app, account.id, { first_name: 'Bob' });
  const group = await makeGroup(t.app, account.id, 'Everyone');
  await client(t.app, key).put(`/customer/groups/${group.id}/`, { employee_ids: [ann.id, bob.id] });
  const now = Date.now();
  const created = await createPhishingCampaign(t.app.db, account.id, {
    name: 'Sim',
    group_ids: [group.id],
    template_keys: ['builtin:benefits-enrolment-deadline'],
    window_start_at: new Date(now - DAY).toISOString(),
    window_end_at: new Date(now + 2 * DAY).toISOString(),
    weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    hour_start: 0,
    hour_end: 24,
    sender_domain: senderDomain,
  });
  const campaign = await launchPhishingCampaign(t.app.db, {
    accountId: account.id,
    campaignId: created.id,
    trigger: 'now',
  });
  const recipients = await t.app.db
    .selectFrom('phishing_recipients')
    .selectAll()
    .where('campaign_id', '=', campaign.id)
    .orderBy('employee_id')
    .execute();
  return { account, ann, bob, campaign, recipients, end: now + 2 * DAY };
}

const figures = (campaignId: number) =>
  t.app.db
    .selectFrom('phishing_figures')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('dimension', '=', 'all')
    .executeTakeFirstOrThrow();

describe('sending simulations', () => {
  it('sends each at its moment with the header, sender, link and tracking image, and records delivery', async () => {
    const { account, ann, campaign, recipients, end } = await launched('Acme <Widgets>');
    const annR = recipients.find((r) => r.employee_id === ann.id);
    // Before anyone's moment nothing goes.
    const early = Math.min(...recipients.map((r) => r.planned_at)) - 1;
    expect((await worker(early).drain()).sent).toBe(0);
    expect((await worker(end).drain()).sent).toBe(2);
    const mails = smtp.accepted.filter((m) => recipients.some((r) => m.raw.includes(r.token)));
    expect(mails).toHaveLength(2);
    const mail = mails.find((m) => m.raw.includes(annR?.token as string));
    expect(mail?.recipients).toEqual([ann.email]);
    expect(mail?.raw).toMatch(new RegExp(`^X-Vigil-Simulation: ${annR?.token}\\r?$`, 'm'));
    expect(mail?.raw).toMatch(/^From: .*<[^@>]+@phish\.example\.net>/m);
    expect(mail?.html).toContain(`${PHISH}/v/${annR?.token}`);
    expect(mail?.html).toContain(`${PHISH}/t/${annR?.token}.png`);
    expect(mail?.html).not.toContain('<b>Ann</b>');
    expect(mail?.html).toContain('&lt;b&gt;Ann&lt;/b&gt;');
    expect(mail?.text).toContain(`${PHISH}/v/${annR?.token}`);

    const after = await t.app.db
      .selectFrom('phishing_recipients')
      .select(['status', 'sent_at'])
      .where('campaign_id', '=', campaign.id)
      .execute();
    expect(after.every((r) => r.status === 'sent' && r.sent_at !== null)).toBe(true);
    expect(await figures(campaign.id)).toMatchObject({ recipients: 2, delivered: 2, failed: 0 });
    const events = await t.app.db
      .selectFrom('phishing_events')
      .select(['kind', 'classification', 'reason'])
      .where('campaign_id', '=', campaign.id)
      .execute();
    expect(events).toEqual([
      { kind: 'sent', classification: 'human', reason: 'smtp_accepted' },
      { kind: 'sent', classification: 'human', reason: 'smtp_accepted' },
    ]);
    // Recording again changes nothing.
    expect(await catchUpSimulationOutcomesOfAllAccounts(t.app.db, end)).toBe(0);
    expect(await figures(campaign.id)).toMatchObject({ delivered: 2 });

    // The outbox shows them with the person, the campaign's name and the simulation header.
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const outbox = await adminSender(t.app)(admin, 'GET', `/accounts/${account.id}/messages`);
    expect(outbox.statusCode, outbox.body).toBe(200);
    const shown = outbox.json().results;
    expect(shown).toHaveLength(2);
    const annShown = shown.find((m: { to_address: string }) => m.to_address === ann.email);
    expect(annShown).toMatchObject({
      kind: 'simulation',
      campaign: { id: campaign.id, name: 'Sim' },
      headers: [{ name: 'X-Vigil-Simulation', value: annR?.token }],
      from: expect.stringMatching(/^".+" <[^@\s]+@[^>\s]+>$/),
    });
  });

  it('shows in the outbox the From each simulation was sent with, its header and its campaign', async () => {
    const { account, ann, campaign, recipients, end } = await launched('Epsilon', 'mail.epsilon.example');
    await worker(end).drain();
    const annR = recipients.find((r) => r.employee_id === ann.id);
    const mail = smtp.accepted.find((m) => m.raw.includes(annR?.token as string));
    const sentFrom = /^From: (.*)$/m.exec(mail?.raw ?? '')?.[1]?.trim();
    expect(sentFrom).toMatch(/@mail\.epsilon\.example>$/);

    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const send = adminSender(t.app);
    const list = (await send(admin, 'GET', `/accounts/${account.id}/messages`)).json().results;
    const listed = list.find((m: { to_address: string }) => m.to_address === ann.email);
    const detail = await send(admin, 'GET', `/accounts/${account.id}/messages/${listed.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    // The same address and name (the wire form quotes a name only when it must).
    expect(detail.json().from.replaceAll('"', '')).toBe(sentFrom);
    expect(detail.json()).toMatchObject({
      headers: [{ name: 'X-Vigil-Simulation', value: annR?.token }],
      campaign: { id: campaign.id, name: 'Sim' },
    });
    // Another account's administrator learns nothing of it.
    const other = await makeAccount(t.app);
    const stranger = await signInAs(t.app, { role: 'account_admin', accountId: other.id });
    const theirs = await send(stranger, 'GET', `/accounts/${other.id}/messages/${listed.id}`);
    expect(theirs.statusCode).toBe(404);
  });

  it('uses the campaign’s sender domain, records a refused message as failed, cancels for a deleted employee', async () => {
    const { account, ann, bob, campaign, recipients, end } = await launched('Beta', 'mail.beta.example');
    smtp.behaviour = {
      onRecipient: (address) => (address === bob.email ? { code: 550, message: 'no such user' } : undefined),
    };
    try {
      await worker(end).drain();
    } finally {
      smtp.behaviour = {};
    }
    const annR = recipients.find((r) => r.employee_id === ann.id);
    const mail = smtp.accepted.find((m) => m.raw.includes(annR?.token as string));
    expect(mail?.raw).toMatch(/^From: .*@mail\.beta\.example>/m);
    const rows = await t.app.db
      .selectFrom('phishing_recipients')
      .select(['employee_id', 'status', 'failed_at'])
      .where('campaign_id', '=', campaign.id)
      .execute();
    expect(rows.find((r) => r.employee_id === bob.id)).toMatchObject({
      status: 'failed',
      failed_at: expect.any(Number),
    });
    expect(await figures(campaign.id)).toMatchObject({ delivered: 1, failed: 1 });

    const second = await launched('Gamma');
    await deleteEmployee(t.app.db, second.account.id, second.ann.id);
    const sent = smtp.accepted.length;
    expect((await worker(second.end).drain()).sent).toBe(1);
    expect(smtp.accepted.length).toBe(sent + 1);
    const annRow = await t.app.db
      .selectFrom('phishing_recipients')
      .select(['employee_deleted_at'])
      .where('campaign_id', '=', second.campaign.id)
      .where('employee_id', '=', second.ann.id)
      .executeTakeFirstOrThrow();
    expect(annRow.employee_deleted_at).toEqual(expect.any(Number));
    expect(account.id).toBeGreaterThan(0);
  });

  it('a stopped campaign sends nothing more', async () => {
    const { account, campaign, end } = await launched('Delta');
    await stopPhishingCampaign(t.app.db, account.id, campaign.id);
    expect((await worker(end).drain()).sent).toBe(0);
  });
});
