import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import { launchPhishingCampaign } from './campaigns.launch.commands.js';
import { createPhishingCampaign } from './campaigns.service.js';
import { localFields, sendPlan } from './campaigns.window.model.js';

// Sending a lead can predict (issue 21, item 1): the launch confirmation, the campaign page and
// the Customer API's results say when simulations go out, from the one plan the launch draws from.
// Time is driven by the launch's `now` (a Saturday), never waited for.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Saturday 5 January 2030, noon in Berlin (11:00 UTC); the window opened on Friday the 4th.
const SATURDAY_NOON = Date.parse('2030-01-05T11:00:00Z');
const MONDAY_9_BERLIN = '2030-01-07T08:00:00.000Z';
const WORKWEEK = {
  weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
  hour_start: 9,
  hour_end: 17,
  time_zone: 'Europe/Berlin',
};

async function setup() {
  const account = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  const { key } = await makeKey(t.app, { accountId: account.id });
  const api = client(t.app, key);
  const people = [];
  for (const name of ['Ann', 'Bob', 'Cy'])
    people.push(await makeEmployee(t.app, account.id, { first_name: name }));
  const sales = await makeGroup(t.app, account.id, 'Sales');
  const ops = await makeGroup(t.app, account.id, 'Ops');
  const ids = people.map((p) => p.id);
  await api.put(`/customer/groups/${sales.id}/`, { employee_ids: ids.slice(0, 2) });
  await api.put(`/customer/groups/${ops.id}/`, { employee_ids: ids.slice(1) });
  return {
    accountId: account.id,
    admin,
    api,
    groups: [sales.id, ops.id],
    base: `/accounts/${account.id}/phishing/campaigns`,
  };
}

describe('when simulations go out', () => {
  it('a launch on a Saturday plans Monday 09:00 in the campaign’s zone, and the page and the API say so', async () => {
    const { accountId, admin, api, groups, base } = await setup();
    const draft = await createPhishingCampaign(t.app.db, accountId, {
      name: 'Weekend launch',
      group_ids: groups,
      template_keys: ['builtin:benefits-enrolment-deadline'],
      window_start_at: '2030-01-04T00:00:00+01:00',
      window_end_at: '2030-01-18T00:00:00+01:00',
      ...WORKWEEK,
    });
    // The earliest draw: every moment is the window's first open instant after the launch.
    await launchPhishingCampaign(t.app.db, {
      accountId,
      campaignId: draft.id,
      trigger: 'now',
      now: SATURDAY_NOON,
      random: () => 0,
    });

    const page = await send(admin, 'GET', `${base}/${draft.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({
      status: 'running',
      figures: { recipients: 3, delivered: 0 },
      send_plan: {
        estimate: false,
        first_at: MONDAY_9_BERLIN,
        last_at: MONDAY_9_BERLIN,
        next_at: MONDAY_9_BERLIN,
        open_next_day_minutes: null,
      },
    });
    const list = await send(admin, 'GET', base);
    expect(list.json().results[0].send_plan.next_at).toBe(MONDAY_9_BERLIN);

    const results = await api.get(`/customer/campaigns/phishing/${draft.id}/results/`);
    expect(results.statusCode, results.body).toBe(200);
    const rows = results.json().results as { status: string; planned_at: string; sent_at: string | null }[];
    expect(rows).toHaveLength(3);
    for (const row of rows)
      expect(row).toMatchObject({ status: 'scheduled', planned_at: MONDAY_9_BERLIN, sent_at: null });

    // The administrator's rows and a person's timeline show the same moment.
    const admRows = await send(admin, 'GET', `${base}/${draft.id}/results/recipients`);
    expect(admRows.statusCode, admRows.body).toBe(200);
    const first = admRows.json().results[0];
    expect(first.planned_at).toBe(MONDAY_9_BERLIN);
    const timeline = await send(admin, 'GET', `${base}/${draft.id}/recipients/${first.id}/events`);
    expect(timeline.statusCode, timeline.body).toBe(200);
    expect(timeline.json().recipient.planned_at).toBe(MONDAY_9_BERLIN);
  });

  it('plans every moment inside the weekdays and hours of the zone, and the page’s range is what was drawn', async () => {
    const { accountId, admin, api, groups, base } = await setup();
    const draft = await createPhishingCampaign(t.app.db, accountId, {
      name: 'Random moments',
      group_ids: groups,
      template_keys: ['builtin:benefits-enrolment-deadline'],
      window_start_at: '2030-01-04T00:00:00+01:00',
      window_end_at: '2030-01-18T00:00:00+01:00',
      ...WORKWEEK,
    });
    await launchPhishingCampaign(t.app.db, {
      accountId,
      campaignId: draft.id,
      trigger: 'now',
      now: SATURDAY_NOON,
    });
    const rows = (await api.get(`/customer/campaigns/phishing/${draft.id}/results/`)).json().results as {
      planned_at: string;
    }[];
    const moments = rows.map((r) => Date.parse(r.planned_at));
    for (const moment of moments) {
      const local = new Date(localFields(moment, 'Europe/Berlin'));
      expect([1, 2, 3, 4, 5]).toContain(local.getUTCDay());
      expect(local.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(local.getUTCHours()).toBeLessThan(17);
      expect(moment).toBeGreaterThanOrEqual(Date.parse(MONDAY_9_BERLIN));
    }
    const plan = (await send(admin, 'GET', `${base}/${draft.id}`)).json().send_plan;
    expect(plan.first_at).toBe(new Date(Math.min(...moments)).toISOString());
    expect(plan.last_at).toBe(new Date(Math.max(...moments)).toISOString());
  });

  it('the launch confirmation names how many people and the first and last moment a launch now could plan', async () => {
    const { admin, groups, base } = await setup();
    // A window that opens on a Saturday (in 2030: the launch is now, before it opens).
    const created = await send(admin, 'POST', base, {
      name: 'Preview',
      group_ids: groups,
      template_keys: ['builtin:benefits-enrolment-deadline'],
      window_start_at: '2030-01-05T08:00:00+01:00',
      window_end_at: '2030-01-12T00:00:00+01:00',
      ...WORKWEEK,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const preview = await send(admin, 'GET', `${base}/${id}/launch-preview`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({
      recipients: 3,
      first_at: MONDAY_9_BERLIN,
      // Friday the 11th, the last millisecond before 17:00 in Berlin.
      last_at: '2030-01-11T15:59:59.999Z',
      time_zone: 'Europe/Berlin',
      sender_domain: expect.any(String),
    });
    // The draft's page says the same, as an estimate, and that nothing goes out within a day.
    expect(created.json().send_plan).toEqual({
      estimate: true,
      first_at: MONDAY_9_BERLIN,
      last_at: '2030-01-11T15:59:59.999Z',
      next_at: MONDAY_9_BERLIN,
      open_next_day_minutes: 0,
    });
    // Launching does what the confirmation said.
    const launched = await send(admin, 'POST', `${base}/${id}/launch`);
    expect(launched.statusCode, launched.body).toBe(200);
    const plan = launched.json().send_plan;
    expect(Date.parse(plan.first_at)).toBeGreaterThanOrEqual(Date.parse(MONDAY_9_BERLIN));
    expect(Date.parse(plan.last_at)).toBeLessThanOrEqual(Date.parse('2030-01-11T15:59:59.999Z'));
    expect(launched.json().figures.recipients).toBe(3);

    const other = await setup();
    const foreign = await send(other.admin, 'GET', `${other.base}/${id}/launch-preview`);
    expect(foreign.statusCode).toBe(404);
  });

  it('counts the sending time of the next 24 hours for the form’s warning', () => {
    const window = {
      startAt: SATURDAY_NOON - DAY,
      endAt: SATURDAY_NOON + 14 * DAY,
      weekdays: 0b0011111,
      hourStart: 9,
      hourEnd: 17,
      timeZone: 'Europe/Berlin',
    };
    // Saturday noon: nothing until Monday.
    expect(sendPlan(window, SATURDAY_NOON).openNextDayMs).toBe(0);
    // Sunday noon: Monday 09:00 to 12:00 falls within the next day.
    expect(sendPlan(window, SATURDAY_NOON + DAY).openNextDayMs).toBe(3 * HOUR);
    // Every day, all day: a whole day.
    expect(
      sendPlan({ ...window, weekdays: 127, hourStart: 0, hourEnd: 24 }, SATURDAY_NOON).openNextDayMs,
    ).toBe(DAY);
  });
});
