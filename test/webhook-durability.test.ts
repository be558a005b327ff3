import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import type { Db } from '../src/core/db/database.js';
import { emitWebhookEvents } from '../src/modules/integrations/webhooks/webhooks.emit.commands.js';
import { createEndpoint } from '../src/modules/integrations/webhooks/webhooks.service.js';
import { testEnv } from './helpers/app.js';
import { createTestDatabase, dialectUnderTest, openMigrated, type TestDatabase } from './helpers/database.js';
import { makeAccountRow } from './helpers/mail-fixtures.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';
import { startReceiver } from './helpers/webhook-receiver.js';

// The kill test of webhooks: the real server (dist/server.js) delivers an account's events to a
// real receiver that answers slowly, and is killed (SIGKILL) mid-way, then started again. At
// least once: every event arrives; one whose delivery was under way at the kill may arrive twice,
// with the same webhook-id (receivers dedupe on it). Nothing is lost. And the fan-out of stored
// events into deliveries, killed mid-way: each event gets exactly one delivery per endpoint.

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

const policy = loadConfig({ WEBHOOKS_ALLOW_HTTP: 'on', WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32' }).webhooks;
const env = () =>
  testEnv(testDb.url, {
    WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32',
    WEBHOOKS_ALLOW_HTTP: 'on',
    WEBHOOKS_LEASE_SECONDS: '2',
    WEBHOOKS_CONCURRENCY: '2',
    SCHEDULER_INTERVAL_SECONDS: '3600',
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

    const first = await startServer(env());
    servers.push(first);
    const deadline = Date.now() + 30_000;
    while (receiver.received.length < 10) {
      if (Date.now() > deadline) throw new Error(`nothing delivered:\n${first.output()}`);
      await delay(10);
    }
    await first.stop('SIGKILL');
    const atKill = receiver.received.length;
    expect(atKill).toBeLessThan(EVENTS);

    const second = await startServer(env());
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

  it('fans out each event exactly once across a kill -9 in the middle of the fan-out', async () => {
    const FANNED = 2000;
    const receiver = await startReceiver();
    const { id: accountId } = await makeAccountRow(db);
    for (const path of ['/a', '/b', '/c'])
      await createEndpoint(db, { accountId, url: `${receiver.url}${path}`, policy });
    await db.transaction().execute((trx) =>
      emitWebhookEvents(
        trx,
        accountId,
        Array.from({ length: FANNED }, (_, i) => ({
          type: 'employee.deleted' as const,
          data: { id: i + 1 },
        })),
      ),
    );
    const pending = async () =>
      Number(
        (
          await db
            .selectFrom('webhook_events')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('account_id', '=', accountId)
            .where('fanout_pending', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // WEBHOOKS_MAX_ENDPOINTS=1000: a fan-out batch is one event, so the fan-out takes a while.
    const fanEnv = { ...env(), WEBHOOKS_MAX_ENDPOINTS: '1000' };
    // Not waiting for /readyz: the worker may have fanned everything out by then.
    const first = await startServer(fanEnv, { waitForReady: false });
    servers.push(first);
    const deadline = Date.now() + 30_000;
    let left = await pending();
    while (left === FANNED) {
      if (Date.now() > deadline) throw new Error(`no fan-out:\n${first.output()}`);
      await delay(2);
      left = await pending();
    }
    await first.stop('SIGKILL');
    const atKill = await pending();
    expect(atKill).toBeGreaterThan(0);

    const second = await startServer(fanEnv);
    servers.push(second);
    while ((await pending()) > 0) {
      if (Date.now() > deadline + 30_000) throw new Error(`fan-out not finished:\n${second.output()}`);
      await delay(50);
    }
    await second.stop('SIGKILL');
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'endpoint_id'])
      .where('account_id', '=', accountId)
      .execute();
    const pairs = new Set(deliveries.map((d) => `${d.event_id}:${d.endpoint_id}`));
    expect(deliveries).toHaveLength(FANNED * 3);
    expect(pairs.size).toBe(FANNED * 3);
    console.log(
      `[webhook kill test] ${dialectUnderTest}: killed with ${atKill} of ${FANNED} events still to fan out; ${deliveries.length} deliveries, one per event and endpoint`,
    );
  }, 90_000);
});
