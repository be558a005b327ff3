import { request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/core/db/database.js';
import { normalizeEmail } from '../src/core/fields.js';
import { employeeSearchText } from '../src/core/search-text.js';
import { createGroup } from '../src/modules/directory/groups/groups.service.js';
import { launchPhishingCampaign } from '../src/modules/phishing/campaigns/campaigns.launch.commands.js';
import { createPhishingCampaign } from '../src/modules/phishing/campaigns/campaigns.service.js';
import { runScheduledWork } from '../src/workers/scheduler.js';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, dialectUnderTest, openMigrated, type TestDatabase } from './helpers/database.js';
import { makeAccountRow } from './helpers/mail-fixtures.js';
import { BROWSER, quietLog, seedPhishingCampaign } from './helpers/phishing.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';
import { startSmtpServer, type TestSmtpServer } from './helpers/smtp.js';

// The kill test for simulations: the real server (dist/server.js) sends a 2,000-recipient
// phishing campaign to a real SMTP server and is killed (SIGKILL) mid-send, twice, then started
// again and drained. Every recipient receives their simulation (counted by X-Vigil-Simulation at
// the SMTP server); as in test/mail-durability.test.ts, a second copy is allowed only for an
// attempt the queue recorded as in doubt (the one window SMTP leaves), and carries the same token.

let testDb: TestDatabase;
let db: Db;
let smtp: TestSmtpServer;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = (await openMigrated(testDb.url)).db;
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await db?.destroy();
  await testDb?.drop();
});

const PEOPLE = 2000;
const tokenOf = (raw: string) => /^X-Vigil-Simulation: ([A-Za-z0-9_-]{32})\r?$/m.exec(raw)?.[1];

async function seed(): Promise<{ accountId: number; campaignId: number }> {
  const account = await makeAccountRow(db, 'Phish Durable Ltd');
  const group = await createGroup(db, account.id, { name: 'Everyone' });
  const now = Date.now();
  const rows = [];
  for (let i = 0; i < PEOPLE; i++) {
    const email = `p${i}@durable.example`;
    rows.push({
      account_id: account.id,
      first_name: `P${i}`,
      last_name: 'Durable',
      email,
      email_normalized: normalizeEmail(email),
      search_text: employeeSearchText({ first_name: `P${i}`, last_name: 'Durable', email }),
      created_at: now,
      updated_at: now,
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    const ids = await db
      .insertInto('employees')
      .values(rows.slice(i, i + 500))
      .returning('id')
      .execute();
    await db
      .insertInto('group_members')
      .values(ids.map((r) => ({ group_id: group.id, employee_id: r.id })))
      .execute();
  }
  const campaign = await createPhishingCampaign(db, account.id, {
    name: 'Kill test',
    group_ids: [group.id],
    template_keys: ['builtin:invoice-final-notice'],
    window_start_at: new Date(now - 3_600_000).toISOString(),
    // Every moment within the next few seconds: all due at once.
    window_end_at: new Date(now + 4000).toISOString(),
    weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    hour_start: 0,
    hour_end: 24,
  });
  await launchPhishingCampaign(db, { accountId: account.id, campaignId: campaign.id, trigger: 'now' });
  return { accountId: account.id, campaignId: campaign.id };
}

function simulationCounts(campaignId: number) {
  return db
    .selectFrom('messages as m')
    .innerJoin('phishing_recipients as r', 'r.id', 'm.phishing_recipient_id')
    .select((eb) => ['m.status', eb.fn.countAll<number | string>().as('n')])
    .where('r.campaign_id', '=', campaignId)
    .groupBy('m.status')
    .execute()
    .then((rows) => Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])));
}

describe('killing the server while a phishing campaign is sending', () => {
  it('gives every recipient exactly one simulation; a copy in doubt is the same message', {
    timeout: 180_000,
  }, async ({ annotate }) => {
    const { campaignId } = await seed();
    const env = testEnv(testDb.url, {
      SMTP_URL: smtp.url,
      PHISH_URL: 'https://phish.durable.example',
      MAIL_LEASE_SECONDS: '2',
      MAIL_RATE_PER_MINUTE: '1000000',
      MAIL_CONCURRENCY: '2',
      SCHEDULER_INTERVAL_SECONDS: '1',
      LOG_LEVEL: 'warn',
    });
    smtp.behaviour.onMessage = async () => {
      await delay(1 + Math.floor(Math.random() * 3));
      return undefined;
    };
    const deadline = Date.now() + 150_000;
    let server = await startServer(env);
    servers.push(server);
    for (const killAt of [300, 900]) {
      while (smtp.received.length < killAt) {
        if (Date.now() > deadline) throw new Error(`no kill at ${killAt}: ${smtp.received.length} received`);
        await delay(2);
      }
      await server.stop('SIGKILL');
      server = await startServer(env);
      servers.push(server);
    }
    for (;;) {
      const counts = await simulationCounts(campaignId);
      if (counts.sent === PEOPLE) break;
      if (Date.now() > deadline)
        throw new Error(`not all sent: ${JSON.stringify(counts)}\n${server.output()}`);
      await delay(100);
    }
    // The recipients' steps catch up (the worker, or the scheduler's sweep after a kill).
    for (;;) {
      const sent = await db
        .selectFrom('phishing_recipients')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('campaign_id', '=', campaignId)
        .where('status', '=', 'sent')
        .executeTakeFirstOrThrow();
      if (Number(sent.n) === PEOPLE) break;
      if (Date.now() > deadline) throw new Error(`recipients not all sent: ${sent.n}`);
      await delay(200);
    }
    expect(await server.stop('SIGTERM')).toBe(0);

    const recipients = await db
      .selectFrom('phishing_recipients as r')
      .innerJoin('messages as m', 'm.phishing_recipient_id', 'r.id')
      .select(['r.token', 'm.attempts_in_doubt'])
      .where('r.campaign_id', '=', campaignId)
      .execute();
    const perToken = new Map<string, number>();
    const messageIds = new Map<string, Set<string>>();
    for (const mail of smtp.accepted) {
      const token = tokenOf(mail.raw);
      if (!token) continue;
      perToken.set(token, (perToken.get(token) ?? 0) + 1);
      messageIds.set(token, (messageIds.get(token) ?? new Set()).add(mail.messageId));
    }
    let extra = 0;
    for (const r of recipients) {
      const n = perToken.get(r.token) ?? 0;
      expect(n, r.token).toBeGreaterThanOrEqual(1);
      // Exactly one simulation each: any second copy is the same message (one Message-ID), which
      // the receiving mail system keeps once.
      expect(messageIds.get(r.token)?.size, r.token).toBe(1);
      // A second copy only for an attempt recorded in doubt.
      expect(n - 1, r.token).toBeLessThanOrEqual(r.attempts_in_doubt);
      extra += n - 1;
    }
    expect(perToken.size).toBe(PEOPLE);
    const figures = await db
      .selectFrom('phishing_figures')
      .select(['delivered'])
      .where('campaign_id', '=', campaignId)
      .where('dimension', '=', 'all')
      .executeTakeFirstOrThrow();
    expect(figures.delivered).toBe(PEOPLE);
    const figure = `${dialectUnderTest}: 2 kills, ${PEOPLE} simulations, ${extra} extra copies (each in doubt)`;
    console.log(`[phishing kill test] ${figure}`);
    await annotate(figure);
  });
});

/** A GET on a connection of its own (so a cluster's primary hands it to the next worker), as from `forwardedFor`. */
function getAlone(url: string, forwardedFor: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent: false, headers: { 'user-agent': BROWSER, 'x-forwarded-for': forwardedFor } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('killing the server before the hits of a scanner’s burst settle', () => {
  it('settles them from the database afterwards, once, whichever process recorded each', {
    timeout: 120_000,
  }, async ({ annotate }) => {
    const account = await makeAccountRow(db, 'Burst Durable Ltd');
    // The seeding helper only needs the database.
    const c = await seedPhishingCampaign({ db } as unknown as FastifyInstance, account.id, {
      people: 20,
      remedial: true,
      landing: 'teach_on_click',
    });
    // Two server processes, no background work: the hits are recorded, nothing settles them.
    const server = await startServer(
      testEnv(testDb.url, {
        WEB_CONCURRENCY: '2',
        WORKERS: 'off',
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'warn',
      }),
    );
    servers.push(server);
    const burst = c.people.slice(0, 19);
    const genuine = c.people[19]!;
    for (const p of burst) expect(await getAlone(`${server.baseUrl}/v/${p.token}`, '198.18.0.9')).toBe(200);
    expect(await getAlone(`${server.baseUrl}/v/${genuine.token}`, '198.18.7.7')).toBe(200);
    await server.stop('SIGKILL');

    const clicks = () =>
      db
        .selectFrom('phishing_events')
        .select(['recipient_id', 'classification', 'reason'])
        .where('campaign_id', '=', c.campaignId)
        .where('kind', '=', 'clicked')
        .execute();
    const humanAtFirst = (await clicks()).filter((e) => e.classification === 'human').length - 1;
    expect(humanAtFirst).toBeGreaterThanOrEqual(4);

    // Restarted: two workers run the scheduler at once, a minute later.
    const later = Date.now() + 60_000;
    await Promise.all([runScheduledWork(db, later, quietLog), runScheduledWork(db, later, quietLog)]);
    const settled = await clicks();
    expect(settled.filter((e) => e.recipient_id !== genuine.id).map((e) => e.reason)).toEqual(
      burst.map(() => 'address_burst'),
    );
    expect(settled.find((e) => e.recipient_id === genuine.id)?.classification).toBe('human');
    const figures = await db
      .selectFrom('phishing_figures')
      .select(['clicked', 'phished', 'training_assigned', 'automated_events'])
      .where('campaign_id', '=', c.campaignId)
      .where('dimension', '=', 'all')
      .executeTakeFirstOrThrow();
    expect(figures).toEqual({ clicked: 1, phished: 1, training_assigned: 1, automated_events: 19 });
    const enrolled = await db
      .selectFrom('enrollments')
      .select('employee_id')
      .where('campaign_id', '=', c.remedialId!)
      .execute();
    expect(enrolled.map((e) => e.employee_id)).toEqual([genuine.employee.id]);
    const invitations = await db
      .selectFrom('messages')
      .select('kind')
      .where('campaign_id', '=', c.remedialId!)
      .execute();
    expect(invitations).toEqual([{ kind: 'invitation' }]);
    await annotate(`${humanAtFirst} of the burst's 19 clicks looked human as they arrived (two processes)`);
  });
});
