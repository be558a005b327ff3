import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, testEnv } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { client, makeGroup, makeKey, seedEmployees } from './helpers/factories.js';
import { type ServerProcess, startServer } from './helpers/server-process.js';

// Races the contract rules out: one email, one 201; a group's membership is always exactly the
// set of one request; one ETag, one winner. Run in one process (app.inject) and across two
// server processes writing to the same database.

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  body: any;
}

/** Sends one API request as the test's key; consecutive calls may go to different servers. */
type Send = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Answer>;

interface Scenario {
  accountId: number;
  send: Send;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const tag = () => randomBytes(4).toString('hex');
const byId = (a: number, b: number) => a - b;

function viaInject(key: string): Send {
  const api = client(t.app, key);
  return async (method, path, body, headers) => {
    const res = await api.request(method, path, body, headers);
    return { status: res.statusCode, headers: res.headers, body: res.json() };
  };
}

function viaServers(servers: ServerProcess[], key: string): Send {
  let turn = 0;
  return async (method, path, body, headers = {}) => {
    const server = servers[turn++ % servers.length]!;
    const res = await fetch(`${server.baseUrl}/api/api_gateway${path}`, {
      method,
      headers: {
        apikey: key,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
  };
}

function concurrentlyCreatesOneEmail(scenario: () => Promise<Scenario>) {
  it('gives exactly one 201 to 20 concurrent creates of one email (any letter case), 409 to the rest', async () => {
    const { send } = await scenario();
    const local = `dup.${tag()}`;
    const variants = [`${local}@example.com`, `${local.toUpperCase()}@Example.COM`, ` ${local}@EXAMPLE.com `];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send('POST', '/customer/employees/', {
          first_name: `Racer${i}`,
          last_name: 'Dup',
          email: variants[i % variants.length],
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 409);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const a of refused)
      expect(a.body).toEqual({ error: 'Email already exists', status: 409, ...coded('email_taken') });

    const found = await send('GET', `/customer/employees/?email=${encodeURIComponent(variants[0]!)}`);
    expect(found.body.count).toBe(1);
    expect(found.body.results).toEqual([created[0]!.body]);
  });
}

function concurrentlyReplacesMembership(scenario: () => Promise<Scenario>) {
  it('leaves exactly one request’s set (and name) after 16 concurrent replacements', async () => {
    const { accountId, send } = await scenario();
    const ids = await seedEmployees(t.app, accountId, 40);
    const group = await makeGroup(t.app, accountId);
    // Overlapping, distinct sets: any interleaving of two replacements yields a set none of them sent.
    const sets = Array.from({ length: 16 }, (_, i) => ids.slice(i * 2, i * 2 + 12 + (i % 3)));
    const answers = await Promise.all(
      sets.map((set, i) =>
        send('PUT', `/customer/groups/${group.id}/`, { employee_ids: [...set].reverse(), name: `Set ${i}` }),
      ),
    );
    answers.forEach((a, i) => {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      const members = a.body.employees.map((e: { id: number }) => e.id);
      expect(a.body.name).toBe(`Set ${i}`);
      expect(a.body.employee_count).toBe(a.body.employees.length);
      expect(members).toEqual([...sets[i]!].sort(byId));
    });

    const final = await send('GET', `/customer/groups/${group.id}/`);
    const winner = Number(/^Set (\d+)$/.exec(final.body.name)?.[1]);
    expect(sets[winner]).toBeDefined();
    expect(final.body.employees.map((e: { id: number }) => e.id)).toEqual([...sets[winner]!].sort(byId));
    expect(final.body.employee_count).toBe(sets[winner]!.length);
  });
}

function concurrentlyReplacesWithOneEtag(scenario: () => Promise<Scenario>) {
  it('answers one of 10 concurrent If-Match replacements with the same ETag 200, the rest 412', async () => {
    const { accountId, send } = await scenario();
    const ids = await seedEmployees(t.app, accountId, 20);
    const group = await makeGroup(t.app, accountId);
    const read = await send('GET', `/customer/groups/${group.id}/`);
    const etag = read.headers.etag as string;
    expect(etag).toBeTruthy();
    // Every set differs from the current (empty) membership, so every success moves the ETag on.
    const sets = Array.from({ length: 10 }, (_, i) => ids.slice(i, i + 5));
    const answers = await Promise.all(
      sets.map((set) =>
        send('PUT', `/customer/groups/${group.id}/`, { employee_ids: set }, { 'if-match': etag }),
      ),
    );
    const winners = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.status).toBe(412);
      expect(a.body).toEqual({ error: 'Precondition failed', status: 412, ...coded('precondition_failed') });
    }
    const final = await send('GET', `/customer/groups/${group.id}/`);
    expect(final.body.employees.map((e: { id: number }) => e.id)).toEqual(sets[winners[0]!]);
    expect(final.headers.etag).toBe(answers[winners[0]!]!.headers.etag);
    expect(final.headers.etag).not.toBe(etag);
  });
}

describe('concurrent requests in one process', () => {
  const scenario = async (): Promise<Scenario> => {
    const { accountId, key } = await makeKey(t.app);
    return { accountId, send: viaInject(key) };
  };
  concurrentlyCreatesOneEmail(scenario);
  concurrentlyReplacesMembership(scenario);
  concurrentlyReplacesWithOneEtag(scenario);
});

describe('concurrent requests across two server processes on one database', () => {
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    const env = testEnv(t.databaseUrl);
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  });

  const scenario = async (): Promise<Scenario> => {
    const { accountId, key } = await makeKey(t.app);
    return { accountId, send: viaServers(servers, key) };
  };
  concurrentlyCreatesOneEmail(scenario);
  concurrentlyReplacesMembership(scenario);
  concurrentlyReplacesWithOneEtag(scenario);
});
