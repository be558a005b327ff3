import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { createTestDatabase, openMigrated } from '../../test/helpers/database.js';
import { makeAccount, makeEmployee, makeGroup } from '../../test/helpers/factories.js';
import { DAY_MS } from '../../test/helpers/mail-fixtures.js';
import type { WorkerLog } from './mail-worker.js';
import { runScheduledWork, startScheduler } from './scheduler.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

function recorder() {
  const lines: { level: string; msg: string }[] = [];
  const log: WorkerLog = {
    info: (_o, msg) => lines.push({ level: 'info', msg }),
    warn: (_o, msg) => lines.push({ level: 'warn', msg }),
    error: (_o, msg) => lines.push({ level: 'error', msg }),
  };
  return { lines, log };
}

/** A scheduled campaign whose start is `startAt`, targeting a group of two. */
async function scheduledCampaign(startAt: number) {
  const account = await makeAccount(t.app);
  const group = await makeGroup(t.app, account.id);
  const people = [await makeEmployee(t.app, account.id), await makeEmployee(t.app, account.id)];
  await t.app.db
    .insertInto('group_members')
    .values(people.map((p) => ({ group_id: group.id, employee_id: p.id })))
    .execute();
  const now = Date.now();
  // One transaction, so a running scheduler never sees the campaign before its groups and courses.
  return t.app.db.transaction().execute(async (trx) => {
    const campaign = await trx
      .insertInto('training_campaigns')
      .values({
        account_id: account.id,
        name: 'Scheduled',
        status: 'scheduled',
        start_at: startAt,
        due_at: startAt + 14 * DAY_MS,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('campaign_groups')
      .values({ campaign_id: campaign.id, group_id: group.id })
      .execute();
    await trx
      .insertInto('campaign_courses')
      .values({ campaign_id: campaign.id, course_key: 'phishing', position: 0 })
      .execute();
    return campaign.id;
  });
}

const invitations = (campaignId: number) =>
  t.app.db.selectFrom('messages').select(['kind', 'status']).where('campaign_id', '=', campaignId).execute();

const statusOf = async (campaignId: number) =>
  (
    await t.app.db
      .selectFrom('training_campaigns')
      .select('status')
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow()
  ).status;

describe('the scheduler', () => {
  it('launches a scheduled campaign when its start comes, queueing the invitations', async () => {
    const start = Date.now() + 60_000;
    const id = await scheduledCampaign(start);
    const { log } = recorder();
    expect(await runScheduledWork(t.app.db, start - 1, log)).toEqual({ launched: 0, reminders: 0 });
    expect(await statusOf(id)).toBe('scheduled');
    expect(await runScheduledWork(t.app.db, start, log)).toEqual({ launched: 1, reminders: 0 });
    expect(await statusOf(id)).toBe('active');
    expect(await invitations(id)).toEqual([
      { kind: 'invitation', status: 'queued' },
      { kind: 'invitation', status: 'queued' },
    ]);
  });

  it('logs a failing step and carries on', async () => {
    const broken = await createTestDatabase();
    const database = await openMigrated(broken.url);
    await database.close();
    const { lines, log } = recorder();
    expect(await runScheduledWork(database.db, Date.now(), log)).toEqual({ launched: 0, reminders: 0 });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'scheduler: could not launch scheduled campaigns'],
      ['error', 'scheduler: could not queue reminders'],
      ['error', 'scheduler: could not launch scheduled phishing campaigns'],
      ['error', 'scheduler: could not complete phishing campaigns'],
      ['error', 'scheduler: could not settle tracking hits'],
      ['error', 'scheduler: could not find overdue enrollments'],
      ['error', 'scheduler: could not delete expired idempotency keys'],
      ['error', 'scheduler: could not delete reported mail past its retention'],
      ['error', 'scheduler: could not delete audit log rows past their retention'],
    ]);
    await broken.drop();
  });

  it('runs at once and then every interval, waking the mail worker after queueing', async () => {
    const { log } = recorder();
    let woken = 0;
    const scheduler = startScheduler({
      db: t.app.db,
      intervalMs: 50,
      log,
      instance: { config: t.app.config, baseUrl: 'http://127.0.0.1:8080' },
      onQueued: () => woken++,
    });
    const id = await scheduledCampaign(Date.now());
    const deadline = Date.now() + 5000;
    while ((await statusOf(id)) !== 'active') {
      if (Date.now() > deadline) throw new Error('the scheduler did not launch the campaign');
      await new Promise((r) => setTimeout(r, 20));
    }
    await scheduler.stop();
    expect(woken).toBeGreaterThanOrEqual(1);
    expect(await invitations(id)).toHaveLength(2);
  });
});
