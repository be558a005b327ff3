import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { afterFile } from '../../../../test/helpers/cleanup.js';
import { dialectUnderTest, openMigrated } from '../../../../test/helpers/database.js';
import { DAY_MS, makeAccountRow, makeActiveCampaign } from '../../../../test/helpers/mail-fixtures.js';
import type { Db } from '../../../core/db/database.js';
import { queueDueRemindersOfAllAccounts } from './enrollments.reminders.commands.js';

// Reminder rounds: queued once per round (however many schedulers run), only to people who
// have not completed, never for a moment already past at launch.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const launched = Date.UTC(2031, 0, 5, 9);
const due = launched + 10 * DAY_MS;

async function campaign(options: Parameters<typeof makeActiveCampaign>[2] = {}) {
  const account = await makeAccountRow(t.app.db);
  const c = await makeActiveCampaign(t.app.db, account.id, {
    people: 3,
    now: launched,
    launchedAt: launched,
    dueAt: due,
    reminderDays: [7, 3, 1],
    ...options,
  });
  // Only this campaign is active in the window the test moves through: older ones are done.
  await t.app.db
    .updateTable('training_campaigns')
    .set({ status: 'completed' })
    .where('id', '!=', c.campaignId)
    .where('status', '=', 'active')
    .execute();
  return c;
}

function reminders(db: Db, campaignId: number) {
  return db
    .selectFrom('messages')
    .select(['enrollment_id', 'round', 'status'])
    .where('campaign_id', '=', campaignId)
    .where('kind', '=', 'reminder')
    .orderBy('round', 'desc')
    .orderBy('enrollment_id')
    .execute();
}

function rounds(db: Db, campaignId: number) {
  return db
    .selectFrom('campaign_reminders')
    .select(['days_before_due', 'queued_count', 'queued_at'])
    .where('campaign_id', '=', campaignId)
    .orderBy('days_before_due', 'desc')
    .execute();
}

describe('reminder rounds', () => {
  it('queues each round once, when its moment comes, to those who have not completed', async () => {
    const c = await campaign();
    const [done, a, b] = c.enrollmentIds as [number, number, number];
    await t.app.db
      .updateTable('enrollments')
      .set({ completed_at: launched + DAY_MS })
      .where('id', '=', done)
      .execute();

    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - 7 * DAY_MS - 1)).toBe(0);
    expect(await rounds(t.app.db, c.campaignId)).toEqual([]);

    const weekBefore = due - 7 * DAY_MS;
    expect(await queueDueRemindersOfAllAccounts(t.app.db, weekBefore)).toBe(2);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, weekBefore + 60_000)).toBe(0);
    expect(await reminders(t.app.db, c.campaignId)).toEqual([
      { enrollment_id: a, round: 7, status: 'queued' },
      { enrollment_id: b, round: 7, status: 'queued' },
    ]);

    // b completes before the next round.
    await t.app.db
      .updateTable('enrollments')
      .set({ completed_at: weekBefore + DAY_MS })
      .where('id', '=', b)
      .execute();
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - 3 * DAY_MS)).toBe(1);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - DAY_MS + 5)).toBe(1);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - DAY_MS + 10)).toBe(0);
    expect((await reminders(t.app.db, c.campaignId)).map((r) => [r.enrollment_id, r.round])).toEqual([
      [a, 7],
      [b, 7],
      [a, 3],
      [a, 1],
    ]);
    expect(await rounds(t.app.db, c.campaignId)).toEqual([
      { days_before_due: 7, queued_count: 2, queued_at: weekBefore },
      { days_before_due: 3, queued_count: 1, queued_at: due - 3 * DAY_MS },
      { days_before_due: 1, queued_count: 1, queued_at: due - DAY_MS + 5 },
    ]);
  });

  it('records a round whose moment was past at launch without sending it', async () => {
    const c = await campaign({ launchedAt: due - 5 * DAY_MS, now: due - 5 * DAY_MS });
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - 5 * DAY_MS + 1000)).toBe(0);
    expect(await rounds(t.app.db, c.campaignId)).toEqual([
      { days_before_due: 7, queued_count: 0, queued_at: due - 5 * DAY_MS + 1000 },
    ]);
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - 3 * DAY_MS)).toBe(3);
    expect((await reminders(t.app.db, c.campaignId)).map((r) => r.round)).toEqual([3, 3, 3]);
  });

  it('sends only the latest of several rounds that came at once, and none after the due date', async () => {
    const c = await campaign();
    // The scheduler was down from launch until two days before the due date.
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - 2 * DAY_MS)).toBe(3);
    expect((await rounds(t.app.db, c.campaignId)).map((r) => [r.days_before_due, r.queued_count])).toEqual([
      [7, 0],
      [3, 3],
    ]);
    // …and down again past the due date: the last round is recorded, not sent.
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due + 1)).toBe(0);
    expect((await rounds(t.app.db, c.campaignId)).map((r) => [r.days_before_due, r.queued_count])).toEqual([
      [7, 0],
      [3, 3],
      [1, 0],
    ]);
  });

  it('leaves campaigns that are not active, or have no due date or reminders, alone', async () => {
    const stopped = await campaign();
    await t.app.db
      .updateTable('training_campaigns')
      .set({ status: 'completed' })
      .where('id', '=', stopped.campaignId)
      .execute();
    const undated = await campaign({ dueAt: null });
    const none = await campaign({ reminderDays: [] });
    await t.app.db
      .updateTable('training_campaigns')
      .set({ status: 'active' })
      .where('id', 'in', [undated.campaignId, none.campaignId])
      .execute();
    expect(await queueDueRemindersOfAllAccounts(t.app.db, due - DAY_MS)).toBe(0);
    for (const c of [stopped, undated, none]) expect(await rounds(t.app.db, c.campaignId)).toEqual([]);
  });

  it('queues a round once even when several schedulers run at the same moment', async () => {
    const c = await campaign();
    // PostgreSQL: four pools, as four instances would have. SQLite: one process has one
    // connection (another would wait on the file lock synchronously, stalling this very
    // process); four passes interleaved on it still race between reading and recording.
    const handles: Db[] = [];
    for (let i = 0; i < 4; i++) {
      if (dialectUnderTest === 'sqlite') {
        handles.push(t.app.db);
        continue;
      }
      const database = await openMigrated(t.databaseUrl);
      afterFile(() => database.close());
      handles.push(database.db);
    }
    const queued = await Promise.all(
      handles.map((db) => queueDueRemindersOfAllAccounts(db, due - 7 * DAY_MS)),
    );
    expect(queued.reduce((sum, n) => sum + n, 0)).toBe(3);
    expect(await reminders(t.app.db, c.campaignId)).toHaveLength(3);
    expect(await rounds(t.app.db, c.campaignId)).toEqual([
      { days_before_due: 7, queued_count: 3, queued_at: due - 7 * DAY_MS },
    ]);
  });
});
