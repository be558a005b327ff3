import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.js';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, openMigrated, type TestDatabase } from './helpers/database.js';
import { type ActiveCampaign, makeAccountRow, makeActiveCampaign } from './helpers/mail-fixtures.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';
import { countByRecipient, startSmtpServer, type TestSmtpServer } from './helpers/smtp.js';

// The kill test: the real server (dist/server.js) sends a campaign's 200 invitations to a real
// SMTP server; it is killed (SIGKILL) while the SMTP server is receiving the 60th message,
// before that message is acknowledged, and started again. Every enrolled employee must get
// exactly one invitation, and the queue must say so.
//
// Why MAIL_CONCURRENCY=1: SMTP has no two-phase commit. Between the SMTP server's 250 and our
// commit of `sent` there is a sub-millisecond window; a kill inside it leaves a message that was
// delivered but is still `sending`, and it is sent again after the lease. With one connection,
// at most one message can be in that window, and this test kills before the 250, so the count
// must come out exact. With N connections a kill could duplicate up to one message per
// connection (each of them a copy with the same Message-ID, which receivers can drop); no
// sender can do better without the receiver's help.

const PEOPLE = 200;
const KILL_AT = 60;

let testDb: TestDatabase;
let db: Db;
let smtp: TestSmtpServer;
let campaign: ActiveCampaign;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const database = await openMigrated(testDb.url);
  db = database.db;
  const account = await makeAccountRow(db, 'Durable Ltd');
  campaign = await makeActiveCampaign(db, account.id, { people: PEOPLE, name: 'Kill test' });
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await db?.destroy();
  await testDb?.drop();
});

function statusCounts() {
  return db
    .selectFrom('messages')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .where('campaign_id', '=', campaign.campaignId)
    .groupBy('status')
    .execute()
    .then((rows) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])));
}

describe('killing the server while a campaign’s mail is being sent', () => {
  it('delivers exactly one invitation to every enrolled employee after a restart', async () => {
    const env = testEnv(testDb.url, {
      SMTP_URL: smtp.url,
      MAIL_CONCURRENCY: '1',
      MAIL_LEASE_SECONDS: '2',
      MAIL_RATE_PER_MINUTE: '1000000',
      SCHEDULER_INTERVAL_SECONDS: '1',
      LOG_LEVEL: 'warn',
    });
    let first: ServerProcess | undefined;
    let killed: Promise<unknown> | undefined;
    let inFlightAtKill: string | undefined;
    const acceptedAtKill: number[] = [];
    smtp.behaviour.onMessage = async (mail) => {
      await delay(3); // a little like a real server, so the kill comes after startServer returned
      if (smtp.received.length === KILL_AT && !killed) {
        // The whole message has arrived; the server dies before it is acknowledged.
        for (let i = 0; !first && i < 100; i++) await delay(5);
        if (!first) throw new Error('the server sent 60 messages before it was ready');
        inFlightAtKill = mail.messageId;
        acceptedAtKill.push(smtp.accepted.length);
        killed = first.stop('SIGKILL');
        await killed;
        return { code: 421, message: 'never seen by the killed client' };
      }
      return undefined;
    };

    first = await startServer(env);
    servers.push(first);
    const deadline = Date.now() + 60_000;
    while (!killed) {
      if (Date.now() > deadline) throw new Error(`no kill: ${smtp.received.length} received`);
      await delay(20);
    }
    await killed;
    expect(acceptedAtKill).toEqual([KILL_AT - 1]);
    const afterKill = await statusCounts();
    expect(afterKill.sent).toBe(KILL_AT - 1);
    expect(afterKill.sending).toBe(1); // the claim of the killed server, until its lease runs out

    const second = await startServer(env);
    servers.push(second);
    for (;;) {
      const counts = await statusCounts();
      if (counts.sent === PEOPLE) break;
      if (Date.now() > deadline)
        throw new Error(`not all sent: ${JSON.stringify(counts)}\n${second.output()}`);
      await delay(100);
    }
    expect(await second.stop('SIGTERM')).toBe(0);

    const perRecipient = countByRecipient(smtp.accepted);
    expect(perRecipient.size).toBe(PEOPLE);
    for (const email of campaign.emails) expect(perRecipient.get(email), email).toBe(1);
    expect(smtp.accepted).toHaveLength(PEOPLE);
    expect(await statusCounts()).toEqual({ sent: PEOPLE });

    // The message cut off by the kill went out again after the lease, as the same message.
    const again = smtp.accepted.filter((m) => m.messageId === inFlightAtKill);
    expect(again).toHaveLength(1);
    const row = await db
      .selectFrom('messages')
      .select(['attempts', 'message_id'])
      .where('message_id', '=', inFlightAtKill as string)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(2);
  });
});
