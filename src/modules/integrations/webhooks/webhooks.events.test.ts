import { beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeKey } from '../../../../test/helpers/factories.js';
import { builtIn, learnerToken, quizForm, readAllLessons } from '../../../../test/helpers/learner.js';
import { BROWSER, seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import { stopPhishingCampaign } from '../../phishing/campaigns/campaigns.transitions.commands.js';
import { emitOverdueEnrollmentsOfAllAccounts } from '../../training/campaigns/campaigns.events.commands.js';
import { createEndpoint } from './webhooks.service.js';

/**
 * Each event type, emitted by the real action that makes it: the events are read from the
 * outbox (the worker's side is webhooks.test.ts), with the payload a receiver would get.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
const DAY = 86_400_000;

async function setup(eventTypes?: string[]) {
  const account = await makeAccount(t.app);
  const { key } = await makeKey(t.app, { accountId: account.id });
  await createEndpoint(t.app.db, {
    accountId: account.id,
    url: 'https://hooks.example.com/all',
    eventTypes,
    policy: t.app.config.webhooks,
  });
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  return { accountId: account.id, api: client(t.app, key), admin };
}

/** The events of an account not yet read, in order, as bodies a receiver gets. */
function outbox(accountId: number) {
  let seen = 0;
  return async () => {
    const rows = await t.app.db
      .selectFrom('webhook_events')
      .select(['id', 'payload'])
      .where('account_id', '=', accountId)
      .where('id', '>', seen)
      .orderBy('id')
      .execute();
    if (rows.length > 0) seen = rows.at(-1)!.id;
    // biome-ignore lint/suspicious/noExplicitAny: payloads are arbitrary JSON, checked field by field
    return rows.map((r) => JSON.parse(r.payload) as { type: string; timestamp: string; data: any });
  };
}

describe('webhook events from the real actions', () => {
  it('employees and groups: created, updated, deleted, membership changed', async () => {
    const { accountId, api } = await setup();
    const next = outbox(accountId);
    const ann = (
      await api.post('/customer/employees/', { first_name: 'Ann', last_name: 'Lee', email: 'ann@x.example' })
    ).json();
    const bo = (
      await api.post('/customer/employees/', { first_name: 'Bo', last_name: 'Chen', email: 'bo@x.example' })
    ).json();
    expect(await next()).toEqual([
      { type: 'employee.created', timestamp: expect.stringMatching(/Z$/), data: ann },
      { type: 'employee.created', timestamp: expect.any(String), data: bo },
    ]);
    const renamed = await api.request('PATCH', `/customer/employees/${ann.id}/`, { last_name: 'Park' });
    expect(await next()).toEqual([
      { type: 'employee.updated', timestamp: expect.any(String), data: renamed.json() },
    ]);

    const group = (await api.post('/customer/groups/', { name: 'Sales' })).json();
    await api.request('PATCH', `/customer/groups/${group.id}/`, { description: 'All of sales' });
    await api.put(`/customer/groups/${group.id}/`, { employee_ids: [ann.id, bo.id] });
    await api.request('DELETE', `/customer/groups/${group.id}/members/`, { employee_ids: [bo.id] });
    await api.put(`/customer/groups/${group.id}/`, { employee_ids: [ann.id] }); // no change: no event
    const summary = (count: number) => ({
      id: group.id,
      name: 'Sales',
      description: 'All of sales',
      employee_count: count,
    });
    expect((await next()).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'group.created', data: { id: group.id, name: 'Sales', description: '', employee_count: 0 } },
      { type: 'group.updated', data: summary(0) },
      {
        type: 'group.membership_changed',
        data: { group: summary(2), added_employee_ids: [ann.id, bo.id], removed_employee_ids: [] },
      },
      {
        type: 'group.membership_changed',
        data: { group: summary(1), added_employee_ids: [], removed_employee_ids: [bo.id] },
      },
    ]);

    expect((await api.request('DELETE', `/customer/employees/${ann.id}/`)).statusCode).toBe(204);
    expect((await next()).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'employee.deleted', data: { id: ann.id } },
      {
        type: 'group.membership_changed',
        data: { group: summary(0), added_employee_ids: [], removed_employee_ids: [ann.id] },
      },
    ]);
    expect((await api.request('DELETE', `/customer/groups/${group.id}/`)).statusCode).toBe(204);
    expect((await next()).map((e) => e.type)).toEqual(['group.deleted']);
  });

  it('bulk upsert: one event per created or updated row, none for unchanged or refused rows', async () => {
    const { accountId, api } = await setup();
    const next = outbox(accountId);
    const ann = { first_name: 'Ann', last_name: 'Lee', email: 'ann@bulk.example' };
    await api.post('/customer/employees/bulk/', { employees: [ann] });
    const [created] = await next();
    expect(created).toMatchObject({ type: 'employee.created', data: { email: 'ann@bulk.example' } });
    const answer = await api.post('/customer/employees/bulk/', {
      employees: [ann, { ...ann, email: 'bo@bulk.example', first_name: 'Bo' }, { ...ann, email: 'nope' }],
    });
    expect(answer.json().counts).toEqual({ created: 1, updated: 0, unchanged: 1, error: 1 });
    await api.post('/customer/employees/bulk/', { employees: [{ ...ann, last_name: 'Park' }] });
    expect((await next()).map((e) => [e.type, e.data.email, e.data.last_name])).toEqual([
      ['employee.created', 'bo@bulk.example', 'Lee'],
      ['employee.updated', 'ann@bulk.example', 'Park'],
    ]);
  });

  it('training: launch, enrollment created, completed, overdue, campaign completed', async () => {
    const { accountId, api, admin } = await setup();
    const next = outbox(accountId);
    const ann = (
      await api.post('/customer/employees/', { first_name: 'Ann', last_name: 'Lee', email: 'ann@t.example' })
    ).json();
    const group = (await api.post('/customer/groups/', { name: 'Everyone' })).json();
    await api.put(`/customer/groups/${group.id}/`, { employee_ids: [ann.id] });
    const base = `/admin/api/accounts/${accountId}`;
    const send = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
      t.app.inject({ method, url: `${base}${url}`, headers: admin.headers, ...(payload ? { payload } : {}) });
    const draft = await send('POST', '/campaigns', {
      name: 'Basics',
      course_keys: ['phishing'],
      group_ids: [group.id],
      due_date: new Date(Date.now() + 14 * DAY).toISOString(),
      enroll_new_members: true,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    await next();
    expect((await send('POST', `/campaigns/${draft.json().id}/launch`)).statusCode).toBe(200);
    const campaign = (await api.get(`/customer/campaigns/training/${draft.json().id}/`)).json();
    const launched = await next();
    expect(launched.map((e) => e.type)).toEqual([
      'training.campaign_launched',
      'training.enrollment_created',
    ]);
    expect(launched[0]?.data).toEqual({ ...campaign, updated_at: expect.any(String) });
    const enrollments = (await api.get(`/customer/campaigns/training/${campaign.id}/enrollments/`)).json()
      .results;
    expect(launched[1]?.data).toEqual({ campaign_id: campaign.id, enrollment: enrollments[0] });

    // A newcomer to a target group is enrolled: another enrollment_created.
    const bo = (
      await api.post('/customer/employees/', { first_name: 'Bo', last_name: 'Chen', email: 'bo@t.example' })
    ).json();
    await api.post(`/customer/groups/${group.id}/members/`, { employee_ids: [bo.id] });
    const joined = await next();
    expect(joined.map((e) => e.type)).toEqual([
      'employee.created',
      'training.enrollment_created',
      'group.membership_changed',
    ]);
    expect(joined[1]?.data.enrollment.employee.id).toBe(bo.id);

    // Ann completes the training through the learner pages.
    const annEnrollment = enrollments[0].id as number;
    const path = `/learn/${await learnerToken(t.app.db, annEnrollment)}`;
    const phishing = builtIn('phishing');
    await readAllLessons(t.app, path, phishing);
    const quiz = await t.app.inject({
      method: 'POST',
      url: `${path}/courses/phishing/quiz`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(quizForm(phishing)).toString(),
    });
    expect(quiz.statusCode).toBe(303);
    const completed = await next();
    expect(completed.map((e) => e.type)).toEqual(['training.enrollment_completed']);
    expect(completed[0]?.data.enrollment).toMatchObject({
      id: annEnrollment,
      status: 'completed',
      score: 100,
    });

    // Past the due date, Bo (not completed) is overdue: found once.
    await t.app.db
      .updateTable('training_campaigns')
      .set({ due_at: Date.now() - DAY })
      .where('id', '=', campaign.id)
      .execute();
    await emitOverdueEnrollmentsOfAllAccounts(t.app.db, Date.now());
    await emitOverdueEnrollmentsOfAllAccounts(t.app.db, Date.now());
    const overdue = await next();
    expect(overdue.map((e) => [e.type, e.data.enrollment.employee.id, e.data.enrollment.status])).toEqual([
      ['training.enrollment_overdue', bo.id, 'overdue'],
    ]);

    expect((await send('POST', `/campaigns/${campaign.id}/stop`)).statusCode).toBe(200);
    const stopped = await next();
    expect(stopped.map((e) => [e.type, e.data.status])).toEqual([
      ['training.campaign_completed', 'completed'],
    ]);
  });

  it('phishing: first click, submission and report of a person, and the campaign’s completion', async () => {
    const { accountId, api } = await setup();
    const next = outbox(accountId);
    const c = await seedPhishingCampaign(t.app, accountId, { landing: 'teach_on_submit', people: 1 });
    await next();
    const [p] = c.people;
    const hit = (method: 'GET' | 'POST', url: string, payload?: string) =>
      t.app.inject({
        method,
        url,
        remoteAddress: '198.51.100.77',
        headers: {
          'user-agent': BROWSER,
          ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(payload ? { payload } : {}),
      });
    expect((await hit('GET', `/v/${p!.token}`)).statusCode).toBe(200);
    expect((await hit('GET', `/v/${p!.token}`)).statusCode).toBe(200); // a second click: no event
    expect((await hit('POST', `/v/${p!.token}`, 'username=a&password=b')).statusCode).toBe(303);
    const steps = await next();
    expect(steps.map((e) => e.type)).toEqual([
      'phishing.simulation_clicked',
      'phishing.simulation_submitted',
    ]);
    expect(steps[0]?.data).toMatchObject({
      campaign_id: c.campaignId,
      recipient_id: p!.id,
      employee_id: p!.employee.id,
      template: c.templateKey,
    });
    const reported = await api.post('/customer/campaigns/phishing/reports/', { token: p!.token });
    expect(reported.statusCode, reported.body).toBe(202);
    const report = await next();
    expect(report.map((e) => [e.type, e.data.recipient_id])).toEqual([
      ['phishing.simulation_reported', p!.id],
    ]);
    await stopPhishingCampaign(t.app.db, accountId, c.campaignId);
    const done = await next();
    expect(done.map((e) => [e.type, e.data.id, e.data.status])).toEqual([
      ['phishing.campaign_completed', c.campaignId, 'completed'],
    ]);
  });

  it('emits only what some enabled endpoint wants, and nothing at all for an account without endpoints', async () => {
    const { accountId, api } = await setup(['group.created']);
    const next = outbox(accountId);
    await api.post('/customer/employees/', { first_name: 'No', last_name: 'One', email: 'no@f.example' });
    await api.post('/customer/groups/', { name: 'Kept' });
    expect((await next()).map((e) => e.type)).toEqual(['group.created']);

    const bare = await makeAccount(t.app);
    const { key } = await makeKey(t.app, { accountId: bare.id });
    await client(t.app, key).post('/customer/groups/', { name: 'Nobody listens' });
    expect(await outbox(bare.id)()).toEqual([]);
  });
});
