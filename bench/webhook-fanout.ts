import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseGrants } from '../src/core/auth/permissions.js';
import { type Db, type Dialect, openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import { createKey, MAX_RATE_LIMIT } from '../src/modules/access/keys/keys.service.js';
import { type BenchServer, cpuMsOf, startProcess, TMP } from './processes.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL } from './seed.js';

/**
 * What a bulk upsert costs an account with many webhook endpoints (issue 19, item 5), against
 * the built server (dist/server.js) as its own process:
 *
 *   npm run build && node --import tsx bench/webhook-fanout.ts [--db sqlite|postgres|both]
 *     [--rows 10000] [--endpoints 20] [--legacy]
 *
 * 1. The write: the server runs without background work (WORKERS=off), the account has
 *    `--endpoints` endpoints listening to every event; one `POST /customer/employees/bulk/` of
 *    `--rows` new people. Measured: its duration, the worst delay of a `GET /healthz` sent every
 *    50 ms meanwhile (the event loop held), the server's CPU time, and the event and delivery
 *    rows the request wrote (counted before and after: nothing else writes).
 * 2. The background: the server started again with its workers; until every event has its
 *    deliveries (events × endpoints), the same /healthz poller and one employee created every
 *    250 ms (an API write waiting for the database). Measured: how long, the worst delays.
 *
 * `--legacy` runs it against code from before the fan-out (WEBHOOKS_ALLOW_PRIVATE_NETWORKS=on
 * lets the receiver on 127.0.0.1 be reached there). Deliveries go to a real receiver on
 * 127.0.0.1 answering 200 at once. Prints a Markdown table.
 */

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '10000' },
    endpoints: { type: 'string', default: '20' },
    legacy: { type: 'boolean', default: false },
  },
});
const ROWS = Number(args.rows);
const ENDPOINTS = Number(args.endpoints);
const API = '/api/api_gateway/customer';
const postgresUrl = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const dialects: Dialect[] = args.db === 'both' ? ['sqlite', 'postgres'] : [args.db as Dialect];
const say = (message: string) => console.error(`[bench:fanout] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `request` every `everyMs` until stopped; keeps each one's latency. */
function poller(request: () => Promise<Response>, everyMs: number) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      const res = await request();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`poller: ${res.status}`);
      latencies.push(performance.now() - start);
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        count: sorted.length,
        worst: sorted.at(-1) ?? 0,
        p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
      };
    },
  };
}

async function rowCounts(db: Db) {
  const count = async (table: 'webhook_events' | 'webhook_deliveries') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { events: await count('webhook_events'), deliveries: await count('webhook_deliveries') };
}

interface Result {
  dialect: Dialect;
  writeMs: number;
  writeCpuMs: number;
  writeHealthWorst: number;
  events: number;
  deliveries: number;
  backgroundMs: number;
  backgroundCpuMs: number;
  backgroundHealthWorst: number;
  backgroundHealthP50: number;
  apiWriteWorst: number;
  apiWriteP50: number;
}

async function measure(dialect: Dialect): Promise<Result> {
  const created = await createBenchDatabase(dialect, postgresUrl);
  const database = openDatabase(created.url);
  const db = database.db;
  const received = { count: 0 };
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.count++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const servers: BenchServer[] = [];
  try {
    await migrateToLatest(db);
    const account = await createAccount(db, { name: 'Fan-out benchmark' });
    const { key } = await createKey(db, {
      accountId: account.id,
      name: 'bench',
      permissions: parseGrants(['employees:rw']),
      rateLimit: MAX_RATE_LIMIT,
      expiresAt: null,
    });
    const env = {
      DATABASE_URL: created.url,
      LOG_LEVEL: 'warn',
      WEBHOOKS_ALLOW_HTTP: 'on',
      SCHEDULER_INTERVAL_SECONDS: '3600',
      ...(args.legacy
        ? { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'on' }
        : { WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32' }),
    };
    mkdirSync(TMP, { recursive: true });
    const start = async (workers: 'on' | 'off') => {
      const server = await startProcess({
        args: ['dist/server.js'],
        env: { ...env, WORKERS: workers },
        readyPath: '/healthz',
        logFile: join(TMP, `fanout-${dialect}-${workers}.log`),
      });
      servers.push(server);
      return server;
    };
    const headers = { apikey: key, 'content-type': 'application/json' };
    const post = (server: BenchServer, path: string, body: unknown) =>
      fetch(`${server.baseUrl}${API}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    // 1. The write.
    const api = await start('off');
    for (let i = 0; i < ENDPOINTS; i++) {
      const res = await post(api, '/webhooks/endpoints/', { url: `${receiverUrl}/hook-${i}` });
      if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${await res.text()}`);
    }
    const person = (prefix: string, i: number) => ({
      first_name: 'Fan',
      last_name: `Out ${i}`,
      email: `${prefix}.${i}@fanout.example.com`,
    });
    // Warm-up: the same request, small.
    await (
      await post(api, '/employees/bulk/', { employees: [0, 1, 2].map((i) => person('warm', i)) })
    ).text();
    const before = await rowCounts(db);
    const cpuBefore = cpuMsOf(api.pid);
    const health = poller(() => fetch(`${api.baseUrl}/healthz`), 50);
    const began = performance.now();
    const res = await post(api, '/employees/bulk/', {
      employees: Array.from({ length: ROWS }, (_, i) => person('bulk', i)),
    });
    const body = (await res.json()) as { counts: { created: number } };
    const writeMs = performance.now() - began;
    const writeHealth = await health.stop();
    const writeCpuMs = cpuMsOf(api.pid) - cpuBefore;
    if (res.status !== 200 || body.counts.created !== ROWS) throw new Error(`bulk: ${res.status}`);
    const after = await rowCounts(db);
    say(
      `${dialect}: the write took ${writeMs.toFixed(0)} ms (worst /healthz ${writeHealth.worst.toFixed(0)} ms)`,
    );
    await api.stop();

    // 2. The background work, until every event has its deliveries.
    const worker = await start('on');
    const cpuWorker = cpuMsOf(worker.pid);
    const started = performance.now();
    const health2 = poller(() => fetch(`${worker.baseUrl}/healthz`), 50);
    let n = 0;
    const writes = poller(() => post(worker, '/employees/', person('during', n++)), 250);
    for (;;) {
      const counts = await rowCounts(db);
      if (counts.deliveries >= counts.events * ENDPOINTS) break;
      if (performance.now() - started > 900_000) throw new Error(`not fanned out: ${JSON.stringify(counts)}`);
      await sleep(100);
    }
    const backgroundMs = performance.now() - started;
    const backgroundCpuMs = cpuMsOf(worker.pid) - cpuWorker;
    const [h2, w2] = [await health2.stop(), await writes.stop()];
    say(
      `${dialect}: every event had its deliveries after ${backgroundMs.toFixed(0)} ms (${received.count} sent)`,
    );
    return {
      dialect,
      writeMs,
      writeCpuMs,
      writeHealthWorst: writeHealth.worst,
      events: after.events - before.events,
      deliveries: after.deliveries - before.deliveries,
      backgroundMs,
      backgroundCpuMs,
      backgroundHealthWorst: h2.worst,
      backgroundHealthP50: h2.p50,
      apiWriteWorst: w2.worst,
      apiWriteP50: w2.p50,
    };
  } finally {
    for (const server of servers) await server.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database.close();
    await created.drop();
  }
}

const results: Result[] = [];
for (const dialect of dialects) results.push(await measure(dialect));
const ms = (n: number) => Math.round(n).toLocaleString('en');
console.log(
  [
    `| code | database | bulk ms | server CPU ms | worst /healthz ms (write) | rows in the transaction | until every delivery exists, ms | server CPU ms | worst /healthz ms (p50) | API write worst ms (p50) |`,
    '|---|---|---:|---:|---:|---|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${args.legacy ? 'before' : 'after'} | ${r.dialect} | ${ms(r.writeMs)} | ${ms(r.writeCpuMs)} | ${ms(r.writeHealthWorst)} | ${r.events.toLocaleString('en')} events, ${r.deliveries.toLocaleString('en')} deliveries | ${ms(r.backgroundMs)} | ${ms(r.backgroundCpuMs)} | ${ms(r.backgroundHealthWorst)} (${ms(r.backgroundHealthP50)}) | ${ms(r.apiWriteWorst)} (${ms(r.apiWriteP50)}) |`,
    ),
  ].join('\n'),
);
