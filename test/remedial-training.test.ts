import { beforeAll, describe, expect, it } from 'vitest';
import { recipientByTokenOfAnyAccount } from '../src/modules/phishing/simulation/simulation.recipients.repository.js';
import { createStepMachine } from '../src/modules/phishing/tracking/tracking.steps.batch.commands.js';
import { recordStep } from '../src/modules/phishing/tracking/tracking.steps.commands.js';
import { queueDueRemindersOfAllAccounts } from '../src/modules/training/enrollments/enrollments.reminders.commands.js';
import { runScheduledWork } from '../src/workers/scheduler.js';
import { adminSender, signInAs } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { validationFailedBody } from './helpers/errors.js';
import { makeAccount } from './helpers/factories.js';
import { BROWSER, quietLog, seedPhishingCampaign, sendQueuedMail } from './helpers/phishing.js';

// Issue 21, item 6: remedial training has a due date (the phishing campaign's days after the
// person failed, 14 unless set) and the training reminders chase it, by the reminder days of
// its training campaign and the same rules as every training campaign's, until it is completed.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const DAY = 86_400_000;
const send = () => adminSender(t.app);

/** A running simulation of `people` people whose failures are enrolled, due `dueDays` after, reminded on `reminderDays`. */
async function simulation(options: { people?: number; dueDays?: number; reminderDays?: number[] } = {}) {
  const account = await makeAccount(t.app);
  const c = await seedPhishingCampaign(t.app, account.id, {
    people: options.people ?? 2,
    remedial: true,
    landing: 'teach_on_click',
    sentAt: Date.now() - 30 * DAY,
  });
  if (options.dueDays !== undefined) {
    await t.app.db
      .updateTable('phishing_campaigns')
      .set({ remedial_due_days: options.dueDays })
      .where('id', '=', c.campaignId)
      .execute();
  }
  await t.app.db
    .updateTable('training_campaigns')
    .set({ reminder_days: JSON.stringify(options.reminderDays ?? [7, 1]) })
    .where('id', '=', c.remedialId as number)
    .execute();
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  return { ...c, account, admin, remedialId: c.remedialId as number };
}

/** The person clicks at `at` with a browser; the scheduler settles the click a minute later and enrolls them. */
async function failsAt(token: string, at: number) {
  const found = await recipientByTokenOfAnyAccount(t.app.db, token);
  await recordStep(t.app.db, createStepMachine(), found!, {
    kind: 'click',
    at,
    method: 'GET',
    headers: { 'user-agent': BROWSER },
    clientAddress: '198.51.100.31',
  });
  await runScheduledWork(t.app.db, at + 60_000, quietLog);
  return t.app.db
    .selectFrom('phishing_recipients')
    .select(['training_assigned_at', 'enrollment_id'])
    .where('token', '=', token)
    .executeTakeFirstOrThrow();
}

function enrollment(id: number) {
  return t.app.db
    .selectFrom('enrollments')
    .select(['id', 'due_at', 'reminded_days', 'completed_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

function reminders(enrollmentId: number) {
  return t.app.db
    .selectFrom('messages')
    .select(['round', 'status'])
    .where('enrollment_id', '=', enrollmentId)
    .where('kind', '=', 'reminder')
    .orderBy('round', 'desc')
    .execute();
}

describe('the due date of remedial training', () => {
  it('is the campaign’s days after the failure, shown to the admin, to the learner and in the invitation', async () => {
    const c = await simulation({ dueDays: 5 });
    const failedAt = Date.now() - 2 * DAY;
    const assigned = await failsAt(c.people[0]!.token, failedAt);
    expect(assigned.training_assigned_at).toBe(failedAt + 60_000);
    const row = await enrollment(assigned.enrollment_id as number);
    const due = (assigned.training_assigned_at as number) + 5 * DAY;
    expect(row.due_at).toBe(due);

    const list = await send()(
      c.admin,
      'GET',
      `/accounts/${c.account.id}/campaigns/${c.remedialId}/enrollments`,
    );
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([
      expect.objectContaining({ due_at: new Date(due).toISOString(), status: 'not_started' }),
    ]);

    await sendQueuedMail(t.app, failedAt + 60_000);
    const invitation = await t.app.db
      .selectFrom('messages')
      .select(['body_text'])
      .where('enrollment_id', '=', row.id)
      .where('kind', '=', 'invitation')
      .executeTakeFirstOrThrow();
    const day = new Date(due);
    const weekday = day.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
    expect(invitation.body_text).toContain(`Please finish it by ${weekday} ${day.getUTCDate()}`);
    const path = /\/learn\/[^\s"<>]+/.exec(invitation.body_text ?? '')?.[0] as string;
    const page = await t.app.inject({ method: 'GET', url: path });
    const shown = day.toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(page.body).toContain(`Due by ${shown}`);
  });

  it('is 14 days unless set, and set within 1 to 365 days in the campaign’s form', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const url = `/accounts/${account.id}/phishing/campaigns`;
    const created = await send()(admin, 'POST', url, { name: 'Autumn' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().remedial_due_days).toBe(14);
    for (const bad of [0, 366, 2.5, '7']) {
      const res = await send()(admin, 'PATCH', `${url}/${created.json().id}`, { remedial_due_days: bad });
      expect(res.statusCode).toBe(400);
      if (bad === 0 || bad === 366) {
        expect(res.json()).toEqual(
          validationFailedBody({ remedial_due_days: ['must be a whole number from 1 to 365'] }),
        );
      }
    }
    const set = await send()(admin, 'PATCH', `${url}/${created.json().id}`, { remedial_due_days: 30 });
    expect(set.statusCode).toBe(200);
    expect(set.json().remedial_due_days).toBe(30);
  });

  it('makes the enrollment overdue once it passes, in the list, its filter and the figures', async () => {
    const c = await simulation({ dueDays: 3 });
    await failsAt(c.people[0]!.token, Date.now() - 10 * DAY);
    await failsAt(c.people[1]!.token, Date.now() - DAY);
    const base = `/accounts/${c.account.id}/campaigns/${c.remedialId}`;
    const overdue = await send()(c.admin, 'GET', `${base}/enrollments?status=overdue`);
    expect(overdue.json().results).toHaveLength(1);
    const pending = await send()(c.admin, 'GET', `${base}/enrollments?status=not_started`);
    expect(pending.json().results).toHaveLength(1);
    const progress = await send()(c.admin, 'GET', `${base}/progress`);
    expect(progress.json().counts).toMatchObject({ enrolled: 2, overdue: 1, not_started: 1, in_progress: 0 });
  });
});

describe('the reminders of remedial training', () => {
  it('go out on the training’s reminder days before each person’s due date, once, and stop once they complete', async () => {
    const c = await simulation({ people: 2, dueDays: 10, reminderDays: [7, 3, 1] });
    const failedAt = Date.UTC(2031, 0, 6, 9);
    const [ann, bob] = [
      await failsAt(c.people[0]!.token, failedAt),
      await failsAt(c.people[1]!.token, failedAt + DAY),
    ];
    const annE = ann.enrollment_id as number;
    const bobE = bob.enrollment_id as number;
    const annDue = (await enrollment(annE)).due_at as number;
    const bobDue = (await enrollment(bobE)).due_at as number;
    expect(bobDue - annDue).toBe(DAY);

    // Before Ann's first moment: nothing.
    expect(await queueDueRemindersOfAllAccounts(t.app.db, annDue - 7 * DAY - 1)).toBe(0);
    // Her 7-day round, once however often the scheduler passes.
    expect(await queueDueRemindersOfAllAccounts(t.app.db, annDue - 7 * DAY)).toBe(1);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, annDue - 7 * DAY + 60_000)).toBe(0);
    expect(await reminders(annE)).toEqual([{ round: 7, status: 'queued' }]);
    expect(await reminders(bobE)).toEqual([]);
    // The reminder goes out through the training mail.
    await sendQueuedMail(t.app, annDue - 7 * DAY + 60_000);
    const sent = await t.app.db
      .selectFrom('messages')
      .select(['subject', 'status'])
      .where('enrollment_id', '=', annE)
      .where('kind', '=', 'reminder')
      .executeTakeFirstOrThrow();
    expect(sent).toEqual({ subject: 'Reminder: 7 days left for Spotting phishing', status: 'sent' });

    // Bob's, a day later.
    expect(await queueDueRemindersOfAllAccounts(t.app.db, bobDue - 7 * DAY)).toBe(1);
    // Ann completes; her 3-day round does not come, Bob's does.
    await t.app.db
      .updateTable('enrollments')
      .set({ completed_at: annDue - 4 * DAY })
      .where('id', '=', annE)
      .execute();
    expect(await queueDueRemindersOfAllAccounts(t.app.db, bobDue - 3 * DAY)).toBe(1);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, bobDue - DAY)).toBe(1);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, bobDue + DAY)).toBe(0);
    expect((await reminders(annE)).map((r) => r.round)).toEqual([7]);
    expect((await reminders(bobE)).map((r) => r.round)).toEqual([7, 3, 1]);
  });

  it('skip a round whose moment came before the failure, and send only the latest of several that came at once', async () => {
    const c = await simulation({ people: 2, dueDays: 5, reminderDays: [7, 3, 1] });
    const failedAt = Date.UTC(2031, 1, 3, 9);
    const ann = await failsAt(c.people[0]!.token, failedAt);
    const annE = ann.enrollment_id as number;
    const due = (await enrollment(annE)).due_at as number;
    // The 7-day moment was before she was assigned: recorded at the next pass, never sent.
    expect(await queueDueRemindersOfAllAccounts(t.app.db, failedAt + 2 * 60_000)).toBe(0);
    expect((await enrollment(annE)).reminded_days).toBe(7);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - 3 * DAY)).toBe(1);
    expect((await reminders(annE)).map((r) => r.round)).toEqual([3]);

    // Bob: the scheduler was down until a day before his due date: one reminder, not two.
    const bob = await failsAt(c.people[1]!.token, failedAt);
    const bobE = bob.enrollment_id as number;
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - DAY + 1000)).toBe(2);
    expect((await reminders(bobE)).map((r) => r.round)).toEqual([1]);
    expect((await enrollment(bobE)).reminded_days).toBe(1);
  });

  it('are not sent for a training stopped, or with no reminder days', async () => {
    const c = await simulation({ people: 1, dueDays: 10, reminderDays: [] });
    const failedAt = Date.UTC(2031, 2, 3, 9);
    const e = (await failsAt(c.people[0]!.token, failedAt)).enrollment_id as number;
    const due = (await enrollment(e)).due_at as number;
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - DAY)).toBe(0);
    await t.app.db
      .updateTable('training_campaigns')
      .set({ reminder_days: '[1]', status: 'completed' })
      .where('id', '=', c.remedialId)
      .execute();
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - DAY)).toBe(0);
    expect(await reminders(e)).toEqual([]);
  });
});
