import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { coded, validationFailedBody } from './helpers/errors.js';
import { client, makeEmployee, makeKey } from './helpers/factories.js';

/**
 * `POST /customer/employees/bulk/` (issue 12, item 3): up to 10,000 people upserted by address,
 * one result per row. On the database the suite runs on (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

let n = 0;
const unique = (label: string) => `${label}.${++n}.${Date.now()}@example.com`;

async function world(grants?: string[]) {
  const { key, accountId } = await makeKey(t.app, grants ? { grants } : {});
  return { api: client(t.app, key), accountId };
}

type Api = Awaited<ReturnType<typeof world>>['api'];
const bulk = (api: Api, employees: unknown, headers?: Record<string, string>) =>
  api.post('/customer/employees/bulk/', { employees }, headers);

async function allEmployees(api: Api) {
  const res = await api.get('/customer/employees/?page_size=1000');
  expect(res.statusCode).toBe(200);
  return res.json().results as Array<{
    id: number;
    first_name: string;
    last_name: string;
    email: string;
    updated_at: string;
  }>;
}

describe('bulk upsert of employees', () => {
  it('creates, updates and leaves unchanged, one result per row in order, with the counts', async () => {
    const { api, accountId } = await world();
    const kept = await makeEmployee(t.app, accountId, {
      first_name: 'Kim',
      last_name: 'Park',
      email: unique('kept'),
    });
    const renamed = await makeEmployee(t.app, accountId, {
      first_name: 'Lou',
      last_name: 'Old',
      email: unique('renamed'),
    });
    const newEmail = unique('new');
    const res = await bulk(api, [
      { first_name: ' Ann ', last_name: 'Lee', email: ` ${newEmail} ` },
      {
        first_name: 'Kim',
        last_name: 'Park',
        email: kept.email.toUpperCase() === kept.email ? kept.email : kept.email,
      },
      { first_name: 'Lou', last_name: 'New', email: renamed.email.toUpperCase() },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.counts).toEqual({ created: 1, updated: 1, unchanged: 1, error: 0 });
    expect(body.results[0]).toEqual({ index: 0, email: newEmail, status: 'created', id: expect.any(Number) });
    expect(body.results[1]).toEqual({ index: 1, email: kept.email, status: 'unchanged', id: kept.id });
    expect(body.results[2]).toEqual({
      index: 2,
      email: renamed.email.toUpperCase(),
      status: 'updated',
      id: renamed.id,
    });

    const created = await api.get(`/customer/employees/${body.results[0].id}/`);
    expect(created.json()).toMatchObject({ first_name: 'Ann', last_name: 'Lee', email: newEmail });
    const updated = (await api.get(`/customer/employees/${renamed.id}/`)).json();
    expect(updated).toMatchObject({ last_name: 'New', email: renamed.email.toUpperCase() });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(renamed.updated_at - 1);
    const same = (await api.get(`/customer/employees/${kept.id}/`)).json();
    expect(Date.parse(same.updated_at)).toBe(kept.updated_at);
    expect(await allEmployees(api)).toHaveLength(3);

    // The same request again changes nothing.
    const again = await bulk(api, [
      { first_name: 'Ann', last_name: 'Lee', email: newEmail },
      { first_name: 'Kim', last_name: 'Park', email: kept.email },
      { first_name: 'Lou', last_name: 'New', email: renamed.email.toUpperCase() },
    ]);
    expect(again.json().counts).toEqual({ created: 0, updated: 0, unchanged: 3, error: 0 });
  });

  it('reports bad rows and still applies the others: rules of the create, duplicates within the request', async () => {
    const { api } = await world();
    const a = unique('a');
    const rows = [
      { first_name: 'Ann', last_name: 'Lee', email: a },
      { first_name: 'Bad', last_name: 'Address', email: 'not-an-address' },
      { first_name: 'Ann', last_name: 'Again', email: a.toUpperCase() },
      { first_name: 'x'.repeat(151), last_name: 'Long', email: unique('long') },
      { first_name: ' ', last_name: '', email: unique('empty') },
      { last_name: 'NoFirst' },
      { first_name: 'Dot', last_name: 'Less', email: 'a@b' },
      { first_name: 'Ctl', last_name: 'Char\u0007', email: unique('ctl') },
      { first_name: 'Fine', last_name: 'Too', email: unique('fine'), unknown_field: 'ignored' },
    ];
    const res = await bulk(api, rows);
    expect(res.statusCode).toBe(200);
    const { results, counts } = res.json();
    expect(counts).toEqual({ created: 2, updated: 0, unchanged: 0, error: 7 });
    expect(results.map((r: { status: string }) => r.status)).toEqual([
      'created',
      'error',
      'error',
      'error',
      'error',
      'error',
      'error',
      'error',
      'created',
    ]);
    const failure = (details: Record<string, string[]>) => ({
      code: 'validation_failed',
      message: 'Validation failed',
      details,
    });
    expect(results[1]).toEqual({
      index: 1,
      email: 'not-an-address',
      status: 'error',
      error: failure({ email: ['must be a valid email address'] }),
    });
    expect(results[2]).toEqual({
      index: 2,
      email: a.toUpperCase(),
      status: 'error',
      error: {
        code: 'duplicate_email',
        message: 'This address (compared case-insensitively) is already in row 0 of this request',
      },
    });
    expect(results[3].error).toEqual(failure({ first_name: ['must be at most 150 characters'] }));
    expect(results[4].error).toEqual(
      failure({ first_name: ['must not be empty'], last_name: ['must not be empty'] }),
    );
    expect(results[5]).toEqual({
      index: 5,
      email: null,
      status: 'error',
      error: failure({ first_name: ['is required'], email: ['is required'] }),
    });
    expect(results[6].error).toEqual(failure({ email: ['must be a valid email address'] }));
    expect(results[7].error).toEqual(failure({ last_name: ['must not contain control characters'] }));
    expect(results[0].id).toBeDefined();
    expect(results[1].id).toBeUndefined();
    const people = await allEmployees(api);
    expect(people.map((p) => p.last_name).sort()).toEqual(['Lee', 'Too']);
  });

  it('refuses a body of the wrong shape, 0 rows or 10,001 rows with a 400 that changes nothing', async () => {
    const { api } = await world();
    const row = (i: number) => ({
      first_name: 'Many',
      last_name: `P${i}`,
      email: `many.${i}.${n}@example.com`,
    });
    const tooMany = Array.from({ length: 10_001 }, (_, i) => row(i));
    const huge = await bulk(api, tooMany);
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toEqual(validationFailedBody({ employees: ['must have at most 10000 entries'] }));
    expect(await allEmployees(api)).toEqual([]);

    for (const [body, details] of [
      [{ employees: [] }, { employees: ['must not be empty'] }],
      [{}, { employees: ['is required'] }],
      [{ employees: 'nope' }, { employees: ['must be an array'] }],
      [{ employees: [row(1), 7] }, { employees: ['each entry must be an object'] }],
      [[row(1)], { body: ['must be an object'] }],
    ] as const) {
      const res = await api.post('/customer/employees/bulk/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual(validationFailedBody(details as unknown as Record<string, string[]>));
    }
    const malformed = await api.post('/customer/employees/bulk/', '{"employees": [');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'Malformed JSON body', ...coded('malformed_json') });
    expect(await allEmployees(api)).toEqual([]);
  });

  it('takes 10,000 rows of the longest names and addresses in one request, and refuses a body over 8 MiB unread', async () => {
    const { api } = await world();
    const long = 'N'.repeat(150);
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const local = `${i}.`.padEnd(64, 'x');
      return {
        first_name: long,
        last_name: long,
        email: `${local}@${'d'.repeat(60)}.${'e'.repeat(60)}.example.com`,
      };
    });
    const payload = JSON.stringify({ employees: rows });
    expect(Buffer.byteLength(payload)).toBeGreaterThan(5 * 1024 * 1024);
    const res = await api.post('/customer/employees/bulk/', payload);
    expect(res.statusCode).toBe(200);
    expect(res.json().counts).toEqual({ created: 10_000, updated: 0, unchanged: 0, error: 0 });
    const listed = await api.get('/customer/employees/?page_size=1');
    expect(listed.json().count).toBe(10_000);

    const other = await world();
    const padded = JSON.stringify({
      employees: [{ email: unique('big'), pad: 'x'.repeat(8 * 1024 * 1024) }],
    });
    const big = await other.api.post('/customer/employees/bulk/', padded);
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'Payload too large', status: 413 });
    expect(await allEmployees(other.api)).toEqual([]);
  });

  it('refuses the whole body, before building it, when a row holds anything but strings', async () => {
    const { api } = await world();
    const row = { first_name: 'Ann', last_name: 'Lee', email: unique('flat') };
    const nested = JSON.stringify({ employees: [{ ...row, x: '[' }] }).replace('"["', '['.repeat(100_000));
    for (const body of [
      { employees: [row, { ...row, email: unique('n'), age: 5 }] },
      { employees: [{ ...row, email: null }] },
      { employees: [{ ...row, active: true }] },
      { employees: [{ ...row, manager: { email: 'boss@example.com' } }] },
      { employees: [{ ...row, tags: ['a'] }] },
      nested,
    ]) {
      const res = await api.post('/customer/employees/bulk/', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(
        validationFailedBody({ employees: ['each row must be an object whose values are all strings'] }),
      );
    }
    expect(await allEmployees(api)).toEqual([]);
  });

  it('upserts within the account only: another account’s employee with the address stays as it is', async () => {
    const other = await world();
    const email = unique('shared');
    const theirs = await makeEmployee(t.app, other.accountId, {
      first_name: 'Their',
      last_name: 'Person',
      email,
    });
    const { api } = await world();
    const res = await bulk(api, [{ first_name: 'Our', last_name: 'Person', email }]);
    expect(res.json().results[0]).toMatchObject({ status: 'created' });
    expect(res.json().results[0].id).not.toBe(theirs.id);
    const still = (await other.api.get(`/customer/employees/${theirs.id}/`)).json();
    expect(still).toMatchObject({ first_name: 'Their', last_name: 'Person', email });
    expect(Date.parse(still.updated_at)).toBe(theirs.updated_at);
    expect(await allEmployees(other.api)).toHaveLength(1);
  });

  it('needs write permission on employees', async () => {
    const { api } = await world(['employees:r', 'groups:rw']);
    const res = await bulk(api, [{ first_name: 'A', last_name: 'B', email: unique('perm') }]);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'API key lacks write permission on employees', status: 403 });
  });

  it('two bulk requests at once with overlapping addresses make each person once, without a 5xx', async () => {
    const { api } = await world();
    const shared = Array.from({ length: 300 }, (_, i) => unique(`race${i}`));
    const only = (label: string) => Array.from({ length: 50 }, (_, i) => unique(`${label}${i}`));
    const rowsOf = (emails: string[], last: string) =>
      emails.map((email) => ({ first_name: 'Race', last_name: last, email }));
    const [a, b] = await Promise.all([
      bulk(api, rowsOf([...shared, ...only('a')], 'A')),
      bulk(api, rowsOf([...only('b'), ...[...shared].reverse()], 'B')),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const people = await allEmployees(api);
    expect(people).toHaveLength(400);
    expect(new Set(people.map((p) => p.email.toLowerCase())).size).toBe(400);
    const countsA = a.json().counts;
    const countsB = b.json().counts;
    // Every shared person was created by exactly one of the two, and updated or not by the other.
    expect(countsA.created + countsB.created).toBe(400);
    expect(countsA.error + countsB.error).toBe(0);
    const ids = new Map<string, number>();
    for (const res of [a, b])
      for (const r of res.json().results) {
        const key = r.email.toLowerCase();
        if (ids.has(key)) expect(r.id).toBe(ids.get(key));
        ids.set(key, r.id);
      }
  });

  it('replays under an Idempotency-Key: same answer, no second run; another body with the key is a 422', async () => {
    const { api } = await world();
    const email = unique('idem');
    const headers = { 'idempotency-key': `bulk-${n}` };
    const first = await bulk(api, [{ first_name: 'Idem', last_name: 'One', email }], headers);
    expect(first.statusCode).toBe(200);
    expect(first.json().counts.created).toBe(1);
    const replay = await bulk(api, [{ first_name: 'Idem', last_name: 'One', email }], headers);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    const other = await bulk(api, [{ first_name: 'Idem', last_name: 'Two', email }], headers);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject(coded('idempotency_key_reused'));
    const people = await allEmployees(api);
    expect(people).toHaveLength(1);
    expect(people[0]?.last_name).toBe('One');
  });
});
