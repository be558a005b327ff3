import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/core/db/database.js';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, dialectUnderTest, openMigrated, type TestDatabase } from './helpers/database.js';
import { type ActiveCampaign, makeAccountRow, makeActiveCampaign } from './helpers/mail-fixtures.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';
import { countByRecipient, type ReceivedMail, startSmtpServer, type TestSmtpServer } from './helpers/smtp.js';

// The kill tests: the real server (dist/server.js) sends a campaign's invitations to a real SMTP
// server and is killed (SIGKILL) mid-campaign, then started again.
//
// SMTP has no two-phase commit. Once the final "." of DATA has gone out, the SMTP server may
// keep the message whatever happens to us; we learn it from its 250 and then commit `sent`. A
// process killed between the two leaves a message that was delivered but is still `sending`:
// it is sent again, with the same Message-ID, after the lease. The worker records the hand-off
// (`handed_over_at`) just before the final ".", so the worker that takes the message over knows
// whether the earlier attempt may have been delivered ("in doubt", counted in
// `attempts_in_doubt`) or certainly was not (sent again plainly). Every duplicate is one of
// those in doubt: duplicates ≤ attempts in doubt; a kill leaves at most MAIL_CONCURRENCY in doubt.

let testDb: TestDatabase;
let db: Db;
let smtp: TestSmtpServer;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  const database = await openMigrated(testDb.url);
  db = database.db;
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await db?.destroy();
  await testDb?.drop();
});

function statusCounts(campaignId: number) {
  return db
    .selectFrom('messages')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .where('campaign_id', '=', campaignId)
    .groupBy('status')
    .execute()
    .then((rows) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])));
}

async function start(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const server = await startServer(env);
  servers.push(server);
  return server;
}

async function waitUntilAllSent(campaignId: number, people: number, server: ServerProcess, deadline: number) {
  for (;;) {
    const counts = await statusCounts(campaignId);
    if (counts.sent === people) return;
    if (Date.now() > deadline) throw new Error(`not all sent: ${JSON.stringify(counts)}\n${server.output()}`);
    await delay(50);
  }
}

/** The accepted messages of these recipients, by Message-ID. */
function copiesByMessageId(mails: ReceivedMail[], emails: string[]): Map<string, ReceivedMail[]> {
  const wanted = new Set(emails);
  const copies = new Map<string, ReceivedMail[]>();
  for (const mail of mails) {
    if (!mail.recipients.some((r) => wanted.has(r))) continue;
    copies.set(mail.messageId, [...(copies.get(mail.messageId) ?? []), mail]);
  }
  return copies;
}

const baseEnv = (smtpUrl: string, extra: NodeJS.ProcessEnv = {}) =>
  testEnv(testDb.url, {
    SMTP_URL: smtpUrl,
    MAIL_LEASE_SECONDS: '2',
    MAIL_RATE_PER_MINUTE: '1000000',
    SCHEDULER_INTERVAL_SECONDS: '1',
    LOG_LEVEL: 'warn',
    ...extra,
  });

describe('killing the server while a campaign’s mail is being sent', () => {
  it('resends the message cut off before the SMTP server answered, as in doubt, and it arrives once', async () => {
    // One connection, and the kill comes while the SMTP server holds the 60th message before
    // answering it; the server then refuses it (421), so it was never delivered: the count must
    // come out exact, and the resent message is recorded as having been in doubt.
    const PEOPLE = 200;
    const KILL_AT = 60;
    const account = await makeAccountRow(db, 'Durable Ltd');
    const campaign: ActiveCampaign = await makeActiveCampaign(db, account.id, {
      people: PEOPLE,
      name: 'Kill test',
    });
    const env = baseEnv(smtp.url, { MAIL_CONCURRENCY: '1' });
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

    first = await start(env);
    const deadline = Date.now() + 40_000;
    while (!killed) {
      if (Date.now() > deadline) throw new Error(`no kill: ${smtp.received.length} received`);
      await delay(20);
    }
    await killed;
    smtp.behaviour = {};
    expect(acceptedAtKill).toEqual([KILL_AT - 1]);
    const afterKill = await statusCounts(campaign.campaignId);
    expect(afterKill.sent).toBe(KILL_AT - 1);
    // The claim of the killed server, until its lease runs out: the message cut off, and on a
    // starved machine the next ones it had claimed already (they were never handed over).
    expect(afterKill.sending).toBeGreaterThanOrEqual(1);
    const cutOff = await db
      .selectFrom('messages')
      .select(['message_id', 'handed_over_at', 'subject', 'transport'])
      .where('message_id', '=', inFlightAtKill as string)
      .executeTakeFirstOrThrow();
    // Recorded before the final ".": what went out, and when it was handed over.
    expect(cutOff.handed_over_at).toEqual(expect.any(Number));
    expect(cutOff.transport).toBe('smtp');
    expect(cutOff.subject).toBe('Your security training: Spotting phishing');

    const second = await start(env);
    await waitUntilAllSent(campaign.campaignId, PEOPLE, second, deadline);
    expect(await second.stop('SIGTERM')).toBe(0);

    const perRecipient = countByRecipient(smtp.accepted);
    for (const email of campaign.emails) expect(perRecipient.get(email), email).toBe(1);
    expect(smtp.accepted).toHaveLength(PEOPLE);
    expect(await statusCounts(campaign.campaignId)).toEqual({ sent: PEOPLE });

    // The message cut off by the kill went out again after the lease, as the same message,
    // and the Outbox tells that its earlier attempt was in doubt.
    expect(smtp.accepted.filter((m) => m.messageId === inFlightAtKill)).toHaveLength(1);
    const rows = await db
      .selectFrom('messages')
      .select(['message_id', 'attempts', 'attempts_in_doubt', 'handed_over_at'])
      .where('campaign_id', '=', campaign.campaignId)
      .execute();
    const resent = rows.find((r) => r.message_id === inFlightAtKill);
    expect(resent).toMatchObject({ attempts: 2, attempts_in_doubt: 1, handed_over_at: null });
    expect(rows.filter((r) => r.attempts_in_doubt > 0)).toHaveLength(1);
  });

  it('gives everyone their invitation through several kills at random moments, and reports the duplicates', async ({
    annotate,
  }) => {
    // Two connections (the default), and four kills at random moments while the SMTP server
    // takes 1–4 ms between a message's final "." and its 250 and keeps every message it has
    // received, as a real server does even when the client is gone. A kill in that window, or
    // before our commit, makes a duplicate: this test cannot prevent those, it counts them and
    // checks that each was recorded as in doubt and carries the same Message-ID.
    const PEOPLE = 300;
    const KILLS = 4;
    const account = await makeAccountRow(db, 'Chaos Ltd');
    const campaign = await makeActiveCampaign(db, account.id, { people: PEOPLE, name: 'Random kills' });
    const env = baseEnv(smtp.url, { MAIL_CONCURRENCY: '2' });
    smtp.behaviour.onMessage = async () => {
      await delay(1 + Math.floor(Math.random() * 4));
      return undefined;
    };
    const before = smtp.received.length;
    const received = () => smtp.received.length - before;
    const deadline = Date.now() + 50_000;
    const killsAt: number[] = [];

    let server = await start(env);
    for (let kill = 0; kill < KILLS; kill++) {
      const target = received() + 10 + Math.floor(Math.random() * 40);
      while (received() < target) {
        if (Date.now() > deadline) throw new Error(`no kill ${kill + 1}: ${received()} received`);
        await delay(1);
      }
      await delay(Math.random() * 6);
      killsAt.push(received());
      await server.stop('SIGKILL');
      server = await start(env);
    }
    await waitUntilAllSent(campaign.campaignId, PEOPLE, server, deadline);
    expect(await server.stop('SIGTERM')).toBe(0);

    const rows = await db
      .selectFrom('messages')
      .select(['id', 'status', 'message_id', 'to_address', 'attempts_in_doubt'])
      .where('campaign_id', '=', campaign.campaignId)
      .execute();
    const copies = copiesByMessageId(smtp.accepted, campaign.emails);
    const duplicated = [...copies.values()].filter((c) => c.length > 1);
    const extraCopies = duplicated.reduce((sum, c) => sum + c.length - 1, 0);
    const inDoubt = rows.filter((r) => r.attempts_in_doubt > 0);
    const attemptsInDoubt = rows.reduce((sum, r) => sum + r.attempts_in_doubt, 0);
    const figure =
      `${dialectUnderTest}: ${KILLS} kills (after ${killsAt.join(', ')} messages received), ` +
      `${PEOPLE} invitations: ${duplicated.length} received twice (same Message-ID, ` +
      `${extraCopies} extra copies), ${inDoubt.length} in doubt (${attemptsInDoubt} attempts)`;
    console.log(`[mail kill test] ${figure}`);
    await annotate(figure);

    // What the people see: everyone got their invitation; any second copy is the same message.
    const perRecipient = countByRecipient(smtp.accepted);
    for (const email of campaign.emails) expect(perRecipient.get(email), email).toBeGreaterThanOrEqual(1);
    for (const [messageId, mails] of copies) {
      expect(new Set(mails.map((m) => m.recipients.join())).size, messageId).toBe(1);
    }
    expect(copies.size).toBe(PEOPLE);
    // What the queue says: all sent, each recorded Message-ID is the one that arrived.
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    for (const row of rows)
      expect(copies.get(row.message_id as string)?.[0]?.recipients).toEqual([row.to_address]);
    // Every duplicate came from an attempt the queue knows was in doubt.
    for (const mails of duplicated) {
      const row = rows.find((r) => r.message_id === mails[0]?.messageId);
      expect(row?.attempts_in_doubt, row?.message_id ?? '').toBeGreaterThanOrEqual(mails.length - 1);
    }
    // (Not bounded by 2 per kill here: on a starved machine a send can also time out after its
    // hand-off, which is in doubt too.)
    expect(extraCopies).toBeLessThanOrEqual(attemptsInDoubt);
  });
});
