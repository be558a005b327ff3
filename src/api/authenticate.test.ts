import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, testEnv } from '../../test/helpers/app.js';
import { createTestDatabase, openMigrated } from '../../test/helpers/database.js';
import { coded } from '../../test/helpers/errors.js';
import { client, makeEmployee, makeGroup, makeKey } from '../../test/helpers/factories.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../core/config.js';
import { openDatabase } from '../core/db/database.js';
import { revokeKey } from '../modules/access/keys/keys.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const API = '/api/api_gateway';

/** A request as a client at `remoteAddress` sends it, with whatever apiKey header it chooses. */
function send(
  app: FastifyInstance,
  options: {
    method?: 'GET' | 'POST' | 'PUT';
    url?: string;
    headers?: Record<string, string>;
    body?: unknown;
    remoteAddress?: string;
  } = {},
) {
  return app.inject({
    method: options.method ?? 'GET',
    url: `${API}${options.url ?? '/customer/campaigns/training/'}`,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

function budgetHeaders(res: { headers: Record<string, unknown> }) {
  return {
    limit: res.headers['ratelimit-limit'],
    remaining: res.headers['ratelimit-remaining'],
    reset: res.headers['ratelimit-reset'],
  };
}

function expectIntegerSeconds(value: unknown) {
  expect(String(value)).toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(60);
}

async function readLastUsed(app: FastifyInstance, keyId: number) {
  const row = await app.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where('id', '=', keyId)
    .executeTakeFirstOrThrow();
  return row.last_used_at;
}

interface AccessPointRoute {
  method: 'GET' | 'POST' | 'PUT';
  path: (ids: { employeeId: number; groupId: number }) => string;
  accessPoint: 'employees' | 'groups' | 'campaigns';
  right: 'read' | 'write';
  body?: (ids: { employeeId: number }) => unknown;
}

const ROUTES: AccessPointRoute[] = [
  {
    method: 'POST',
    path: () => '/customer/employees/',
    accessPoint: 'employees',
    right: 'write',
    body: () => ({ first_name: 'Ann', last_name: 'Lee', email: `ann.${Math.random()}@example.com` }),
  },
  { method: 'GET', path: () => '/customer/employees/', accessPoint: 'employees', right: 'read' },
  {
    method: 'GET',
    path: ({ employeeId }) => `/customer/employees/${employeeId}/`,
    accessPoint: 'employees',
    right: 'read',
  },
  { method: 'GET', path: () => '/customer/groups/', accessPoint: 'groups', right: 'read' },
  {
    method: 'GET',
    path: ({ groupId }) => `/customer/groups/${groupId}/`,
    accessPoint: 'groups',
    right: 'read',
  },
  {
    method: 'PUT',
    path: ({ groupId }) => `/customer/groups/${groupId}/`,
    accessPoint: 'groups',
    right: 'write',
    body: ({ employeeId }) => ({ employee_ids: [employeeId] }),
  },
  { method: 'GET', path: () => '/customer/campaigns/training/', accessPoint: 'campaigns', right: 'read' },
];

const routeName = (r: AccessPointRoute) => `${r.method} ${r.path({ employeeId: 1, groupId: 1 })}`;

/** Grants of a key that holds everything except `missing` ("groups:write"). */
function grantsWithout(missing: string): string[] {
  const [point, right] = missing.split(':');
  return ['employees', 'groups', 'campaigns'].map((p) =>
    p !== point ? `${p}:rw` : right === 'read' ? `${p}:w` : `${p}:r`,
  );
}

/** An account with one employee and one group, and a key of that account with `grants`. */
async function accountWithData(grants: string[]) {
  const { accountId, key } = await makeKey(t.app, { grants });
  const employee = await makeEmployee(t.app, accountId);
  const group = await makeGroup(t.app, accountId);
  return { accountId, key, ids: { employeeId: employee.id, groupId: group.id } };
}

describe('authentication', () => {
  it.each(ROUTES.map((r) => [routeName(r), r] as const))('%s answers 401 without a key', async (_, route) => {
    const res = await send(t.app, {
      method: route.method,
      url: route.path({ employeeId: 1, groupId: 1 }),
      body: route.body?.({ employeeId: 1 }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'API key required', status: 401 });
  });

  it('treats an empty apiKey header as missing', async () => {
    const res = await send(t.app, { headers: { apikey: '' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'API key required', status: 401 });
  });

  it('rejects unknown and malformed keys as invalid', async () => {
    const { key } = await makeKey(t.app);
    const unknown = `vgl_${'A'.repeat(40)}`;
    const altered = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    for (const presented of [unknown, altered, `${key}x`, 'vgl_short', 'abc', key.slice(4)]) {
      const res = await send(t.app, { headers: { apikey: presented } });
      expect(res.statusCode, presented).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid API key', status: 401 });
    }
  });

  it('accepts a valid key in the apiKey header whatever the case of its name', async () => {
    const { key } = await makeKey(t.app);
    for (const name of ['apiKey', 'apikey', 'APIKEY']) {
      const res = await send(t.app, { headers: { [name]: key } });
      expect(res.statusCode, name).toBe(200);
    }
  });

  it('rejects a revoked key at once', async () => {
    const { key, keyId, accountId } = await makeKey(t.app);
    expect((await client(t.app, key).get('/customer/campaigns/training/')).statusCode).toBe(200);
    await revokeKey(t.app.db, accountId, keyId);
    const res = await client(t.app, key).get('/customer/campaigns/training/');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid API key', status: 401 });
  });

  it('rejects a key from the moment it expires, even one it has just accepted', async () => {
    const { key } = await makeKey(t.app, { expiresAt: Date.now() + 1000 });
    expect((await client(t.app, key).get('/customer/campaigns/training/')).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const res = await client(t.app, key).get('/customer/campaigns/training/');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid API key', status: 401 });
  });

  it('routes before authenticating: an unknown route is 404 and a wrong method 405, key or not', async () => {
    const unknown = await send(t.app, { url: '/customer/nothing-here/' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Not found', status: 404, ...coded('not_found') });
    const wrongMethod = await t.app.inject({
      method: 'DELETE',
      url: `${API}/customer/employees/`,
      headers: { apikey: 'abc' },
    });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.json()).toEqual({
      error: 'Method not allowed',
      status: 405,
      ...coded('method_not_allowed'),
    });
  });
});

describe('permissions', () => {
  it.each(ROUTES.map((r) => [routeName(r), r] as const))(
    '%s needs its access point’s right and answers 403 naming it',
    async (_, route) => {
      const needed = `${route.accessPoint}:${route.right}`;
      const { key, ids } = await accountWithData(grantsWithout(needed));
      const res = await client(t.app, key).request(route.method, route.path(ids), route.body?.(ids));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: `API key lacks ${route.right} permission on ${route.accessPoint}`,
        status: 403,
      });
    },
  );

  it.each(ROUTES.map((r) => [routeName(r), r] as const))(
    '%s succeeds with only that access point’s right',
    async (_, route) => {
      const { key, ids } = await accountWithData([
        `${route.accessPoint}:${route.right === 'read' ? 'r' : 'w'}`,
      ]);
      const res = await client(t.app, key).request(route.method, route.path(ids), route.body?.(ids));
      expect(res.statusCode).toBe(route.method === 'POST' ? 201 : 200);
    },
  );

  it('checks the permission before validating the request or looking for the object', async () => {
    const { key } = await makeKey(t.app, { grants: ['employees:r', 'groups:r'] });
    const api = client(t.app, key);
    const invalid = await api.post('/customer/employees/', { first_name: 42 });
    expect(invalid.statusCode).toBe(403);
    const unknownGroup = await api.put('/customer/groups/999999/', { employee_ids: 'x' });
    expect(unknownGroup.statusCode).toBe(403);
    expect(unknownGroup.json()).toEqual({ error: 'API key lacks write permission on groups', status: 403 });
  });
});

describe('rate limits', () => {
  it('carries RateLimit headers on every authenticated answer, 403, 400 and 404 included', async () => {
    const { key } = await makeKey(t.app, { grants: ['groups:rw'], rateLimit: 50 });
    const api = client(t.app, key);
    const answers = [
      await api.get('/customer/groups/'),
      await api.get('/customer/campaigns/training/'),
      await api.get('/customer/groups/?page=0'),
      await api.get('/customer/groups/999999/'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 403, 400, 404]);
    answers.forEach((res, i) => {
      const budget = budgetHeaders(res);
      expect(budget.limit, `answer ${i}`).toBe('50');
      expect(budget.remaining, `answer ${i}`).toBe(String(50 - i - 1));
      expectIntegerSeconds(budget.reset);
    });
  });

  it('answers 429 with Retry-After once a key has used its budget', async () => {
    const { key } = await makeKey(t.app, { rateLimit: 5 });
    const api = client(t.app, key);
    for (let i = 1; i <= 5; i++) {
      const res = await api.get('/customer/campaigns/training/');
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
    }
    const limited = await api.get('/customer/campaigns/training/');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'Rate limit exceeded', status: 429, ...coded('rate_limited') });
    expectIntegerSeconds(limited.headers['retry-after']);
    expect(limited.headers['ratelimit-limit']).toBe('5');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expectIntegerSeconds(limited.headers['ratelimit-reset']);
  });

  it('counts 403 answers against the budget and limits before checking permission', async () => {
    const { key } = await makeKey(t.app, { grants: ['employees:r'], rateLimit: 2 });
    const api = client(t.app, key);
    expect((await api.get('/customer/groups/')).statusCode).toBe(403);
    expect((await api.get('/customer/groups/')).statusCode).toBe(403);
    const limited = await api.get('/customer/groups/');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'Rate limit exceeded', status: 429, ...coded('rate_limited') });
  });

  it("keeps a budget per key: one key's exhaustion does not limit another", async () => {
    const first = await makeKey(t.app, { rateLimit: 2 });
    const second = await makeKey(t.app, { accountId: first.accountId, rateLimit: 2 });
    const a = client(t.app, first.key);
    for (let i = 0; i < 2; i++) expect((await a.get('/customer/campaigns/training/')).statusCode).toBe(200);
    expect((await a.get('/customer/campaigns/training/')).statusCode).toBe(429);
    const b = await client(t.app, second.key).get('/customer/campaigns/training/');
    expect(b.statusCode).toBe(200);
    expect(b.headers['ratelimit-remaining']).toBe('1');
  });

  it('limits failed authentication per client address, after at least 60 answers of 401', async () => {
    const address = '198.51.100.23';
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 300 && !limited; i++) {
      const res = await send(t.app, { headers: { apikey: `vgl_${'x'.repeat(40)}` }, remoteAddress: address });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) limited = res;
    }
    expect(limited, 'a 429 eventually').toBeDefined();
    const before = statuses.slice(0, -1);
    expect(before.length).toBeGreaterThanOrEqual(60);
    expect(new Set(before)).toEqual(new Set([401]));
    expect(limited!.json()).toEqual({ error: 'Rate limit exceeded', status: 429, ...coded('rate_limited') });
    expectIntegerSeconds(limited!.headers['retry-after']);

    const missing = await send(t.app, { remoteAddress: address });
    expect(missing.statusCode).toBe(429);
    const elsewhere = await send(t.app, { headers: { apikey: 'abc' }, remoteAddress: '198.51.100.24' });
    expect(elsewhere.statusCode).toBe(401);
    const { key } = await makeKey(t.app);
    const valid = await send(t.app, { headers: { apikey: key }, remoteAddress: address });
    expect(valid.statusCode).toBe(200);
  });
});

describe('a key changed by another process', () => {
  let cached: TestApp;
  beforeAll(async () => {
    cached = await buildTestApp({ API_KEY_CACHE_SECONDS: '1' });
  });

  it('stops working within API_KEY_CACHE_SECONDS of being revoked there', async () => {
    const { key, keyId } = await makeKey(cached.app);
    const api = client(cached.app, key);
    expect((await api.get('/customer/campaigns/training/')).statusCode).toBe(200);
    // Another instance (or the operator command) revokes it: this one is not told.
    await cached.app.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', keyId)
      .execute();
    const deadline = Date.now() + 1500;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await api.get('/customer/campaigns/training/')).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
  });
});

describe('last use of a key', () => {
  let fast: TestApp;
  beforeAll(async () => {
    fast = await buildTestApp({ LAST_USED_FLUSH_MS: '200' });
  });

  it('is not written while answering, and is recorded when the app closes', async () => {
    const testDb = await createTestDatabase();
    const config = loadConfig(testEnv(testDb.url, { LAST_USED_FLUSH_MS: '3600000' }));
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const app = await buildApp({ config, database: await openMigrated(testDb.url), logStream: silent });
    const reader = openDatabase(testDb.url);
    try {
      await app.ready();
      const { key, keyId } = await makeKey(app);
      const before = Date.now();
      expect((await client(app, key).get('/customer/campaigns/training/')).statusCode).toBe(200);
      expect(await readLastUsed(app, keyId)).toBeNull();

      await app.close();
      const row = await reader.db
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow();
      expect(row.last_used_at).toBeGreaterThanOrEqual(before);
      expect(row.last_used_at).toBeLessThanOrEqual(Date.now());
    } finally {
      await app.close();
      await reader.close();
      await testDb.drop();
    }
  });

  it('is recorded within the flush interval while the app runs', async () => {
    const { key, keyId } = await makeKey(fast.app);
    const before = Date.now();
    expect((await client(fast.app, key).get('/customer/campaigns/training/')).statusCode).toBe(200);
    let lastUsed: number | null = null;
    for (const deadline = Date.now() + 10_000; lastUsed === null && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      lastUsed = await readLastUsed(fast.app, keyId);
    }
    expect(lastUsed).not.toBeNull();
    expect(lastUsed).toBeGreaterThanOrEqual(before);
  });
});
