import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv } from './helpers/app.js';
import {
  createTestDatabase,
  dialectUnderTest,
  TEST_POSTGRES_URL,
  TEST_REDIS_URL,
} from './helpers/database.js';
import {
  type Answer,
  API,
  bodyOf,
  call,
  countLogs,
  eventually,
  isUnavailable,
  logEntries,
  pollFromThread,
  rawRequest,
  seedLargeAccount,
  show,
  sleep,
} from './helpers/faults.js';
import { RedisServer } from './helpers/redis-server.js';
import {
  cliAccountKey,
  cliKey,
  freePort,
  processMemory,
  runCli,
  type ServerProcess,
  type StartOptions,
  startServer,
  waitUntilReady,
} from './helpers/server-process.js';
import { TcpProxy } from './helpers/tcp-proxy.js';

// The faults of issue 9, reproduced with real processes: the built server, a TCP proxy in
// front of PostgreSQL that is killed or paused, a redis-server of the test's own that is
// frozen or stopped, another process holding SQLite's write lock, 100,000-member groups, and
// requests Node's HTTP parser refuses. Each test asserts what clients and operators must see.

const EMPLOYEES = `${API}/customer/employees/`;
const BUDGET = ['--rate-limit', '1000000'];
const REDIS_DEGRADED = 'redis unavailable: rate limits are per instance until it answers';
const REDIS_BACK = 'redis available again: rate limits are shared';

// Work undone after each test, last first: servers die before their database is dropped.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch {}
  }
});

async function database() {
  const created = await createTestDatabase();
  cleanups.push(() => created.drop());
  return created;
}

async function server(env: NodeJS.ProcessEnv, options?: StartOptions): Promise<ServerProcess> {
  const started = await startServer(env, options);
  cleanups.push(() => started.stop('SIGKILL'));
  return started;
}

/** A proxy in front of the PostgreSQL server under test (not started). */
function proxyToPostgres(port = 0): TcpProxy {
  const target = new URL(TEST_POSTGRES_URL as string);
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) }, port);
  cleanups.push(() => proxy.kill());
  return proxy;
}

/** The same database, reached through the proxy. */
function viaProxy(databaseUrl: string, proxy: TcpProxy): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}

/** A direct connection to the database (not through the proxy), for locks and observation. */
async function directClient(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

/** Waits until some session of the database waits for a lock (a request held by our lock). */
function someoneWaitsForALock(observer: pg.Client): Promise<boolean> {
  return eventually(
    async () => {
      const { rows } = await observer.query(
        `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return rows[0].n > 0;
    },
    10_000,
    20,
  );
}

const person = (tag: string) => ({
  first_name: 'Fault',
  last_name: 'Test',
  email: `${tag}.${randomBytes(4).toString('hex')}@example.com`,
});

/**
 * The process runs and has not begun to shut down (an uncaught error starts a graceful
 * shutdown that may answer for a while before the exit).
 */
function expectAlive(running: ServerProcess, when: string) {
  const state = {
    exitCode: running.child.exitCode,
    signal: running.child.signalCode,
    shuttingDown: logEntries(running.output()).some((e) => String(e.msg).startsWith('shutting down')),
  };
  expect
    .soft(state, `${when}, the server is gone or going:\n${lastLines(running)}`)
    .toEqual({ exitCode: null, signal: null, shuttingDown: false });
}

/** The server's last lines, in short, for the message of a failed assertion. */
function lastLines(running: ServerProcess, count = 6): string {
  const lines = running.output().trim().split('\n').slice(-count);
  return lines
    .map((line) => {
      try {
        const entry = JSON.parse(line);
        return `${entry.level} ${entry.msg}${entry.err ? `: ${entry.err.message}` : ''}`;
      } catch {
        return line.slice(0, 200);
      }
    })
    .join('\n');
}

/** "label status" → how many, e.g. { "create 201": 40, "create 503": 9 }. */
function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[`${a.label} ${a.status}`] = (counts[`${a.label} ${a.status}`] ?? 0) + 1;
  return counts;
}

describe.runIf(dialectUnderTest === 'postgres')('PostgreSQL connection lost', () => {
  const SUCCESS: Record<string, number> = { list: 200, create: 201, readyz: 200 };

  /** ~40 requests/s (a list, a create, a readiness check, in turn) until `during` is over. */
  async function steadyLoad(baseUrl: string, key: string, during: () => Promise<void>): Promise<Answer[]> {
    const answers: Promise<Answer>[] = [];
    let n = 0;
    const timer = setInterval(() => {
      const i = n++;
      if (i % 3 === 0)
        answers.push(call(baseUrl, 'GET', `${EMPLOYEES}?page_size=10`, { key, label: 'list' }));
      else if (i % 3 === 1)
        answers.push(call(baseUrl, 'POST', EMPLOYEES, { key, body: person(`load${i}`), label: 'create' }));
      else answers.push(call(baseUrl, 'GET', '/readyz', { label: 'readyz' }));
    }, 25);
    try {
      await during();
    } finally {
      clearInterval(timer);
    }
    return Promise.all(answers);
  }

  // The mail worker and the scheduler use the pool too: once with them, once API-only.
  it.each(['on', 'off'])(
    'lives through five connection drops under load (WORKERS=%s): 200/201 or 503, never a 500 or a dropped request, then recovers by itself',
    async (workers) => {
      const db = await database();
      const proxy = proxyToPostgres();
      await proxy.start();
      const key = await cliKey(testEnv(db.url), '--grant', 'employees:rw', ...BUDGET);
      const running = await server(testEnv(viaProxy(db.url, proxy), { WORKERS: workers }));

      const answers = await steadyLoad(running.baseUrl, key, async () => {
        for (let cycle = 0; cycle < 5; cycle++) {
          await sleep(400 + cycle * 90); // each drop at a different moment of the traffic
          await proxy.kill();
          await sleep(1000);
          await proxy.start();
        }
        await sleep(800);
      });

      expectAlive(running, 'after the drops');
      const wrong = answers.filter((a) => !(a.status === SUCCESS[a.label] || isUnavailable(a)));
      expect.soft(wrong.map(show), JSON.stringify(tally(answers))).toEqual([]);
      expect(answers.filter(isUnavailable).length, 'the drops were felt').toBeGreaterThan(0);

      await waitUntilReady(running.baseUrl, 20_000, running.child);
      const created = await call(running.baseUrl, 'POST', EMPLOYEES, { key, body: person('after') });
      expect(created.status, show(created)).toBe(201);
      expectAlive(running, 'at the end');
    },
    90_000,
  );

  it('answers 503 to a replacement whose transaction loses its connection, and lives on', async () => {
    const db = await database();
    const direct = testEnv(db.url);
    const { accountId, key } = await cliAccountKey(
      direct,
      '--grant',
      'employees:rw',
      '--grant',
      'groups:rw',
      ...BUDGET,
    );
    const made = await runCli(
      ['group', 'create', '--account', String(accountId), '--name', 'Held', '--json'],
      direct,
    );
    expect(made.code, made.stderr).toBe(0);
    const group = `${API}/customer/groups/${JSON.parse(made.stdout).id}/`;
    const proxy = proxyToPostgres();
    await proxy.start();
    const running = await server(testEnv(viaProxy(db.url, proxy), { WORKERS: 'off' }));
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await call(running.baseUrl, 'POST', EMPLOYEES, { key, body: person('member') });
      ids.push(bodyOf(created)?.id as number);
    }

    // Our lock holds the replacement inside its transaction (at its membership write) while
    // the connection drops.
    const holder = await directClient(db.url);
    const observer = await directClient(db.url);
    await holder.query('begin');
    await holder.query('lock table group_members in exclusive mode');
    const put = call(running.baseUrl, 'PUT', group, { key, body: { employee_ids: ids }, timeoutMs: 20_000 });
    expect(await someoneWaitsForALock(observer), 'the replacement reached its transaction').toBe(true);
    await proxy.kill();
    await holder.query('rollback');
    const answer = await put;
    await sleep(500);

    expectAlive(running, 'after the drop mid-transaction');
    expect.soft(isUnavailable(answer), show(answer)).toBe(true);

    await proxy.start();
    await waitUntilReady(running.baseUrl, 20_000, running.child);
    const unchanged = await call(running.baseUrl, 'GET', group, { key });
    expect(
      bodyOf(unchanged)?.employee_count,
      `the failed replacement changed nothing: ${show(unchanged)}`,
    ).toBe(0);
    const replaced = await call(running.baseUrl, 'PUT', group, { key, body: { employee_ids: ids } });
    expect(replaced.status, show(replaced)).toBe(200);
    expect(bodyOf(replaced)?.employee_count).toBe(3);
    expectAlive(running, 'at the end');
  }, 60_000);

  it('waits for a database unreachable at start, logging why, and serves once it answers', async () => {
    const db = await database();
    const key = await cliKey(testEnv(db.url), '--grant', 'employees:rw', ...BUDGET); // migrates it too
    const proxy = proxyToPostgres(await freePort()); // nothing listens there yet
    const running = await server(testEnv(viaProxy(db.url, proxy)), { waitForReady: false });
    const unavailableLines = () =>
      logEntries(running.output()).filter((e) => String(e.msg).startsWith('database unavailable'));

    await eventually(() => running.child.exitCode !== null || unavailableLines().length > 0, 10_000);
    await sleep(1500); // and still there a moment later
    expectAlive(running, 'while the database is unreachable');
    const lines = unavailableLines();
    expect.soft(lines.length, `no "database unavailable" warning:\n${lastLines(running)}`).toBeGreaterThan(0);
    for (const line of lines) {
      expect.soft(line.level, JSON.stringify(line)).toBe(40);
      expect.soft(JSON.stringify(line), 'the warning says why').toContain('ECONNREFUSED');
    }

    await proxy.start();
    await waitUntilReady(running.baseUrl, 20_000, running.child);
    expect((await call(running.baseUrl, 'GET', EMPLOYEES, { key })).status).toBe(200);
    const created = await call(running.baseUrl, 'POST', EMPLOYEES, { key, body: person('late') });
    expect(created.status, show(created)).toBe(201);
    expectAlive(running, 'at the end');
  }, 60_000);
});

describe('Redis frozen or stopped', () => {
  const readyWith = (redis: 'ok' | 'unavailable') => ({
    status: redis === 'ok' ? 'ok' : 'degraded',
    checks: { database: 'ok', redis },
  });

  /**
   * For `ms`: a list every 250 ms (to each instance in turn) and a readiness check of each
   * instance every second. Answers the requests, still running; each records its own duration.
   */
  async function traffic(instances: ServerProcess[], key: string, ms: number): Promise<Promise<Answer>[]> {
    const answers: Promise<Answer>[] = [];
    const until = Date.now() + ms;
    for (let i = 0; Date.now() < until; i++) {
      const instance = instances[i % instances.length] as ServerProcess;
      answers.push(call(instance.baseUrl, 'GET', EMPLOYEES, { key, label: 'list', timeoutMs: 20_000 }));
      if (i % 4 === 0) {
        for (const s of instances)
          answers.push(call(s.baseUrl, 'GET', '/readyz', { label: 'readyz', timeoutMs: 20_000 }));
      }
      await sleep(250);
    }
    return answers;
  }

  /** Lists: 200 with the RateLimit headers within 1 s; readiness: 200 degraded within 1.5 s. */
  function expectServedWithoutRedis(answers: Answer[], phase: string) {
    const lists = answers.filter((a) => a.label === 'list');
    const slowOrWrong = lists.filter(
      (a) =>
        !(
          a.status === 200 &&
          a.ms < 1000 &&
          ['limit', 'remaining', 'reset'].every((h) => a.headers?.has(`ratelimit-${h}`))
        ),
    );
    expect
      .soft(slowOrWrong.map(show), `${phase}: lists answered 200 with RateLimit-* within 1 s`)
      .toEqual([]);
    const checks = answers.filter((a) => a.label === 'readyz');
    const wrongChecks = checks.filter(
      (a) => !(a.status === 200 && a.ms < 1500 && isDeepStrictEqual(bodyOf(a), readyWith('unavailable'))),
    );
    expect.soft(wrongChecks.map(show), `${phase}: /readyz said degraded within 1.5 s`).toEqual([]);
  }

  async function everyInstanceReady(instances: ServerProcess[], redis: 'ok' | 'unavailable') {
    const answers = await Promise.all(
      instances.map((s) => call(s.baseUrl, 'GET', '/readyz', { timeoutMs: 2000 })),
    );
    return answers.every((a) => a.status === 200 && isDeepStrictEqual(bodyOf(a), readyWith(redis)));
  }

  const logCounts = (instances: ServerProcess[], msg: string) =>
    instances.map((s) => countLogs(s.output(), msg));

  it('keeps answering on per-instance budgets, says so once per change, and shares the budget again when Redis answers', async () => {
    const redis = await RedisServer.start();
    cleanups.push(() => redis.stop());
    const db = await database();
    const env = testEnv(db.url, { REDIS_URL: redis.url }); // one Redis and one prefix for both instances
    const key = await cliKey(env, '--grant', 'employees:r', ...BUDGET);
    const instances = await Promise.all([server(env), server(env)]);
    expect.soft(await everyInstanceReady(instances, 'ok'), '/readyz reports Redis ok').toBe(true);

    // Frozen (SIGSTOP): connections stay open and nothing answers.
    redis.freeze();
    const frozen = await traffic(instances, key, 8000);
    await eventually(() => logCounts(instances, REDIS_DEGRADED).every((n) => n >= 1), 2000);
    const degradedWhileFrozen = logCounts(instances, REDIS_DEGRADED);
    redis.thaw();
    expectServedWithoutRedis(await Promise.all(frozen), 'Redis frozen');
    expect.soft(degradedWhileFrozen, `one "${REDIS_DEGRADED}" per instance`).toEqual([1, 1]);
    expect
      .soft(
        await eventually(() => everyInstanceReady(instances, 'ok'), 10_000, 200),
        'ok again after SIGCONT',
      )
      .toBe(true);
    await eventually(() => logCounts(instances, REDIS_BACK).every((n) => n >= 1), 3000);
    expect.soft(logCounts(instances, REDIS_BACK), `one "${REDIS_BACK}" per instance`).toEqual([1, 1]);

    // Stopped: connections refused until it is started again on the same port.
    await redis.stop();
    expectServedWithoutRedis(await Promise.all(await traffic(instances, key, 4000)), 'Redis stopped');
    expect.soft(logCounts(instances, REDIS_DEGRADED), 'one more degraded line per instance').toEqual([2, 2]);
    await redis.restart();
    expect
      .soft(
        await eventually(() => everyInstanceReady(instances, 'ok'), 10_000, 200),
        'ok again after restart',
      )
      .toBe(true);
    await eventually(() => logCounts(instances, REDIS_BACK).every((n) => n >= 2), 3000);
    expect.soft(logCounts(instances, REDIS_BACK), 'one more recovery line per instance').toEqual([2, 2]);

    // Shared again: a fresh key (a fresh window) of 10 a minute, 12 requests over both instances.
    const fresh = await cliKey(env, '--grant', 'employees:r', '--rate-limit', '10');
    const answers = await Promise.all(
      instances.flatMap((s) =>
        Array.from({ length: 6 }, () => call(s.baseUrl, 'GET', EMPLOYEES, { key: fresh })),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(200), 429, 429]);
  }, 120_000);
});

describe.runIf(dialectUnderTest === 'postgres')('PostgreSQL frozen', () => {
  const databaseCheck = (a: Answer) =>
    (bodyOf(a)?.details as { checks?: { database?: string } } | undefined)?.checks?.database;

  it('answers 503 within DB_WAIT_SECONDS + DB_STATEMENT_TIMEOUT_SECONDS, readiness within 1.5 s, and recovers by itself', async () => {
    const waitSeconds = 1;
    const statementSeconds = 2;
    const bound = (waitSeconds + statementSeconds) * 1000 + 1500;
    const db = await database();
    const key = await cliKey(testEnv(db.url), '--grant', 'employees:rw', ...BUDGET);
    const proxy = proxyToPostgres();
    await proxy.start();
    const running = await server(
      testEnv(viaProxy(db.url, proxy), {
        DB_WAIT_SECONDS: String(waitSeconds),
        DB_STATEMENT_TIMEOUT_SECONDS: String(statementSeconds),
      }),
    );
    expect((await call(running.baseUrl, 'GET', EMPLOYEES, { key })).status).toBe(200);

    // A create held at its insert by our lock is in flight when the database freezes; the
    // lock goes at once, so the database finishes it but its answer stays in the frozen network.
    const holder = await directClient(db.url);
    const observer = await directClient(db.url);
    await holder.query('begin');
    await holder.query('lock table employees in exclusive mode');
    const inFlight = call(running.baseUrl, 'POST', EMPLOYEES, {
      key,
      body: person('inflight'),
      label: 'in flight',
      timeoutMs: 40_000,
    });
    expect(await someoneWaitsForALock(observer), 'the create reached the database').toBe(true);
    proxy.pause();
    await holder.query('rollback');

    // 15 s frozen: a list, a create and a readiness check every second; API requests stop
    // early enough that their bound ends before the database returns.
    const answers: Promise<Answer>[] = [];
    for (let second = 0; second < 15; second++) {
      answers.push(call(running.baseUrl, 'GET', '/readyz', { label: 'readyz', timeoutMs: 40_000 }));
      if (second * 1000 + bound < 14_500) {
        answers.push(call(running.baseUrl, 'GET', EMPLOYEES, { key, label: 'list', timeoutMs: 40_000 }));
        answers.push(
          call(running.baseUrl, 'POST', EMPLOYEES, {
            key,
            body: person('frozen'),
            label: 'create',
            timeoutMs: 40_000,
          }),
        );
      }
      await sleep(1000);
    }
    proxy.resume();
    const [held, ...others] = await Promise.all([inFlight, ...answers]);

    expectAlive(running, 'after the freeze');
    const requests = [held as Answer, ...others.filter((a) => a.label !== 'readyz')];
    const late = requests.filter((a) => !(isUnavailable(a) && a.ms <= bound));
    expect.soft(late.map(show), `every request: 503 within ${bound} ms`).toEqual([]);
    const checks = others.filter((a) => a.label === 'readyz');
    const slowChecks = checks.filter(
      (a) => !(isUnavailable(a) && a.ms < 1500 && databaseCheck(a) === 'unavailable'),
    );
    expect.soft(slowChecks.map(show), '/readyz: 503 database unavailable within 1.5 s').toEqual([]);

    await waitUntilReady(running.baseUrl, 20_000, running.child);
    const ready = await call(running.baseUrl, 'GET', '/readyz');
    expect(bodyOf(ready)).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: TEST_REDIS_URL ? 'ok' : 'off' },
    });
    const created = await call(running.baseUrl, 'POST', EMPLOYEES, { key, body: person('thawed') });
    expect(created.status, show(created)).toBe(201);
    expectAlive(running, 'at the end');
  }, 90_000);
});

describe.runIf(dialectUnderTest === 'sqlite')('SQLite write lock held by another process', () => {
  it('answers 503 to a write within DB_WAIT_SECONDS + 1.5 s while health and reads answer at once, then writes again', async () => {
    const waitSeconds = 1;
    const db = await database();
    const env = testEnv(db.url, { DB_WAIT_SECONDS: String(waitSeconds) });
    const key = await cliKey(env, '--grant', 'employees:rw', ...BUDGET);
    const running = await server(env);
    expect((await call(running.baseUrl, 'GET', EMPLOYEES, { key })).status).toBe(200);

    const holder = new SQLite(db.url.slice('sqlite:'.length));
    cleanups.push(() => holder.close());
    holder.exec('BEGIN EXCLUSIVE');
    const write = call(running.baseUrl, 'POST', EMPLOYEES, {
      key,
      body: person('locked'),
      timeoutMs: 20_000,
    });
    await sleep(200);
    const [health, read] = await Promise.all([
      call(running.baseUrl, 'GET', '/healthz'),
      call(running.baseUrl, 'GET', EMPLOYEES, { key }),
    ]);
    const written = await write;
    holder.exec('ROLLBACK');

    expect.soft(isUnavailable(written) && written.ms <= waitSeconds * 1000 + 1500, show(written)).toBe(true);
    expect.soft(health.status === 200 && health.ms < 500, show(health)).toBe(true);
    expect.soft(read.status === 200 && read.ms < 500, show(read)).toBe(true);

    const created = await call(running.baseUrl, 'POST', EMPLOYEES, { key, body: person('unlocked') });
    expect(created.status, show(created)).toBe(201);
    const ready = await call(running.baseUrl, 'GET', '/readyz');
    expect(bodyOf(ready)).toEqual({
      status: 'ok',
      checks: { database: 'ok', redis: TEST_REDIS_URL ? 'ok' : 'off' },
    });
  }, 60_000);
});

describe('large answers', () => {
  const SIZE = 100_000;

  function shuffled(ids: number[]): number[] {
    const copy = [...ids];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as number, copy[i] as number];
    }
    return copy;
  }

  /** The group detail holds every employee, once each, ordered by id. */
  function expectWholeGroup(answer: Answer, employeeIds: number[]) {
    expect(answer.status, show(answer)).toBe(200);
    const group = JSON.parse(answer.text) as { employee_count: number; employees: { id: number }[] };
    expect(group.employee_count).toBe(SIZE);
    expect(group.employees).toHaveLength(SIZE);
    const misplaced = group.employees.filter((e, i) => e.id !== employeeIds[i]).length;
    expect(misplaced, 'members out of order or wrong').toBe(0);
  }

  it('replaces and reads 100,000-member groups without stalling other clients or passing 300 MiB', async () => {
    const db = await database();
    const seeded = await seedLargeAccount(db.url, SIZE, 4);
    const running = await server(testEnv(db.url));
    const bodies = seeded.groupIds.map(() => JSON.stringify({ employee_ids: shuffled(seeded.employeeIds) }));
    const group = (id: number) => `${API}/customer/groups/${id}/`;

    const putPoller = pollFromThread(`${running.baseUrl}/healthz`, 25);
    const puts = await Promise.all(
      seeded.groupIds.map((id, i) =>
        call(running.baseUrl, 'PUT', group(id), { key: seeded.key, body: bodies[i], timeoutMs: 120_000 }),
      ),
    );
    const putWaits = await putPoller.stop();
    const afterPuts = processMemory(running.pid);
    for (const put of puts) expectWholeGroup(put, seeded.employeeIds);
    expect
      .soft(Math.round(Math.max(...putWaits)), 'longest /healthz wait during four PUTs (ms)')
      .toBeLessThan(500);
    expect.soft(Math.round(afterPuts.peakMiB), 'peak RSS after four PUTs (MiB)').toBeLessThanOrEqual(300);

    const gets = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(running.baseUrl, 'GET', group(seeded.groupIds[0] as number), {
          key: seeded.key,
          timeoutMs: 120_000,
        }),
      ),
    );
    const afterGets = processMemory(running.pid);
    for (const get of gets) expectWholeGroup(get, seeded.employeeIds);
    console.log(
      `[large answers] ${dialectUnderTest}: peak RSS ${Math.round(afterPuts.peakMiB)} MiB after four PUTs, ${Math.round(afterGets.peakMiB)} MiB after ten GETs`,
    );
    expect.soft(Math.round(afterGets.peakMiB), 'peak RSS after ten GETs (MiB)').toBeLessThanOrEqual(300);
  }, 180_000);
});

describe('parser-level errors', () => {
  it("answer 431, 400 and 408 in the contract's shape with the version header, and the server serves on", async () => {
    const db = await database();
    const running = await server(testEnv(db.url, { REQUEST_TIMEOUT_SECONDS: '1' }));
    const port = Number(new URL(running.baseUrl).port);
    const cases = [
      {
        what: 'a header block over 16 KiB',
        payload: `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
        status: 431,
        error: 'Request header fields too large',
        code: 'header_fields_too_large',
      },
      {
        what: 'a request line that is not HTTP',
        payload: 'GARBAGE\r\n\r\n',
        status: 400,
        error: 'Bad request',
        code: 'bad_request',
      },
      {
        // REQUEST_TIMEOUT_SECONDS=1; the answer may take a few seconds more, not Node's default minute.
        what: 'headers that never finish',
        payload: 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n',
        status: 408,
        error: 'Request timeout',
        code: 'request_timeout',
      },
    ];
    for (const { what, payload, status, error, code } of cases) {
      const answer = await rawRequest(port, payload, 5000);
      let body: unknown = answer?.body;
      try {
        body = JSON.parse(answer?.body ?? '');
      } catch {}
      expect
        .soft(
          answer && {
            status: answer.status,
            version: answer.headers['x-api-version'],
            type: answer.headers['content-type'],
            body,
          },
          what,
        )
        .toEqual({
          status,
          version: '2.2.0',
          type: 'application/json; charset=utf-8',
          body: { error, status, code, request_id: answer?.headers['x-request-id'] },
        });
      const health = await call(running.baseUrl, 'GET', '/healthz');
      expect(health.status, `still serving after ${what}`).toBe(200);
    }
  }, 30_000);
});
