import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import {
  completeEndedPhishingCampaignsOfAllAccounts,
  launchDuePhishingCampaignsOfAllAccounts,
} from './campaigns.kind.service.js';
import { launchPhishingCampaign } from './campaigns.launch.commands.js';
import { localFields } from './campaigns.window.model.js';

// A phishing campaign's life through the admin API (draft → scheduled → running → completed →
// archived): the rules of each status, the launch (one recipient per person, the account's
// employees only, one simulation queued each, inside the window), stop and the scheduler.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);
const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

async function setup() {
  const account = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  const { key } = await makeKey(t.app, { accountId: account.id });
  const api = client(t.app, key);
  const base = `/accounts/${account.id}/phishing/campaigns`;
  const people = [];
  for (const name of ['Ann', 'Bob', 'Cy'])
    people.push(await makeEmployee(t.app, account.id, { first_name: name }));
  const [ann, bob, cy] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
  const sales = await makeGroup(t.app, account.id, 'Sales');
  const ops = await makeGroup(t.app, account.id, 'Ops');
  await api.put(`/customer/groups/${sales.id}/`, { employee_ids: [ann.id, bob.id] });
  await api.put(`/customer/groups/${ops.id}/`, { employee_ids: [bob.id, cy.id] });
  return { accountId: account.id, admin, base, ann, bob, cy, sales, ops };
}

const window = () => ({
  window_start_at: at(Date.now() + DAY),
  window_end_at: at(Date.now() + 15 * DAY),
  weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
  hour_start: 9,
  hour_end: 17,
  time_zone: 'Europe/Berlin',
});

async function draft(admin: AdminClient, base: string, body: Record<string, unknown>) {
  const res = await send(admin, 'POST', base, { name: 'Q4 phishing test', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('phishing campaigns', () => {
  it('creates a draft with every setting, refuses bad input and 404s other accounts', async () => {
    const { admin, base, sales, ops } = await setup();
    const created = await draft(admin, base, {
      description: 'Sales and ops',
      group_ids: [ops.id, sales.id],
      template_keys: ['builtin:invoice-final-notice', 'builtin:calendar-team-restructure'],
      remedial_course_keys: ['phishing'],
      landing: 'teach_on_submit',
      remedial_on: 'submit',
      grace_hours: 48,
      sender_domain: 'Mail.Example.com',
      ...window(),
    });
    expect(created).toMatchObject({
      status: 'draft',
      group_ids: [sales.id, ops.id].sort((a, b) => a - b),
      template_keys: ['builtin:invoice-final-notice', 'builtin:calendar-team-restructure'],
      remedial_course_keys: ['phishing'],
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      time_zone: 'Europe/Berlin',
      sender_domain: 'mail.example.com',
      figures: null,
      allowed_actions: ['edit', 'schedule', 'launch', 'archive', 'delete'],
    });
    expect(created.templates[0].name).toEqual(expect.any(String));

    const bad = await send(admin, 'POST', base, {
      name: 'x',
      time_zone: 'Mars/Olympus',
      template_keys: ['builtin:nope', 'http://x'],
      weekdays: ['someday'],
      hour_start: 25,
      sender_domain: 'not a host',
      landing: 'never',
    });
    expect(bad.statusCode).toBe(400);
    const details = bad.json().details;
    for (const field of [
      'time_zone',
      'template_keys',
      'weekdays',
      'hour_start',
      'sender_domain',
      'landing',
    ]) {
      expect(details, field).toHaveProperty(field);
    }
    const unknown = await send(admin, 'POST', base, { name: 'x', template_keys: ['builtin:nope'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details.template_keys[0]).toMatch(/unknown templates/);
    const hours = await send(admin, 'POST', base, { name: 'x', hour_start: 12, hour_end: 10 });
    expect(hours.statusCode).toBe(400);

    const other = await setup();
    expect((await send(other.admin, 'GET', `${other.base}/${created.id}`)).statusCode).toBe(404);
    expect((await send(other.admin, 'POST', `${other.base}/${created.id}/launch`)).statusCode).toBe(404);
    const list = await send(admin, 'GET', `${base}?status=draft`);
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: created.id }] });
    expect((await send(admin, 'GET', `${base}?status=bogus`)).statusCode).toBe(400);
  });

  it('schedules only a ready campaign with open time left, and keeps running ones fixed', async () => {
    const { admin, base, sales } = await setup();
    const empty = await draft(admin, base, {});
    const refused = await send(admin, 'POST', `${base}/${empty.id}/schedule`);
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().details).sort()).toEqual(
      ['group_ids', 'template_keys', 'window_end_at', 'window_start_at'].sort(),
    );
    const past = await draft(admin, base, {
      group_ids: [sales.id],
      template_keys: ['builtin:invoice-final-notice'],
      window_start_at: at(Date.now() - 10 * DAY),
      window_end_at: at(Date.now() - 9 * DAY),
    });
    expect((await send(admin, 'POST', `${base}/${past.id}/launch`)).statusCode).toBe(400);
    const weekendOnly = await draft(admin, base, {
      group_ids: [sales.id],
      template_keys: ['builtin:invoice-final-notice'],
      ...window(),
      window_end_at: at(Date.now() + DAY + HOUR),
      weekdays: ['sat'],
      hour_start: 0,
      hour_end: 1,
    });
    // At most two hours of window: rarely a Saturday 00:00–01:00 in Berlin; if so, it is fine.
    const r = await send(admin, 'POST', `${base}/${weekendOnly.id}/schedule`);
    expect([200, 400]).toContain(r.statusCode);

    const ready = await draft(admin, base, {
      group_ids: [sales.id],
      template_keys: ['builtin:invoice-final-notice'],
      ...window(),
    });
    const scheduled = await send(admin, 'POST', `${base}/${ready.id}/schedule`);
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().allowed_actions).toEqual(['edit', 'unschedule', 'launch']);
    expect((await send(admin, 'DELETE', `${base}/${ready.id}`)).statusCode).toBe(409);
    const launched = await send(admin, 'POST', `${base}/${ready.id}/launch`);
    expect(launched.statusCode, launched.body).toBe(200);
    expect(launched.json()).toMatchObject({ status: 'running', figures: { recipients: 2, delivered: 0 } });
    const locked = await send(admin, 'PATCH', `${base}/${ready.id}`, { hour_end: 18 });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().code).toBe('campaign_field_locked');
    expect(
      (await send(admin, 'PATCH', `${base}/${ready.id}`, { name: 'Renamed', grace_hours: 10 })).statusCode,
    ).toBe(200);
    expect((await send(admin, 'POST', `${base}/${ready.id}/launch`)).statusCode).toBe(409);
    expect((await send(admin, 'DELETE', `${base}/${empty.id}`)).statusCode).toBe(204);
  });

  it('launches one recipient per person, the account’s own only, with one simulation each inside the window', async () => {
    const { accountId, admin, base, sales, ops, ann, bob, cy } = await setup();
    // Another account's employee slipped into this account's group must never be included.
    const other = await setup();
    await t.app.db
      .insertInto('group_members')
      .values({ group_id: sales.id, employee_id: other.ann.id })
      .execute();
    const c = await draft(admin, base, {
      group_ids: [sales.id, ops.id],
      template_keys: ['builtin:invoice-final-notice', 'builtin:calendar-team-restructure'],
      remedial_course_keys: ['phishing'],
      ...window(),
    });
    const res = await send(admin, 'POST', `${base}/${c.id}/launch`);
    expect(res.statusCode, res.body).toBe(200);
    const campaign = res.json();
    expect(campaign.remedial_campaign_id).toEqual(expect.any(Number));
    const recipients = await t.app.db
      .selectFrom('phishing_recipients')
      .selectAll()
      .where('campaign_id', '=', c.id)
      .orderBy('employee_id')
      .execute();
    expect(recipients.map((r) => r.employee_id)).toEqual([ann.id, bob.id, cy.id]);
    expect(recipients.every((r) => r.account_id === accountId && r.status === 'scheduled')).toBe(true);
    expect(JSON.parse(recipients[1]?.group_ids as string)).toEqual([sales.id, ops.id].sort((a, b) => a - b));
    expect(new Set(recipients.map((r) => r.token)).size).toBe(3);
    for (const r of recipients) {
      expect(r.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(c.template_keys).toContain(r.template_key);
      const local = new Date(localFields(r.planned_at, 'Europe/Berlin'));
      expect(local.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local.getUTCHours()).toBeLessThan(17);
      expect([1, 2, 3, 4, 5]).toContain(local.getUTCDay());
    }
    const messages = await t.app.db
      .selectFrom('messages')
      .selectAll()
      .where(
        'phishing_recipient_id',
        'in',
        recipients.map((r) => r.id),
      )
      .execute();
    expect(messages).toHaveLength(3);
    for (const m of messages) {
      const r = recipients.find((x) => x.id === m.phishing_recipient_id);
      expect(m).toMatchObject({
        kind: 'simulation',
        status: 'queued',
        campaign_id: null,
        enrollment_id: null,
      });
      expect(m.next_attempt_at).toBe(r?.planned_at);
    }
    const figures = await t.app.db
      .selectFrom('phishing_figures')
      .selectAll()
      .where('campaign_id', '=', c.id)
      .execute();
    const fig = (d: string, k: string) =>
      figures.find((f) => f.dimension === d && f.dimension_key === k)?.recipients;
    expect(fig('all', '')).toBe(3);
    expect(fig('group', String(sales.id))).toBe(2);
    expect(fig('group', String(ops.id))).toBe(2);
    const snapshots = await t.app.db
      .selectFrom('phishing_campaign_templates')
      .select(['template_key', 'snapshot'])
      .where('campaign_id', '=', c.id)
      .execute();
    expect(snapshots.every((s) => s.snapshot && JSON.parse(s.snapshot).subject)).toBe(true);
    const remedial = await t.app.db
      .selectFrom('training_campaigns')
      .selectAll()
      .where('id', '=', campaign.remedial_campaign_id)
      .executeTakeFirstOrThrow();
    expect(remedial).toMatchObject({
      account_id: accountId,
      status: 'active',
      name: 'Q4 phishing test: remedial training',
    });
    // No simulation for the other account's employee.
    expect(
      await t.app.db
        .selectFrom('phishing_recipients')
        .select('id')
        .where('employee_id', '=', other.ann.id)
        .execute(),
    ).toEqual([]);

    // A retried launch: 409, and nothing is queued twice.
    await expect(
      launchPhishingCampaign(t.app.db, { accountId, campaignId: c.id, trigger: 'now' }),
    ).rejects.toThrow();
    const again = await t.app.db
      .selectFrom('messages')
      .select('id')
      .where(
        'phishing_recipient_id',
        'in',
        recipients.map((r) => r.id),
      )
      .execute();
    expect(again).toHaveLength(3);

    // Stop: the queued simulations are cancelled.
    const stopped = await send(admin, 'POST', `${base}/${c.id}/stop`);
    expect(stopped.json()).toMatchObject({ status: 'completed', completed_reason: 'stopped' });
    const after = await t.app.db
      .selectFrom('messages')
      .select('status')
      .where(
        'phishing_recipient_id',
        'in',
        recipients.map((r) => r.id),
      )
      .execute();
    expect(after.map((m) => m.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect((await send(admin, 'POST', `${base}/${c.id}/archive`)).json().status).toBe('archived');
  });

  it('the scheduler launches at the window’s start and completes after the grace period', async () => {
    const { accountId, admin, base, sales } = await setup();
    const c = await draft(admin, base, {
      group_ids: [sales.id],
      template_keys: ['builtin:invoice-final-notice'],
      grace_hours: 1,
      ...window(),
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    });
    expect((await send(admin, 'POST', `${base}/${c.id}/schedule`)).statusCode).toBe(200);
    const start = Date.parse(c.window_start_at);
    await launchDuePhishingCampaignsOfAllAccounts(t.app.db, start - 1000);
    expect((await send(admin, 'GET', `${base}/${c.id}`)).json().status).toBe('scheduled');
    await launchDuePhishingCampaignsOfAllAccounts(t.app.db, start + 1000);
    expect((await send(admin, 'GET', `${base}/${c.id}`)).json().status).toBe('running');
    const end = Date.parse(c.window_end_at);
    await completeEndedPhishingCampaignsOfAllAccounts(t.app.db, end + HOUR - 1000);
    expect((await send(admin, 'GET', `${base}/${c.id}`)).json().status).toBe('running');
    await completeEndedPhishingCampaignsOfAllAccounts(t.app.db, end + HOUR + 1000);
    expect((await send(admin, 'GET', `${base}/${c.id}`)).json()).toMatchObject({
      status: 'completed',
      completed_reason: 'window_ended',
    });
    expect(accountId).toBeGreaterThan(0);
  });
});
