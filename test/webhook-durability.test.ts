import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { emitWebhookEvents } from '../src/modules/webhooks/webhooks.emit.js';
import { createEndpoint } from '../src/modules/webhooks/webhooks.service.js';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, dialectUnderTest, openMigrated, type TestDatabase } from './helpers/database.js';
import { makeAccountRow } from './helpers/mail-fixtures.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';
import { startReceiver } from './helpers/webhook-receiver.js';

// The kill test of webhooks: the real server (dist/server.js) delivers an account's events to a
// real receiver that answers slowly, and is killed (SIGKILL) mid-way, then started again. At
// least once: every event arrives; one whose delivery was under way at the kill may arrive twice,
// with the same webhook-id (receivers dedupe on it). Nothing is lost.

const EVENTS = 40;
let testDb: TestDatabase;
let db: Db;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = (await openMigrated(testDb.url)).db;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await db?.destroy();
  await testDb?.drop();
});

async function succeeded(accountId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe(`webhook delivery survives kill -9 (${dialectUnderTest})`, () => {
  it('loses no event: each arrives at least once, a repeat carries the same webhook-id', async () => {
    const receiver = await startReceiver(async () => {
      await delay(40 + Math.floor(Math.random() * 60));
      return { status: 200, body: 'ok' };
    });
    const { id: accountId } = await makeAccountRow(db);
    const policy = loadConfig({
      WEBHOOKS_ALLOW_HTTP: 'on',
      WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32',
    }).webhooks;
    await createEndpoint(db, { accountId, url: `${receiver.url}/kill`, policy });
    await db.transaction().execute((trx) =>
      emitWebhookEvents(
        trx,
        accountId,
        Array.from({ length: EVENTS }, (_, i) => ({
          type: 'employee.deleted' as const,
          data: { id: i + 1 },
        })),
      ),
    );
    const expected = await db
      .selectFrom('webhook_events')
      .select('message_id')
      .where('account_id', '=', accountId)
      .execute();
    expect(expected).toHaveLength(EVENTS);

    const env = testEnv(testDb.url, {
      WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32',
      WEBHOOKS_ALLOW_HTTP: 'on',
      WEBHOOKS_LEASE_SECONDS: '2',
      WEBHOOKS_CONCURRENCY: '2',
      SCHEDULER_INTERVAL_SECONDS: '3600',
    });
    const first = await startServer(env);
    servers.push(first);
    const deadline = Date.now() + 30_000;
    while (receiver.received.length < 10) {
      if (Date.now() > deadline) throw new Error(`nothing delivered:\n${first.output()}`);
      await delay(10);
    }
    await first.stop('SIGKILL');
    const atKill = receiver.received.length;
    expect(atKill).toBeLessThan(EVENTS);

    const second = await startServer(env);
    servers.push(second);
    while ((await succeeded(accountId)) < EVENTS) {
      if (Date.now() > deadline + 30_000) throw new Error(`not all delivered:\n${second.output()}`);
      await delay(50);
    }
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    const distinct = new Set(ids);
    expect([...distinct].sort()).toEqual(expected.map((e) => e.message_id).sort());
    console.log(
      `[webhook kill test] ${dialectUnderTest}: killed after ${atKill} received; ${EVENTS} events, ${ids.length} requests (${ids.length - distinct.size} repeated, same webhook-id)`,
    );
  }, 90_000);
});
