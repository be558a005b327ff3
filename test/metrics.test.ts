import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/core/db/database.js';
import { createAccount } from '../src/modules/access/accounts/accounts.service.js';
import { createKey } from '../src/modules/access/keys/keys.service.js';
import { createEmployee } from '../src/modules/directory/employees/employees.service.js';
import { replaceMembership } from '../src/modules/directory/groups/groups.membership.commands.js';
import { createGroup } from '../src/modules/directory/groups/groups.service.js';
import { launchCampaign } from '../src/modules/training/campaigns/campaigns.launch.commands.js';
import { createCampaign } from '../src/modules/training/campaigns/campaigns.service.js';
import { anonymousClient } from './helpers/admin.js';
import { buildTestApp, type TestApp, testEnv } from './helpers/app.js';
import { createTestDatabase, dialectUnderTest } from './helpers/database.js';
import { coded } from './helpers/errors.js';
import { client, makeKey } from './helpers/factories.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';

// GET /metrics: Prometheus text format for the operator, behind METRICS_TOKEN; request counts
// and latencies per route pattern (never a URL or a token), rate-limit refusals, the pool, the
// mail queue, the process; in cluster mode the whole instance, whichever worker is scraped.

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;
const API = '/api/api_gateway';
const EMPLOYEES_ROUTE = `${API}/customer/employees/`;
const BEARER = { authorization: `Bearer ${TOKEN}` };
const STATUSES = ['pending', 'failed'];

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text-format answer. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name as string] = value as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The samples named `name` whose labels include `labels`. */
function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The one sample named `name` with these labels, 0 when there is none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = find(samples, name, labels);
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value ?? 0;
}

/** A campaign launched for `people` new employees: one invitation each is queued. */
async function queueInvitations(db: Db, people: number): Promise<void> {
  const account = await createAccount(db, { name: `Mail ${randomBytes(4).toString('hex')}` });
  const ids: number[] = [];
  for (let i = 0; i < people; i++) {
    const email = `learner${i}.${randomBytes(4).toString('hex')}@example.com`;
    ids.push((await createEmployee(db, account.id, { first_name: 'L', last_name: `${i}`, email })).id);
  }
  const group = await createGroup(db, account.id, { name: 'Everyone', description: '' });
  await replaceMembership(db, { accountId: account.id, groupId: group.id, employeeIds: ids });
  const due = new Date(Date.now() + 14 * 86_400_000).toISOString();
  const campaign = await createCampaign(db, account.id, {
    name: 'Awareness',
    group_ids: [group.id],
    course_keys: ['phishing'],
    due_date: due,
  });
  await launchCampaign(db, { accountId: account.id, campaignId: campaign.id, trigger: 'now' });
}

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: BEARER });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found', status: 404, ...coded('not_found') });
  });
});

describe('GET /metrics with a wrong token, again and again', () => {
  it('is limited with the failed authentications of the address: a 429 after the budget, counted; the right token still works', async () => {
    const { app } = await buildTestApp({ METRICS_TOKEN: TOKEN, RATE_LIMIT_FAILED_AUTH: '60' });
    const guess = (i: number) =>
      app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer guess-${i}` } });
    for (let i = 0; i < 60; i++) expect((await guess(i)).statusCode).toBe(401);
    const limited = await guess(60);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'Rate limit exceeded', status: 429, code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Guessing API keys from the same address draws on the same budget.
    const apiGuess = await app.inject({
      method: 'GET',
      url: '/api/api_gateway/customer/employees/',
      headers: { apikey: 'vgl_nope' },
    });
    expect(apiGuess.statusCode).toBe(429);
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: BEARER });
    expect(res.statusCode).toBe(200);
    expect(value(parse(res.body), 'vigil_rate_limit_rejections_total', { kind: 'address' })).toBe(2);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      METRICS_TOKEN: TOKEN,
      RATE_LIMIT_FAILED_AUTH: '60',
      SIGN_IN_LIMIT_PER_EMAIL: '1',
    });
  });

  async function scrape(): Promise<{ text: string; samples: Sample[] }> {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: BEARER });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return { text: res.body, samples: parse(res.body) };
  }

  it('refuses a scrape without the token, with another token, or with an API key', async () => {
    const { key } = await makeKey(t.app);
    const refusals = [
      [{}, 'Metrics token required', 'metrics_token_required'],
      [
        { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
        'Metrics token required',
        'metrics_token_required',
      ],
      [{ apikey: key }, 'Metrics token required', 'metrics_token_required'],
      [{ authorization: `Bearer ${key}` }, 'Invalid metrics token', 'invalid_metrics_token'],
      [{ authorization: 'Bearer not-the-token' }, 'Invalid metrics token', 'invalid_metrics_token'],
      [{ authorization: `Bearer ${TOKEN.slice(0, -1)}` }, 'Invalid metrics token', 'invalid_metrics_token'],
      [{ authorization: `Bearer ${TOKEN}x` }, 'Invalid metrics token', 'invalid_metrics_token'],
    ] as const;
    for (const [headers, error, code] of refusals) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error, status: 401, ...coded(code) });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.headers['x-api-version']).toBe('2.2.0');
    }
    const lowerCaseScheme = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(lowerCaseScheme.statusCode).toBe(200);
  });

  it('counts requests per route pattern and status, unknown routes as unmatched, never a URL or a token', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const learnerToken = `7.${Date.now() + 86_400_000}.${randomBytes(24).toString('base64url')}`;
    const setupToken = randomBytes(24).toString('base64url');
    const secretSegment = `secret-${randomBytes(12).toString('hex')}`;
    const before = (await scrape()).samples;

    for (let i = 0; i < 3; i++) expect((await api.get('/customer/employees/')).statusCode).toBe(200);
    expect((await api.get(`/customer/employees/?email=${secretSegment}@example.com`)).statusCode).toBe(200);
    expect((await api.get(`/customer/${secretSegment}/`)).statusCode).toBe(404);
    expect((await api.request('DELETE', '/customer/employees/')).statusCode).toBe(405);
    expect((await t.app.inject({ method: 'GET', url: `/learn/${learnerToken}` })).statusCode).toBe(404);
    await t.app.inject({ method: 'GET', url: `/admin/setup/${setupToken}` });
    await t.app.inject({ method: 'GET', url: `/admin/api/invitations/${setupToken}` });

    const { text, samples } = await scrape();
    const increase = (name: string, labels: Record<string, string>) =>
      value(samples, name, labels) - value(before, name, labels);
    const list = { method: 'GET', route: EMPLOYEES_ROUTE, status: '200' };
    expect(increase('vigil_http_requests_total', list)).toBe(4);
    expect(increase('vigil_http_request_duration_seconds_count', list)).toBe(4);
    expect(increase('vigil_http_request_duration_seconds_bucket', { ...list, le: '+Inf' })).toBe(4);
    expect(increase('vigil_http_request_duration_seconds_bucket', { ...list, le: '10' })).toBe(4);
    expect(value(samples, 'vigil_http_request_duration_seconds_sum', list)).toBeGreaterThan(0);
    expect(find(samples, 'vigil_http_request_duration_seconds_bucket', list).map((s) => s.labels.le)).toEqual(
      [
        '0.001',
        '0.0025',
        '0.005',
        '0.01',
        '0.025',
        '0.05',
        '0.1',
        '0.25',
        '0.5',
        '1',
        '2.5',
        '5',
        '10',
        '+Inf',
      ],
    );
    const unmatched = { route: 'unmatched' };
    expect(increase('vigil_http_requests_total', { ...unmatched, method: 'GET', status: '404' })).toBe(1);
    expect(increase('vigil_http_requests_total', { ...unmatched, method: 'DELETE', status: '405' })).toBe(1);
    expect(
      increase('vigil_http_requests_total', { method: 'GET', route: '/learn/:token', status: '404' }),
    ).toBe(1);
    expect(increase('vigil_http_requests_total', { method: 'GET', route: '/admin/setup/:token' })).toBe(1);
    expect(
      increase('vigil_http_requests_total', { method: 'GET', route: '/admin/api/invitations/:token' }),
    ).toBe(1);
    // Every route label is a pattern, with its parameters' names, or `unmatched`.
    for (const s of find(samples, 'vigil_http_requests_total')) {
      expect(s.labels.route === 'unmatched' || s.labels.route?.startsWith('/')).toBe(true);
    }
    for (const secret of [learnerToken, setupToken, secretSegment, key, key.slice(12), TOKEN]) {
      expect(text).not.toContain(secret);
    }
  });

  it('counts 429s by budget: an API key, failed authentications from one address, sign-in attempts', async () => {
    const before = (await scrape()).samples;
    const rejections = (samples: Sample[], kind: string) =>
      value(samples, 'vigil_rate_limit_rejections_total', { kind });
    for (const kind of ['key', 'address', 'sign_in'])
      expect(find(before, 'vigil_rate_limit_rejections_total', { kind })).toHaveLength(1);

    const { key } = await makeKey(t.app, { rateLimit: 1 });
    const api = client(t.app, key);
    expect((await api.get('/customer/employees/')).statusCode).toBe(200);
    expect((await api.get('/customer/employees/')).statusCode).toBe(429);

    const guess = () =>
      t.app.inject({
        method: 'GET',
        url: `${API}/customer/employees/`,
        headers: { apikey: 'vgl_notakey' },
        remoteAddress: '203.0.113.7',
      });
    for (let i = 0; i < 60; i++) expect((await guess()).statusCode).toBe(401);
    expect((await guess()).statusCode).toBe(429);

    const browser = await anonymousClient(t.app);
    const signIn = () =>
      t.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: browser.headers,
        payload: { email: 'nobody@example.com', password: 'wrong password' },
      });
    expect((await signIn()).statusCode).toBe(401);
    expect((await signIn()).statusCode).toBe(429);

    const after = (await scrape()).samples;
    for (const kind of ['key', 'address', 'sign_in']) {
      expect(rejections(after, kind) - rejections(before, kind), kind).toBe(1);
    }
    const tooMany = { method: 'GET', route: EMPLOYEES_ROUTE, status: '429' };
    expect(
      value(after, 'vigil_http_requests_total', tooMany) -
        value(before, 'vigil_http_requests_total', tooMany),
    ).toBe(2);
  });

  it('reports the process: event-loop lag, memory, CPU', async () => {
    const { samples } = await scrape();
    const primary = { process: 'primary' };
    expect(value(samples, 'nodejs_eventloop_lag_p99_seconds', primary)).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'process_resident_memory_bytes', primary)).toBeGreaterThan(0);
    expect(find(samples, 'process_cpu_seconds_total', primary)).toHaveLength(1);
  });

  it.runIf(dialectUnderTest === 'postgres')('reports the connection pool (PostgreSQL)', async () => {
    const { samples } = await scrape();
    const pool = (state: string) => value(samples, 'vigil_db_pool_connections', { state });
    expect(find(samples, 'vigil_db_pool_connections')).toHaveLength(3);
    expect(pool('total')).toBeGreaterThanOrEqual(1);
    expect(pool('idle')).toBeLessThanOrEqual(pool('total'));
    expect(pool('waiting')).toBe(0);
  });

  it.runIf(dialectUnderTest === 'sqlite')('has no connection pool to report on SQLite', async () => {
    const { text } = await scrape();
    expect(text).not.toContain('vigil_db_pool_connections');
  });

  it('reports the mail queue by status', async () => {
    const before = (await scrape()).samples;
    await queueInvitations(t.app.db, 3);
    const after = (await scrape()).samples;
    const pending = { status: 'pending' };
    expect(
      value(after, 'vigil_mail_queue_messages', pending) -
        value(before, 'vigil_mail_queue_messages', pending),
    ).toBe(3);
    expect(
      find(after, 'vigil_mail_queue_messages')
        .map((s) => s.labels.status)
        .sort(),
    ).toEqual([...STATUSES].sort());
  });

  it('still answers, without the mail queue, when the queue cannot be counted', async () => {
    await t.app.db.schema.alterTable('messages').renameTo('messages_away').execute();
    try {
      const { samples } = await scrape();
      expect(find(samples, 'vigil_mail_queue_messages')).toEqual([]);
      expect(find(samples, 'vigil_http_requests_total').length).toBeGreaterThan(0);
    } finally {
      await t.app.db.schema.alterTable('messages_away').renameTo('messages').execute();
    }
    expect(find((await scrape()).samples, 'vigil_mail_queue_messages')).toHaveLength(STATUSES.length);
  });

  it.runIf(dialectUnderTest === 'postgres')(
    'answers within about a second, without the mail queue, while the count waits for a lock',
    async () => {
      const locker = new pg.Client({ connectionString: t.databaseUrl });
      await locker.connect();
      try {
        await locker.query('begin');
        await locker.query('lock table messages in access exclusive mode');
        const started = Date.now();
        const { samples } = await scrape();
        expect(Date.now() - started).toBeLessThan(2500);
        expect(find(samples, 'vigil_mail_queue_messages')).toEqual([]);
      } finally {
        await locker.query('rollback');
        await locker.end();
      }
    },
  );
});

/** GET over a connection of its own (so the cluster's primary hands each to the next worker). */
function getOnNewConnection(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; contentType: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, contentType: res.headers['content-type'] }),
        );
      })
      .on('error', reject);
  });
}

describe('GET /metrics of a cluster (WEB_CONCURRENCY=2)', () => {
  let server: ServerProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await dropDatabase?.();
  });

  it('answers for the whole instance, whichever worker is scraped, and never goes backwards', async () => {
    const testDb = await createTestDatabase();
    dropDatabase = testDb.drop;
    // No mail worker: the three invitations queued below stay pending while the scrapes count them.
    server = await startServer(
      testEnv(testDb.url, { WEB_CONCURRENCY: '2', METRICS_TOKEN: TOKEN, WORKERS: 'off' }),
    );
    const database = openDatabase(testDb.url);
    let key: string;
    try {
      const account = await createAccount(database.db, { name: 'Cluster' });
      key = (
        await createKey(database.db, {
          accountId: account.id,
          name: 'cluster',
          permissions: ['employees:read'],
          rateLimit: 100_000,
          expiresAt: null,
        })
      ).key;
      await queueInvitations(database.db, 3);
    } finally {
      await database.close();
    }

    // The request log names the process (pid) that answered each request (written every half
    // second). Send until both workers have served some (the second may start listening a little
    // after the first).
    const servedBy = () =>
      server!
        .output()
        .split('\n')
        .filter(
          (line) => line.includes('"msg":"request completed"') && line.includes(`"url":"${EMPLOYEES_ROUTE}"`),
        )
        .map((line) => JSON.parse(line).pid as number);
    let requests = 0;
    for (let round = 0; round < 20 && new Set(servedBy()).size < 2; round++) {
      for (let i = 0; i < 10; i++, requests++) {
        const res = await getOnNewConnection(`${server.baseUrl}${EMPLOYEES_ROUTE}`, { apikey: key });
        expect(res.status).toBe(200);
      }
      for (let wait = 0; servedBy().length < requests && wait < 3000; wait += 50) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    expect(servedBy()).toHaveLength(requests);
    const workerPids = [...new Set(servedBy())];
    expect(workerPids).toHaveLength(2);

    const list = { method: 'GET', route: EMPLOYEES_ROUTE, status: '200' };
    const scrapeInstance = async () => {
      const res = await getOnNewConnection(`${server!.baseUrl}/metrics`, BEARER);
      expect(res.status, res.body).toBe(200);
      expect(res.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
      return parse(res.body);
    };
    // Consecutive scrapes land on either worker; each holds the instance's totals.
    for (let i = 0; i < 4; i++) {
      const samples = await scrapeInstance();
      expect(value(samples, 'vigil_http_requests_total', list)).toBe(requests);
      expect(value(samples, 'vigil_http_request_duration_seconds_count', list)).toBe(requests);
      expect(value(samples, 'vigil_metrics_workers', { state: 'answered' })).toBe(2);
      for (const process of ['primary', 'worker-1', 'worker-2']) {
        expect(find(samples, 'nodejs_eventloop_lag_p99_seconds', { process }), process).toHaveLength(1);
      }
      // Counted once by the primary, not once per process.
      const messages = STATUSES.map((status) => value(samples, 'vigil_mail_queue_messages', { status }));
      expect(messages.reduce((a, b) => a + b, 0)).toBe(3);
      if (dialectUnderTest === 'postgres') {
        expect(value(samples, 'vigil_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(2);
      }
    }

    // A worker that dies takes nothing with it: its counts stay in the instance's totals.
    process.kill(workerPids[0] as number, 'SIGKILL');
    for (let wait = 0; wait < 10_000; wait += 100) {
      if (server.output().includes('worker exited; starting another')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const afterDeath = await scrapeInstance();
    expect(value(afterDeath, 'vigil_http_requests_total', list)).toBe(requests);
    expect(value(afterDeath, 'vigil_http_request_duration_seconds_count', list)).toBe(requests);
    expect(value(afterDeath, 'vigil_http_request_duration_seconds_bucket', { ...list, le: '+Inf' })).toBe(
      requests,
    );
  });
});
