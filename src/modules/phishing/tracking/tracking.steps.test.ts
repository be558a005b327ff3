import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import {
  BROWSER,
  figuresOf,
  recountFigures,
  seedPhishingCampaign,
} from '../../../../test/helpers/phishing.js';
import { recipientByTokenOfAnyAccount } from '../simulation/simulation.recipients.repository.js';
import { SETTLE_DELAY_MS } from './tracking.bursts.model.js';
import { settleTrackingHitsOfAllAccounts } from './tracking.settle.commands.js';
import { createStepMachine } from './tracking.steps.batch.commands.js';
import { reclassifyPhishingEvent, recordStep } from './tracking.steps.commands.js';
import type { StepInput } from './tracking.steps.model.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function expectFiguresMatchRecount(campaignId: number) {
  const f = await figuresOf(t.app, campaignId);
  const recount = await recountFigures(t.app, campaignId);
  const kept = Object.fromEntries(Object.keys(recount.kept).map((k) => [k, Number(f[k as keyof typeof f])]));
  expect(kept).toEqual(recount.kept);
  expect(recount.activity).toEqual({
    delivered: recount.kept.delivered,
    opened: recount.kept.opened,
    clicked: recount.kept.clicked,
    submitted: recount.kept.submitted,
    reported: recount.kept.reported,
  });
  expect(recount.delays).toEqual({ click: recount.kept.clicked, report: recount.kept.reported });
}

const USER_AGENTS = [BROWSER, 'curl/8.5.0', 'python-requests/2.32.3', ''];

describe('the recipient step machine', () => {
  it('figures always equal a recount from the recipients, whatever the sequence of hits and reclassifications', async () => {
    const account = await makeAccount(t.app);
    const step = fc.record({
      person: fc.nat(5),
      kind: fc.constantFrom<StepInput['kind']>('open', 'click', 'submit', 'interaction', 'report'),
      method: fc.constantFrom('GET', 'GET', 'POST', 'HEAD'),
      ua: fc.oneof(fc.constant(0), fc.nat(USER_AGENTS.length - 1)),
      // Often one address, often within seconds: scanners' bursts happen, and settle (below).
      address: fc.oneof(fc.constant(0), fc.nat(7)),
      secondsAfterSend: fc.oneof(fc.integer({ min: 0, max: 7200 }), fc.integer({ min: 3600, max: 3612 })),
      reclassify: fc.option(fc.constantFrom<'human' | 'automated'>('human', 'automated'), { freq: 3 }),
      /** The scheduler settles what is due after this hit. */
      settle: fc.option(fc.constant(true), { freq: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(step, { minLength: 1, maxLength: 25 }),
        async (delivered, steps) => {
          const sentAt = Date.now() - 3 * 3_600_000;
          // A process of its own per run: its burst counter sees this run's hits; the database, every run's.
          const machine = createStepMachine();
          const c = await seedPhishingCampaign(t.app, account.id, {
            people: 6,
            remedial: true,
            sentAt: delivered ? sentAt : null,
          });
          for (const s of steps) {
            const person = c.people[s.person]!;
            const found = await recipientByTokenOfAnyAccount(t.app.db, person.token);
            await recordStep(t.app.db, machine, found!, {
              kind: s.kind,
              at: sentAt + s.secondsAfterSend * 1000,
              method: s.method,
              headers: { 'user-agent': USER_AGENTS[s.ua] },
              clientAddress: `192.0.2.${s.address}`,
              ...(s.kind === 'report' ? { reportReason: 'report_api' as const } : {}),
            });
            if (s.settle) {
              await settleTrackingHitsOfAllAccounts(
                t.app.db,
                sentAt + s.secondsAfterSend * 1000 + SETTLE_DELAY_MS,
              );
            }
            if (s.reclassify !== null) {
              const events = await t.app.db
                .selectFrom('phishing_events')
                .select(['id', 'kind'])
                .where('campaign_id', '=', c.campaignId)
                .where('kind', 'in', ['opened', 'clicked', 'submitted', 'reported', 'interaction'])
                .execute();
              const event = events[s.secondsAfterSend % Math.max(1, events.length)];
              if (event) {
                await reclassifyPhishingEvent(t.app.db, {
                  accountId: account.id,
                  campaignId: c.campaignId,
                  eventId: Number(event.id),
                  classification: s.reclassify,
                  reason: 'checked the gateway logs',
                  adminUserId: 1,
                });
              }
            }
          }
          await expectFiguresMatchRecount(c.campaignId);
          // Settling the hits (some in bursts of the few addresses) keeps them equal.
          await settleTrackingHitsOfAllAccounts(t.app.db, sentAt + 7200_000 + SETTLE_DELAY_MS);
          await expectFiguresMatchRecount(c.campaignId);
          // Status only from first times: a person's steps imply the ones before.
          const rows = await t.app.db
            .selectFrom('phishing_recipients')
            .selectAll()
            .where('campaign_id', '=', c.campaignId)
            .execute();
          for (const r of rows) {
            if (r.submitted_at !== null) expect(r.clicked_at).not.toBeNull();
            if (r.clicked_at !== null) expect(r.opened_at).not.toBeNull();
            if (r.opened_at !== null)
              expect(r.opened_at).toBeLessThanOrEqual(r.clicked_at ?? Number.POSITIVE_INFINITY);
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 120_000);

  it('a human click enrols the person once in the remedial training, invites them and counts it once settled; clicks and settling passes at once enrol once', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { remedial: true, remedialOn: 'click' });
    const [a] = c.people;
    const found = await recipientByTokenOfAnyAccount(t.app.db, a!.token);
    const machine = createStepMachine();
    const click = (address: string): StepInput => ({
      kind: 'click',
      at: Date.now(),
      method: 'GET',
      headers: { 'user-agent': BROWSER },
      clientAddress: address,
    });
    const results = await Promise.all([
      recordStep(t.app.db, machine, found!, click('192.0.2.200')),
      recordStep(t.app.db, machine, found!, click('192.0.2.201')),
      recordStep(t.app.db, machine, found!, click('192.0.2.202')),
    ]);
    // A browser's click waits to settle: nobody is enrolled yet.
    expect(results.filter((r) => r.trainingAssigned).length).toBe(0);
    expect((await figuresOf(t.app, c.campaignId)).training_assigned).toBe(0);
    const later = Date.now() + SETTLE_DELAY_MS;
    const passes = await Promise.all([
      settleTrackingHitsOfAllAccounts(t.app.db, later),
      settleTrackingHitsOfAllAccounts(t.app.db, later),
    ]);
    expect(passes.reduce((n, p) => n + p.enrolled, 0)).toBe(1);
    expect(passes.reduce((n, p) => n + p.settled, 0)).toBe(3);
    const enrollments = await t.app.db
      .selectFrom('enrollments')
      .select(['id', 'employee_id'])
      .where('campaign_id', '=', c.remedialId!)
      .execute();
    expect(enrollments).toEqual([{ id: expect.anything(), employee_id: a!.employee.id }]);
    const invitations = await t.app.db
      .selectFrom('messages')
      .select(['kind', 'status', 'enrollment_id'])
      .where('campaign_id', '=', c.remedialId!)
      .execute();
    expect(invitations).toEqual([
      { kind: 'invitation', status: 'queued', enrollment_id: enrollments[0]!.id },
    ]);
    const r = await t.app.db
      .selectFrom('phishing_recipients')
      .selectAll()
      .where('id', '=', a!.id)
      .executeTakeFirstOrThrow();
    expect(r.training_assigned_at).not.toBeNull();
    expect(Number(r.enrollment_id)).toBe(Number(enrollments[0]!.id));
    expect((await figuresOf(t.app, c.campaignId)).training_assigned).toBe(1);
    const assigned = await t.app.db
      .selectFrom('phishing_events')
      .select(['kind', 'reason'])
      .where('recipient_id', '=', a!.id)
      .where('kind', '=', 'training_assigned')
      .execute();
    expect(assigned).toEqual([{ kind: 'training_assigned', reason: 'remedial_enrollment' }]);
    // The teachable page says so.
    const page = await t.app.inject({
      method: 'GET',
      url: `/v/${a!.token}/learn`,
      headers: { 'user-agent': BROWSER },
    });
    expect(page.body).toContain('A short course about spotting phishing was assigned to you');
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('with remedial_on submit, a click alone enrols nobody; the submit does', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { remedial: true, remedialOn: 'submit' });
    const [a] = c.people;
    const machine = createStepMachine();
    const hit = async (kind: StepInput['kind'], method: string) =>
      recordStep(t.app.db, machine, (await recipientByTokenOfAnyAccount(t.app.db, a!.token))!, {
        kind,
        at: Date.now(),
        method,
        headers: { 'user-agent': BROWSER },
        clientAddress: '192.0.2.210',
      });
    expect((await hit('click', 'GET')).trainingAssigned).toBe(false);
    expect((await hit('submit', 'POST')).trainingAssigned).toBe(true);
    expect((await figuresOf(t.app, c.campaignId)).training_assigned).toBe(1);
  });

  it('reclassifying undoes and redoes the steps, keeping who, when, why and the first classification', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id);
    const [a] = c.people;
    const machine = createStepMachine();
    const found = await recipientByTokenOfAnyAccount(t.app.db, a!.token);
    await recordStep(t.app.db, machine, found!, {
      kind: 'click',
      at: Date.now(),
      method: 'GET',
      headers: { 'user-agent': BROWSER },
      clientAddress: '192.0.2.220',
    });
    const [event] = await t.app.db
      .selectFrom('phishing_events')
      .select('id')
      .where('recipient_id', '=', a!.id)
      .execute();
    const undo = await reclassifyPhishingEvent(t.app.db, {
      accountId: account.id,
      campaignId: c.campaignId,
      eventId: Number(event!.id),
      classification: 'automated',
      reason: 'Our gateway’s sandbox (ticket 4411)',
      adminUserId: 77,
      now: 1_800_000_000_000,
    });
    expect(undo).toMatchObject({
      classification: 'automated',
      original_classification: 'human',
      reclassified_by: 77,
      reclassified_at: 1_800_000_000_000,
      reclassified_reason: 'Our gateway’s sandbox (ticket 4411)',
    });
    let r = await t.app.db
      .selectFrom('phishing_recipients')
      .selectAll()
      .where('id', '=', a!.id)
      .executeTakeFirstOrThrow();
    expect(r).toMatchObject({ status: 'sent', clicked_at: null, opened_at: null });
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      clicked: 0,
      opened: 0,
      phished: 0,
      automated_events: 1,
    });
    await expectFiguresMatchRecount(c.campaignId);
    const redo = await reclassifyPhishingEvent(t.app.db, {
      accountId: account.id,
      campaignId: c.campaignId,
      eventId: Number(event!.id),
      classification: 'human',
      reason: 'It was her after all',
      adminUserId: 78,
    });
    expect(redo).toMatchObject({
      classification: 'human',
      original_classification: 'human',
      reclassified_by: 78,
    });
    r = await t.app.db
      .selectFrom('phishing_recipients')
      .selectAll()
      .where('id', '=', a!.id)
      .executeTakeFirstOrThrow();
    expect(r.status).toBe('clicked');
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      clicked: 1,
      opened: 1,
      phished: 1,
      automated_events: 0,
    });
    await expectFiguresMatchRecount(c.campaignId);
    // Another account cannot reach it.
    const other = await makeAccount(t.app);
    await expect(
      reclassifyPhishingEvent(t.app.db, {
        accountId: other.id,
        campaignId: c.campaignId,
        eventId: Number(event!.id),
        classification: 'automated',
        reason: 'x',
        adminUserId: 1,
      }),
    ).rejects.toMatchObject({ code: 'phishing_event_not_found' });
  });
});
