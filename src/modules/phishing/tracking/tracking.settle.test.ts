import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp, testEnv } from '../../../../test/helpers/app.js';
import { client, makeKey } from '../../../../test/helpers/factories.js';
import {
  BROWSER,
  figuresOf,
  listenToWebhooks,
  recountFigures,
  schedulerPassIn,
  seedPhishingCampaign,
} from '../../../../test/helpers/phishing.js';
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../core/config.js';
import { openDatabase } from '../../../core/db/database.js';
import { recipientByTokenOfAnyAccount } from '../simulation/simulation.recipients.repository.js';
import { createStepMachine } from './tracking.steps.batch.commands.js';
import { recordStep } from './tracking.steps.commands.js';

// Issue 19, item 9: a scanner's burst of clicks on many people's links from one address is
// automated in the end, every hit of it, with the figures as if it had been from the start; what a
// failure sets off (the click's webhook, the remedial enrollment, its mail) waits until the hit
// settled, and is done by the scheduler from the database, whichever process recorded the hits.

let t: TestApp;
/** A second server process on the same database (a cluster's other worker). */
let other: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp();
  other = await buildApp({
    config: loadConfig(testEnv(t.databaseUrl)),
    database: openDatabase(t.databaseUrl),
    logStream: { write() {} },
  });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
});

let addressCounter = 1;
const nextAddress = () => `203.0.113.${addressCounter++}`;

function click(app: FastifyInstance, token: string, address: string) {
  return app.inject({
    method: 'GET',
    url: `/v/${token}`,
    headers: { 'user-agent': BROWSER },
    remoteAddress: address,
  });
}

async function burstCampaign(people: number) {
  const { accountId, key } = await makeKey(t.app);
  const webhooks = await listenToWebhooks(t.app, accountId);
  const c = await seedPhishingCampaign(t.app, accountId, {
    people,
    remedial: true,
    landing: 'teach_on_click',
  });
  return { accountId, key, webhooks, ...c };
}

function eventsOfCampaign(campaignId: number) {
  return t.app.db
    .selectFrom('phishing_events')
    .select(['recipient_id', 'kind', 'classification', 'reason', 'original_classification'])
    .where('campaign_id', '=', campaignId)
    .orderBy('id')
    .execute();
}

function enrollmentsOf(trainingId: number) {
  return t.app.db
    .selectFrom('enrollments')
    .select(['id', 'employee_id'])
    .where('campaign_id', '=', trainingId)
    .execute();
}

function invitationsOf(trainingId: number) {
  return t.app.db
    .selectFrom('messages')
    .select(['enrollment_id', 'kind'])
    .where('campaign_id', '=', trainingId)
    .execute();
}

async function expectFiguresMatchRecount(campaignId: number) {
  const f = await figuresOf(t.app, campaignId);
  const recount = await recountFigures(t.app, campaignId);
  for (const [k, v] of Object.entries(recount.kept))
    expect([k, Number(f[k as keyof typeof f])]).toEqual([k, v]);
  expect(recount.activity.clicked).toBe(recount.kept.clicked);
  expect(recount.delays.click).toBe(recount.kept.clicked);
}

describe('a scanner’s burst from one address', () => {
  it('19 clicks on 19 people’s links within a moment end up automated, every one; a genuine click is counted and enrols once settled', async () => {
    const c = await burstCampaign(20);
    const scanner = nextAddress();
    const burst = c.people.slice(0, 19);
    const [genuine] = c.people.slice(19);
    for (const p of burst) expect((await click(t.app, p.token, scanner)).statusCode).toBe(200);
    expect((await click(t.app, genuine!.token, nextAddress())).statusCode).toBe(200);

    // As they arrive, the first hits look like people; nobody is enrolled, mailed or announced yet.
    expect(await enrollmentsOf(c.remedialId!)).toEqual([]);
    expect(await invitationsOf(c.remedialId!)).toEqual([]);
    expect((await c.webhooks.events()).filter((e) => e.type.startsWith('phishing.simulation'))).toEqual([]);

    // Once the burst window has passed, the scheduler settles them.
    await schedulerPassIn(t.app);
    const events = await eventsOfCampaign(c.campaignId);
    const burstIds = new Set(burst.map((p) => p.id));
    const ofBurst = events.filter((e) => burstIds.has(e.recipient_id));
    expect(ofBurst).toHaveLength(19);
    for (const e of ofBurst) expect([e.classification, e.reason]).toEqual(['automated', 'address_burst']);
    expect(ofBurst.filter((e) => e.original_classification === 'human')).toHaveLength(4);
    expect(
      events.filter((e) => e.recipient_id === genuine!.id).map((e) => [e.kind, e.classification]),
    ).toEqual([
      ['clicked', 'human'],
      ['training_assigned', 'human'],
    ]);

    // Figures: one person clicked (the genuine one), whatever the scanner did.
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      opened: 1,
      clicked: 1,
      phished: 1,
      raw_clicks: 20,
      automated_events: 19,
      training_assigned: 1,
    });
    await expectFiguresMatchRecount(c.campaignId);
    const api = client(t.app, c.key);
    expect((await api.get(`/customer/campaigns/phishing/${c.campaignId}/`)).json()).toMatchObject({
      clicked: 1,
      phish_prone_percent: 5,
    });
    const clicked = (
      await api.get(`/customer/campaigns/phishing/${c.campaignId}/results/?status=clicked`)
    ).json().results;
    expect(clicked.map((r: { employee_id: number }) => r.employee_id)).toEqual([genuine!.employee.id]);
    const sent = (await api.get(`/customer/campaigns/phishing/${c.campaignId}/results/?status=sent`)).json();
    expect(sent.count).toBe(19);
    for (const r of sent.results)
      expect(r).toMatchObject({ clicked_at: null, opened_at: null, training_assigned: false });
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: c.accountId });
    const summary = await t.app.inject({
      method: 'GET',
      url: `/admin/api/accounts/${c.accountId}/phishing/campaigns/${c.campaignId}/results`,
      headers: admin.headers,
    });
    expect(summary.json().all).toMatchObject({ clicked: 1, opened: 1, training_assigned: 1 });

    // Only the genuine person is enrolled, invited and announced.
    const enrollments = await enrollmentsOf(c.remedialId!);
    expect(enrollments.map((e) => e.employee_id)).toEqual([genuine!.employee.id]);
    expect(await invitationsOf(c.remedialId!)).toEqual([
      { enrollment_id: enrollments[0]!.id, kind: 'invitation' },
    ]);
    const announced = (await c.webhooks.events()).filter(
      (e) => e.type === 'phishing.simulation_clicked' || e.type === 'training.enrollment_created',
    );
    expect(announced.map((e) => e.type).sort()).toEqual([
      'phishing.simulation_clicked',
      'training.enrollment_created',
    ]);
    expect(announced.find((e) => e.type === 'phishing.simulation_clicked')?.data.recipient_id).toBe(
      genuine!.id,
    );

    // Another pass changes nothing: settled is settled.
    const before = await figuresOf(t.app, c.campaignId);
    await schedulerPassIn(t.app, 120_000);
    expect(await figuresOf(t.app, c.campaignId)).toEqual(before);
    expect(await enrollmentsOf(c.remedialId!)).toHaveLength(1);
  });

  it('is seen whole when two server processes each recorded part of it', async () => {
    const c = await burstCampaign(12);
    const scanner = nextAddress();
    for (const [i, p] of c.people.entries()) await click(i % 2 === 0 ? t.app : other, p.token, scanner);
    await schedulerPassIn(t.app);
    const events = await eventsOfCampaign(c.campaignId);
    expect(events.map((e) => e.classification)).toEqual(c.people.map(() => 'automated'));
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({ clicked: 0, opened: 0, phished: 0 });
    expect(await enrollmentsOf(c.remedialId!)).toEqual([]);
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('leaves people alone: colleagues behind one address clicking minutes apart stay human and are enrolled', async () => {
    const c = await burstCampaign(5);
    const office = nextAddress();
    const machine = createStepMachine();
    const start = (c.sentAt as number) + 60_000;
    for (const [i, p] of c.people.entries()) {
      const found = await recipientByTokenOfAnyAccount(t.app.db, p.token);
      await recordStep(t.app.db, machine, found!, {
        kind: 'click',
        at: start + i * 2 * 60_000,
        method: 'GET',
        headers: { 'user-agent': BROWSER },
        clientAddress: office,
      });
    }
    await schedulerPassIn(t.app);
    const events = await eventsOfCampaign(c.campaignId);
    expect(events.filter((e) => e.kind === 'clicked').map((e) => e.classification)).toEqual(
      c.people.map(() => 'human'),
    );
    expect(await enrollmentsOf(c.remedialId!)).toHaveLength(5);
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('keeps a burst’s hit human for a person who then filled in the landing page', async () => {
    const { accountId } = await makeKey(t.app);
    const c = await seedPhishingCampaign(t.app, accountId, {
      people: 6,
      remedial: true,
      remedialOn: 'click',
    });
    const office = nextAddress();
    for (const p of c.people) await click(t.app, p.token, office);
    const [first] = c.people;
    const post = await t.app.inject({
      method: 'POST',
      url: `/v/${first!.token}`,
      headers: { 'user-agent': BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: office,
      payload: 'password=x',
    });
    expect(post.statusCode).toBe(303);
    // The form post proves a person: their click is certain at once, and they are enrolled now.
    expect((await enrollmentsOf(c.remedialId!)).map((e) => e.employee_id)).toEqual([first!.employee.id]);
    await schedulerPassIn(t.app);
    const clicks = (await eventsOfCampaign(c.campaignId)).filter((e) => e.kind === 'clicked');
    expect(clicks.map((e) => [e.recipient_id, e.classification])).toEqual(
      c.people.map((p, i) => [p.id, i === 0 ? 'human' : 'automated']),
    );
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      clicked: 1,
      submitted: 1,
      training_assigned: 1,
    });
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('settles once when several workers run the scheduler at the same moment', async () => {
    const c = await burstCampaign(3);
    for (const p of c.people) await click(t.app, p.token, nextAddress());
    await Promise.all([schedulerPassIn(t.app), schedulerPassIn(t.app), schedulerPassIn(t.app)]);
    const enrollments = await enrollmentsOf(c.remedialId!);
    expect(enrollments).toHaveLength(3);
    expect(await invitationsOf(c.remedialId!)).toHaveLength(3);
    const clicked = (await c.webhooks.events()).filter((e) => e.type === 'phishing.simulation_clicked');
    expect(clicked.map((e) => e.data.recipient_id).sort()).toEqual(c.people.map((p) => p.id).sort());
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({ clicked: 3, training_assigned: 3 });
  });
});
