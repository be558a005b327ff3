import { once } from 'node:events';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, testEnv } from './helpers/app.js';
import {
  createTestDatabase,
  dialectUnderTest,
  TEST_POSTGRES_URL,
  TEST_REDIS_URL,
} from './helpers/database.js';
import { coded } from './helpers/errors.js';
import { client, makeKey } from './helpers/factories.js';
import {
  cliAccountKey,
  cliKey,
  runCli,
  type ServerProcess,
  startServer,
  waitUntilReady,
} from './helpers/server-process.js';
import { TcpProxy } from './helpers/tcp-proxy.js';

// What operators rely on: logs that identify requests and never hold a secret, one rate
// budget across instances, and 503 (not 500) while the database is away, recovering by itself.

const API = '/api/api_gateway';
const UNAVAILABLE = { error: 'Service unavailable', status: 503, ...coded('service_unavailable') };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every line is a JSON object and none holds the secret part of any of the keys. */
function expectCleanLogLines(lines: string[], keys: string[]) {
  for (const line of lines) {
    expect(() => JSON.parse(line), line).not.toThrow();
    for (const key of keys) expect(line).not.toContain(key.slice('vgl_'.length + 8));
  }
}

/** Stops a server with SIGTERM and returns its exit code once all its output has arrived. */
async function stopGracefully(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.child.exitCode;
  const closed = once(server.child, 'close');
  server.child.kill('SIGTERM');
  const [code] = await closed;
  return code as number | null;
}

/** Stops the server and checks everything it wrote: JSON lines, no secret. */
async function expectCleanServerOutput(server: ServerProcess, keys: string[]) {
  expect(await stopGracefully(server)).toBe(0);
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  expect(lines.some((line) => line.includes('"msg":"shutting down"'))).toBe(true);
  expectCleanLogLines(lines, keys);
}

const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
});

async function server(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const started = await startServer(env);
  servers.push(started);
  return started;
}

function get(baseUrl: string, path: string, key?: string): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { headers: key ? { apikey: key } : {} });
}

// Every other kind of secret, through a real server process: test/log-secrets.test.ts.
describe('logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });

  /** Waits (bounded) until `count` requests have their completion line after log line `from`. */
  async function completedLines(from: number, count: number): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const lines = t.logs.slice(from).flatMap((chunk) => chunk.split('\n').filter(Boolean));
      if (lines.filter((l) => l.includes('"request completed"')).length >= count) return lines;
      if (Date.now() > deadline)
        throw new Error(`expected ${count} request lines, got:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('never write an API key, wherever the client put it, and tie every line to its request', async () => {
    const { accountId, key } = await makeKey(t.app, { grants: ['employees:rw'] });
    const limited = await makeKey(t.app, { accountId, rateLimit: 1 });
    const unknown = `vgl_${'Z'.repeat(20)}${key.slice(-20)}`;
    const keys = [key, limited.key, unknown];
    const from = t.logs.length;
    const api = client(t.app, key);
    const responses = [
      await api.get('/customer/employees/'),
      await api.post('/customer/employees/', {
        first_name: 'Log',
        last_name: 'Line',
        email: 'log@example.com',
      }),
      await api.post('/customer/employees/', {
        first_name: 'Log',
        last_name: 'Line',
        email: 'log@example.com',
      }),
      await api.post('/customer/employees/', '{"first_name":', {}),
      await api.post('/customer/employees/', 'x', { 'content-type': 'text/plain' }),
      await api.get('/customer/groups/'), // 403
      await api.get('/customer/nothing-here/'),
      await api.get(`/customer/employees/${key}/`),
      await client(t.app, unknown).get('/customer/employees/'), // 401
      await client(t.app, `Bearer ${key}`).get('/customer/employees/'), // 401
      await client(t.app, limited.key).get('/customer/employees/'),
      await client(t.app, limited.key).get('/customer/employees/'), // 429
      ...(await Promise.all(
        [
          `?apiKey=${key}`,
          `?page=1&apikey=${key}`,
          `?api_key=${key}`,
          `?key=${key}&page_size=5`,
          `?email=${key}`,
          `?${key}`,
          `?token=${encodeURIComponent(`"${key}"`)}`,
        ].map((query) => t.app.inject({ method: 'GET', url: `${API}/customer/employees/${query}` })),
      )),
      await t.app.inject({ method: 'GET', url: `${API}/customer/employees/%E0%A4%A/?apiKey=${key}` }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([
      200, 201, 409, 400, 415, 403, 404, 404, 401, 401, 200, 429, 401, 401, 401, 401, 401, 401, 401, 400,
    ]);

    // The router refuses an undecodable URL before any hook runs, so that one has no completion line.
    const routed = responses.slice(0, -1).map((r) => r.headers['x-request-id']);
    const lines = await completedLines(from, routed.length);
    expectCleanLogLines(lines, keys);
    const entries = lines.map((line) => JSON.parse(line));
    for (const entry of entries) expect(entry.reqId, JSON.stringify(entry)).toEqual(expect.any(String));
    const logged = entries.filter((e) => e.msg === 'request completed').map((e) => e.reqId);
    expect(logged).toEqual(expect.arrayContaining(routed));
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of logged) expect(ids).toContain(id);
  });

  it('echo a sane client X-Request-Id and replace any other', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const from = t.logs.length;
    const given = await api.get('/customer/employees/', { 'x-request-id': 'trace-42.a:b_C' });
    expect(given.headers['x-request-id']).toBe('trace-42.a:b_C');
    for (const insane of ['has space', 'x'.repeat(129), '{"level":60}', '']) {
      const res = await api.get('/customer/employees/', { 'x-request-id': insane });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    const fresh = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(fresh.headers['x-request-id']).toMatch(UUID);
    const lines = await completedLines(from, 5); // health checks log only warnings
    expect(lines.some((l) => JSON.parse(l).reqId === 'trace-42.a:b_C')).toBe(true);
    expect(lines.join('\n')).not.toContain('has space');
  });
});

describe('rate limits of a server of several processes (WEB_CONCURRENCY=2)', () => {
  it('are one budget for the instance without Redis, counted by its primary', async () => {
    const testDb = await createTestDatabase();
    try {
      const env = testEnv(testDb.url, { WEB_CONCURRENCY: '2', REDIS_URL: '', WORKERS: 'off' });
      const key = await cliKey(env, '--grant', 'campaigns:r', '--rate-limit', '10');
      const running = await server(env);
      // Each request on a connection of its own: the primary hands connections to both workers.
      const answers = await Promise.all(
        Array.from({ length: 24 }, () =>
          fetch(`${running.baseUrl}${API}/customer/campaigns/training/`, {
            headers: { apikey: key, connection: 'close' },
          }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(14);
      for (const res of answers) expect(res.headers.get('ratelimit-limit')).toBe('10');
      const remaining = answers
        .filter((r) => r.status === 200)
        .map((r) => Number(r.headers.get('ratelimit-remaining')))
        .sort((a, b) => a - b);
      expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      await expectCleanServerOutput(running, [key]);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
      await testDb.drop();
    }
  });
});

describe('the groups list of a server of several processes (WEB_CONCURRENCY=2)', () => {
  it("is never an earlier answer: each worker's cache sees a change made through the other", async () => {
    const testDb = await createTestDatabase();
    try {
      const env = testEnv(testDb.url, { WEB_CONCURRENCY: '2', REDIS_URL: '', WORKERS: 'off' });
      const { accountId, key } = await cliAccountKey(env, '--grant', 'groups:rw', '--grant', 'employees:rw');
      const made = await runCli(
        ['group', 'create', '--account', String(accountId), '--name', 'Ops', '--json'],
        env,
      );
      expect(made.code, made.stderr).toBe(0);
      const groupId = JSON.parse(made.stdout).id as number;
      const running = await server(env);
      // Each request on a connection of its own: the primary hands connections to both workers.
      const send = (method: string, path: string, body?: unknown) =>
        fetch(`${running.baseUrl}${API}${path}`, {
          method,
          headers: { apikey: key, connection: 'close', 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const counts = async () =>
        Promise.all(
          Array.from({ length: 8 }, async () => {
            const res = await send('GET', '/customer/groups/');
            expect(res.status).toBe(200);
            const page = (await res.json()) as { results: Array<{ id: number; employee_count: number }> };
            return page.results.find((g) => g.id === groupId)?.employee_count;
          }),
        );
      expect(await counts()).toEqual(Array(8).fill(0)); // both workers now hold the answer
      for (let round = 1; round <= 3; round++) {
        const ids: number[] = [];
        for (let i = 0; i < round; i++) {
          const res = await send('POST', '/customer/employees/', {
            email: `p${round}-${i}@example.com`,
            first_name: 'P',
            last_name: String(round),
          });
          expect(res.status).toBe(201);
          ids.push(((await res.json()) as { id: number }).id);
        }
        const put = await send('PUT', `/customer/groups/${groupId}/`, { employee_ids: ids });
        expect(put.status).toBe(200);
        expect(await counts(), `after round ${round}`).toEqual(Array(8).fill(round));
      }
      await expectCleanServerOutput(running, [key]);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
      await testDb.drop();
    }
  });
});

describe.skipIf(!TEST_REDIS_URL)('rate limits with a shared Redis', () => {
  it('are one budget across two server instances', async () => {
    const testDb = await createTestDatabase();
    try {
      // One REDIS_URL and one RATE_LIMIT_PREFIX for both; a deadline a busy CI machine always meets
      // (this test is about sharing; test/faults.test.ts is about a Redis that does not answer).
      const env = testEnv(testDb.url, { REDIS_TIMEOUT_MS: '2000' });
      const key = await cliKey(env, '--grant', 'campaigns:r', '--rate-limit', '10');
      const [a, b] = await Promise.all([server(env), server(env)]);
      const answers = await Promise.all(
        [a!, b!].flatMap((s) =>
          Array.from({ length: 6 }, () => get(s.baseUrl, `${API}/customer/campaigns/training/`, key)),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      for (const res of answers) expect(res.headers.get('ratelimit-limit')).toBe('10');
      for (const res of answers.filter((r) => r.status === 429)) {
        expect(await res.json()).toEqual({
          error: 'Rate limit exceeded',
          status: 429,
          ...coded('rate_limited'),
        });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      for (const s of [a!, b!]) await expectCleanServerOutput(s, [key]);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
      await testDb.drop();
    }
  });
});

describe.runIf(dialectUnderTest === 'postgres')('PostgreSQL unreachable', () => {
  let proxy: TcpProxy;
  afterAll(async () => {
    await proxy?.kill();
  });

  it('answers 503 while the database is away and recovers by itself when it returns', async () => {
    const testDb = await createTestDatabase();
    const pgUrl = new URL(TEST_POSTGRES_URL!);
    proxy = new TcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    await proxy.start();
    try {
      const viaProxy = new URL(testDb.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const env = testEnv(viaProxy.toString());
      const running = await server(env);
      const key = await cliKey(testEnv(testDb.url), '--grant', 'employees:rw');
      const employees = `${API}/customer/employees/`;
      expect((await get(running.baseUrl, employees, key)).status).toBe(200);

      await proxy.kill();
      for (let i = 0; i < 3; i++) {
        for (const res of [
          await get(running.baseUrl, '/readyz'),
          await get(running.baseUrl, employees, key),
        ]) {
          expect(res.status).toBe(503);
          expect(res.headers.get('x-api-version')).toBe('2.2.0');
          expect(await res.json()).toMatchObject(UNAVAILABLE);
        }
      }
      const write = await fetch(`${running.baseUrl}${employees}`, {
        method: 'POST',
        headers: { apikey: key, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Away', last_name: 'Db', email: 'away@example.com' }),
      });
      expect(write.status).toBe(503);
      expect(await write.json()).toEqual(UNAVAILABLE);
      expect((await get(running.baseUrl, '/healthz')).status).toBe(200);

      await proxy.start(); // same port
      await waitUntilReady(running.baseUrl);
      expect((await get(running.baseUrl, employees, key)).status).toBe(200);
      const rewrite = await fetch(`${running.baseUrl}${employees}`, {
        method: 'POST',
        headers: { apikey: key, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Back', last_name: 'Db', email: 'back@example.com' }),
      });
      expect(rewrite.status).toBe(201);
      expect(running.child.exitCode).toBeNull(); // the same process, never restarted
      await expectCleanServerOutput(running, [key]);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
      await testDb.drop();
    }
  });
});

describe.runIf(dialectUnderTest === 'sqlite')('SQLite locked by another process', () => {
  // An embedded database cannot become unreachable over a network; the honest equivalent is
  // another process holding the write lock for longer than the server's busy timeout (5 s).
  // Readers are not blocked in WAL mode, so reads (and /readyz) keep answering meanwhile.
  it('answers 503 to a write it cannot make in time and writes again once the lock is gone', async () => {
    const testDb = await createTestDatabase();
    const env = testEnv(testDb.url);
    const running = await server(env);
    const key = await cliKey(env, '--grant', 'employees:rw');
    const create = (email: string) =>
      fetch(`${running.baseUrl}${API}/customer/employees/`, {
        method: 'POST',
        headers: { apikey: key, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Locked', last_name: 'Out', email }),
      });
    const holder = new SQLite(testDb.url.slice('sqlite:'.length));
    try {
      holder.exec('BEGIN EXCLUSIVE');
      const refused = await create('locked@example.com');
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual(UNAVAILABLE);
      holder.exec('ROLLBACK');

      const accepted = await create('unlocked@example.com');
      expect(accepted.status).toBe(201);
      const list = await get(running.baseUrl, `${API}/customer/employees/`, key);
      const page = (await list.json()) as { results: { email: string }[] };
      expect(page.results.map((e) => e.email)).toEqual(['unlocked@example.com']);
      await expectCleanServerOutput(running, [key]);
    } finally {
      holder.close();
      await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
      await testDb.drop();
    }
  });
});
