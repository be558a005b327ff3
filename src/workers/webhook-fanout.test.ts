import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/app.js';
import { client, makeAccount, makeKey } from '../../test/helpers/factories.js';
import { startReceiver } from '../../test/helpers/webhook-receiver.js';
import type { Db } from '../core/db/database.js';
import { emitWebhookEvents } from '../modules/integrations/webhooks/webhooks.emit.commands.js';
import { createEndpoint } from '../modules/integrations/webhooks/webhooks.service.js';
import { WebhookWorker } from './webhook-worker.js';

// A change writes one row per event, whatever the number of endpoints; the worker fans each
// event out into one delivery per endpoint listening at fan-out time, each exactly once.

const log = { info() {}, warn() {}, error() {} };
const ENDPOINTS = 20;
const { app } = await buildTestApp({ WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32', WEBHOOKS_ALLOW_HTTP: 'on' });
const receiver = await startReceiver();
const worker = (concurrency = 4) =>
  new WebhookWorker({
    ...app.config.webhooks,
    db: app.db,
    log,
    timeoutMs: 5000,
    leaseMs: 60_000,
    concurrency,
  });

async function account() {
  const { id } = await makeAccount(app);
  const { key } = await makeKey(app, { accountId: id });
  return { id, api: client(app, key) };
}

async function endpoints(accountId: number, count: number, path: string, eventTypes?: string[]) {
  const made = [];
  for (let i = 0; i < count; i++) {
    const url = `${receiver.url}/${path}/${i}`;
    made.push(await createEndpoint(app.db, { accountId, url, eventTypes, policy: app.config.webhooks }));
  }
  return made;
}

async function rows(db: Db, accountId: number) {
  const count = async (table: 'webhook_events' | 'webhook_deliveries') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('account_id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { events: await count('webhook_events'), deliveries: await count('webhook_deliveries') };
}

/** Each (event, endpoint) pair the account's deliveries hold, with how many deliveries it has. */
async function pairs(accountId: number) {
  const all = await app.db
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'endpoint_id'])
    .where('account_id', '=', accountId)
    .execute();
  const counted = new Map<string, number>();
  for (const d of all)
    counted.set(`${d.event_id}:${d.endpoint_id}`, (counted.get(`${d.event_id}:${d.endpoint_id}`) ?? 0) + 1);
  return counted;
}

const arrivedAt = (prefix: string) => receiver.received.filter((r) => r.path.startsWith(`/${prefix}/`));

describe('webhook fan-out', () => {
  it('a bulk upsert writes one event per row and no delivery; the worker then delivers each to all 20 endpoints once', async () => {
    const { id, api } = await account();
    await endpoints(id, ENDPOINTS, 'bulk');
    const N = 50;
    const employees = Array.from({ length: N }, (_, i) => ({
      first_name: 'Fan',
      last_name: `Out ${i}`,
      email: `fan.${i}@out.example`,
    }));
    const res = await api.post('/customer/employees/bulk/', { employees });
    expect(res.json().counts.created).toBe(N);
    // What the request's transaction wrote: no worker has run.
    expect(await rows(app.db, id)).toEqual({ events: N, deliveries: 0 });

    expect((await worker().drain()).succeeded).toBe(N * ENDPOINTS);
    expect(await rows(app.db, id)).toEqual({ events: N, deliveries: N * ENDPOINTS });
    const counted = await pairs(id);
    expect(counted.size).toBe(N * ENDPOINTS);
    expect([...counted.values()].every((n) => n === 1)).toBe(true);
    const hooks = arrivedAt('bulk');
    expect(hooks).toHaveLength(N * ENDPOINTS);
    expect(new Set(hooks.map((h) => `${h.path} ${h.headers['webhook-id']}`)).size).toBe(N * ENDPOINTS);
    // Every endpoint got the N events, each with its own webhook-id, the same at every endpoint.
    const ids = (i: number) =>
      hooks.filter((h) => h.path === `/bulk/${i}`).map((h) => h.headers['webhook-id']);
    expect(new Set(ids(0)).size).toBe(N);
    expect(new Set(ids(ENDPOINTS - 1))).toEqual(new Set(ids(0)));
  });

  it('sends to the endpoints enabled and listening at fan-out time, which existed when the event happened', async () => {
    const { id, api } = await account();
    const [, disabled, deleted] = await endpoints(id, 3, 'when');
    await endpoints(id, 1, 'when-filtered', ['group.deleted']);
    await api.post('/customer/groups/', { name: 'Before the changes' });
    await api.request('PATCH', `/customer/webhooks/endpoints/${disabled?.id}/`, { enabled: false });
    await api.request('DELETE', `/customer/webhooks/endpoints/${deleted?.id}/`);
    await endpoints(id, 1, 'when-later');
    await worker().drain();
    expect(arrivedAt('when').map((h) => h.path)).toEqual([`/when/0`]);
    expect(arrivedAt('when-filtered')).toEqual([]);
    expect(arrivedAt('when-later')).toEqual([]);
  });

  it('delivers an endpoint’s events in the order they happened', async () => {
    const { id, api } = await account();
    await endpoints(id, 2, 'order');
    for (const name of ['first', 'second', 'third', 'fourth']) await api.post('/customer/groups/', { name });
    await worker(1).drain();
    const names = (i: number) =>
      arrivedAt('order')
        .filter((h) => h.path === `/order/${i}`)
        .map((h) => JSON.parse(h.body).data.name);
    expect(names(0)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(names(1)).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('lets concurrent workers fan out each event exactly once', async () => {
    const { id } = await account();
    await endpoints(id, 5, 'race');
    const EVENTS = 300;
    await app.db.transaction().execute((trx) =>
      emitWebhookEvents(
        trx,
        id,
        Array.from({ length: EVENTS }, (_, i) => ({ type: 'employee.deleted' as const, data: { id: i } })),
      ),
    );
    // Four workers, each fanning out batch after batch until none is left.
    await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const w = worker();
        while ((await w.fanOutBatch()).events > 0);
      }),
    );
    const counted = await pairs(id);
    expect(counted.size).toBe(EVENTS * 5);
    expect([...counted.values()].filter((n) => n !== 1)).toEqual([]);
  });
});
