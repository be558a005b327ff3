import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { client, makeCampaign, makeEmployee, makeGroup, makeKey } from './helpers/factories.js';

/**
 * Another account's objects behave exactly as nonexistent ones, on every route: same status,
 * same body, same headers (bar the per-request ones), and nothing of theirs ever changes.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

type Api = ReturnType<typeof client>;

interface Side {
  accountId: number;
  key: string;
  api: Api;
  employees: { id: number; email: string }[];
  groups: { id: number }[];
  campaigns: { id: number }[];
}

/** An account with a full key, employees, groups with members and campaigns. */
async function makeSide(label: string, size: { employees: number; groups: number }): Promise<Side> {
  const { accountId, key } = await makeKey(t.app, { rateLimit: 1_000_000 });
  const api = client(t.app, key);
  const employees = [];
  for (let i = 0; i < size.employees; i++) {
    employees.push(
      await makeEmployee(t.app, accountId, { email: `${label}.${i}.${accountId}@shared.example.com` }),
    );
  }
  const groups = [];
  for (let i = 0; i < size.groups; i++) {
    const group = await makeGroup(t.app, accountId, `${label} group ${i}`, `of ${label}`);
    const members = employees.filter((_, n) => n % size.groups === i).map((e) => e.id);
    const res = await api.put(`/customer/groups/${group.id}/`, { employee_ids: members });
    expect(res.statusCode).toBe(200);
    groups.push(group);
  }
  const campaigns = [
    await makeCampaign(t.app, accountId, [groups[0]!.id]),
    await makeCampaign(t.app, accountId),
  ];
  return { accountId, key, api, employees, groups, campaigns };
}

/** Everything an account's key can see of its data, ETags included. */
async function visibleState(side: Side) {
  const all = async (path: string) => {
    const res = await side.api.get(`${path}?page_size=1000`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const employees = await all('/customer/employees/');
  const groups = await all('/customer/groups/');
  const details = [];
  for (const { id } of groups.results) {
    const res = await side.api.get(`/customer/groups/${id}/`);
    details.push({ status: res.statusCode, etag: res.headers.etag, body: res.json() });
  }
  return { employees, groups, details, campaigns: await all('/customer/campaigns/training/') };
}

// Per-request headers: everything else must be identical between the two answers.
const VOLATILE = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);

function observable(res: LightMyRequestResponse) {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VOLATILE.has(name)));
  // An error's request id, in its body as in its header, is per request too.
  const body = res.body.replace(/"request_id":"[^"]*"/, '"request_id":"…"');
  return { status: res.statusCode, body, headers };
}

/** An id no row of any table ever had (ids are assigned in increasing order from 1). */
const NEVER = 987_654_321;

let a: Side;
let b: Side;
let bBefore: Awaited<ReturnType<typeof visibleState>>;

beforeAll(async () => {
  // B holds more of everything than A, so a count or page that leaked B's rows would show.
  a = await makeSide('a', { employees: 3, groups: 2 });
  b = await makeSide('b', { employees: 5, groups: 3 });
  bBefore = await visibleState(b);
  expect(Math.max(...b.employees.map((e) => e.id), ...b.groups.map((g) => g.id))).toBeLessThan(NEVER);
});

describe("another account's objects are nonexistent", () => {
  it('GET /customer/employees/{id}/: B’s employee answers exactly as an id that never existed', async () => {
    for (const { id } of b.employees) {
      for (const slash of ['/', '']) {
        const theirs = await a.api.get(`/customer/employees/${id}${slash}`);
        const none = await a.api.get(`/customer/employees/${NEVER}${slash}`);
        expect(theirs.statusCode).toBe(404);
        expect(theirs.json()).toEqual({
          error: 'Employee not found',
          status: 404,
          ...coded('employee_not_found'),
        });
        expect(observable(theirs)).toEqual(observable(none));
      }
    }
  });

  it('GET /customer/groups/{id}/: B’s group answers exactly as an id that never existed', async () => {
    for (const { id } of b.groups) {
      for (const slash of ['/', '']) {
        const theirs = await a.api.get(`/customer/groups/${id}${slash}`);
        const none = await a.api.get(`/customer/groups/${NEVER}${slash}`);
        expect(theirs.statusCode).toBe(404);
        expect(theirs.json()).toEqual({ error: 'Group not found', status: 404, ...coded('group_not_found') });
        expect(theirs.headers.etag).toBeUndefined();
        expect(observable(theirs)).toEqual(observable(none));
      }
    }
  });

  it('PUT /customer/groups/{id}/: B’s group answers exactly as an id that never existed and does not change', async () => {
    const theirGroup = b.groups[0]!.id;
    const theirEtag = (await b.api.get(`/customer/groups/${theirGroup}/`)).headers.etag as string;
    const attempts: { body: unknown; headers?: Record<string, string> }[] = [
      { body: { employee_ids: [] } },
      { body: { employee_ids: [a.employees[0]!.id] } },
      { body: { employee_ids: b.employees.map((e) => e.id) } },
      { body: { employee_ids: [], name: 'Taken over', description: 'by A' } },
      { body: { employee_ids: [] }, headers: { 'if-match': theirEtag } },
      { body: { employee_ids: [] }, headers: { 'if-match': '*' } },
      { body: { employee_ids: [] }, headers: { 'if-match': 'W/"stale"' } },
      { body: { employee_ids: 'all' } },
      { body: '{"employee_ids": [' },
    ];
    for (const { body, headers } of attempts) {
      const theirs = await a.api.put(`/customer/groups/${theirGroup}/`, body, headers);
      const none = await a.api.put(`/customer/groups/${NEVER}/`, body, headers);
      expect(theirs.statusCode, JSON.stringify(body)).toBeLessThan(500);
      expect(theirs.statusCode, JSON.stringify(body)).not.toBe(200);
      expect(theirs.statusCode, JSON.stringify(body)).not.toBe(412);
      expect(observable(theirs), JSON.stringify(body)).toEqual(observable(none));
    }
    expect(await visibleState(b)).toEqual(bBefore);
  });

  it('writes and unsupported methods on B’s objects answer exactly as on ids that never existed', async () => {
    const paths = [(id: number) => `/customer/employees/${id}/`, (id: number) => `/customer/groups/${id}/`];
    for (const [path, theirId] of [
      [paths[0]!, b.employees[0]!.id],
      [paths[1]!, b.groups[0]!.id],
    ] as const) {
      for (const method of ['DELETE', 'PATCH', 'POST'] as const) {
        const theirs = await a.api.request(method, path(theirId), { employee_ids: [] });
        const none = await a.api.request(method, path(NEVER), { employee_ids: [] });
        // PATCH and DELETE exist (v2.3.0): B's object is not found, as one that never existed.
        expect(theirs.statusCode).toBe(method === 'POST' ? 405 : 404);
        expect(observable(theirs)).toEqual(observable(none));
      }
    }
    expect(await visibleState(b)).toEqual(bBefore);
  });

  it('a key without the permission is refused the same way for B’s objects and nonexistent ones', async () => {
    const readOnly = client(
      t.app,
      (await makeKey(t.app, { accountId: a.accountId, grants: ['groups:r'] })).key,
    );
    const theirs = await readOnly.put(`/customer/groups/${b.groups[0]!.id}/`, { employee_ids: [] });
    const none = await readOnly.put(`/customer/groups/${NEVER}/`, { employee_ids: [] });
    expect(theirs.statusCode).toBe(403);
    expect(observable(theirs)).toEqual(observable(none));
    const employee = await readOnly.get(`/customer/employees/${b.employees[0]!.id}/`);
    expect(employee.statusCode).toBe(403);
    expect(employee.body).toBe((await readOnly.get(`/customer/employees/${NEVER}/`)).body);
  });
});

describe("lists show only the account's own objects", () => {
  /** Follows `next` from page 1 and collects every item. */
  async function everyItem(api: Api, path: string, pageSize: number) {
    const items: { id: number; group_ids?: number[] }[] = [];
    let url: string | null = `${path}?page_size=${pageSize}`;
    let count = -1;
    while (url) {
      const res = await api.get(url);
      expect(res.statusCode, url).toBe(200);
      const page = res.json();
      count = page.count;
      items.push(...page.results);
      url = page.next
        ? new URL(page.next).pathname.replace('/api/api_gateway', '') + new URL(page.next).search
        : null;
    }
    return { count, ids: items.map((i) => i.id), items };
  }

  it('employees, groups and campaigns: A sees exactly its own, counted and paginated without B’s', async () => {
    const cases = [
      ['/customer/employees/', a.employees, b.employees],
      ['/customer/groups/', a.groups, b.groups],
      ['/customer/campaigns/training/', a.campaigns, b.campaigns],
    ] as const;
    for (const [path, mine, theirs] of cases) {
      for (const size of [1, 2, 1000]) {
        const seen = await everyItem(a.api, path, size);
        expect(seen.count, path).toBe(mine.length);
        expect(seen.ids, path).toEqual(mine.map((o) => o.id));
        for (const other of theirs) expect(seen.ids).not.toContain(other.id);
      }
      // The page after A's last is past the end, however many items B has.
      const past = await a.api.get(`${path}?page_size=1&page=${mine.length + 1}`);
      expect(past.statusCode, path).toBe(404);
      expect(past.json()).toEqual({ error: 'Invalid page', status: 404, ...coded('invalid_page') });
    }
    const campaigns = await everyItem(a.api, '/customer/campaigns/training/', 1000);
    const ownGroups = new Set(a.groups.map((g) => g.id));
    for (const campaign of campaigns.items)
      for (const id of campaign.group_ids ?? []) expect(ownGroups).toContain(id);
  });

  it('GET /customer/employees/?email= with B’s address answers as an address nobody has', async () => {
    for (const email of [b.employees[0]!.email, b.employees[1]!.email.toUpperCase()]) {
      const theirs = await a.api.get(`/customer/employees/?email=${encodeURIComponent(email)}`);
      const none = await a.api.get(`/customer/employees/?email=${encodeURIComponent(`nobody.${email}`)}`);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
      expect(observable(theirs)).toEqual(observable(none));
    }
  });

  it("A's group details list only A's employees", async () => {
    const mine = new Set(a.employees.map((e) => e.id));
    for (const { id } of a.groups) {
      const res = await a.api.get(`/customer/groups/${id}/`);
      expect(res.statusCode).toBe(200);
      for (const member of res.json().employees) expect(mine).toContain(member.id);
    }
  });
});

describe("B's employees cannot join A's groups", () => {
  it('PUT of A’s group with B’s employee ids is 400 Invalid employee_ids listing them, and nothing changes', async () => {
    const group = a.groups[0]!.id;
    const before = await a.api.get(`/customer/groups/${group}/`);
    const etag = before.headers.etag as string;
    const [b1, b2, b3] = b.employees.map((e) => e.id) as [number, number, number];
    const a1 = a.employees[0]!.id;
    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    const attempts: { ids: number[]; invalid: number[]; extra?: object; headers?: Record<string, string> }[] =
      [
        { ids: [b1], invalid: [b1] },
        { ids: [b3, b1, b2], invalid: [b1, b2, b3] },
        { ids: [a1, b2, a1, b2], invalid: [b2] },
        { ids: [b2, NEVER, b1], invalid: sorted([b1, b2, NEVER]) },
        { ids: [a1, b1], invalid: [b1], extra: { name: 'Renamed', description: 'changed' } },
        { ids: [b1], invalid: [b1], headers: { 'if-match': etag } },
      ];
    for (const { ids, invalid, extra, headers } of attempts) {
      const res = await a.api.put(`/customer/groups/${group}/`, { employee_ids: ids, ...extra }, headers);
      expect(res.statusCode, JSON.stringify(ids)).toBe(400);
      expect(res.json()).toEqual({
        error: 'Invalid employee_ids',
        status: 400,
        ...coded('invalid_employee_ids'),
        details: { invalid_ids: invalid },
      });
      // B's ids are reported exactly as ids that never existed would be.
      const swap = new Map(b.employees.map((e, n) => [e.id, NEVER + 1 + n]));
      const unknown = await a.api.put(
        `/customer/groups/${group}/`,
        { employee_ids: ids.map((id) => swap.get(id) ?? id), ...extra },
        headers,
      );
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().details.invalid_ids).toHaveLength(invalid.length);
      const after = await a.api.get(`/customer/groups/${group}/`);
      expect(after.headers.etag).toBe(etag);
      expect(after.json()).toEqual(before.json());
    }
    expect(await visibleState(b)).toEqual(bBefore);
  });
});

describe("B's addresses are free in A", () => {
  it('A can create an employee with B’s address (any case); B’s employee stays B’s alone', async () => {
    const taken = b.employees[2]!.email;
    const created = await a.api.post('/customer/employees/', {
      first_name: 'Same',
      last_name: 'Address',
      email: taken.toUpperCase(),
    });
    expect(created.statusCode).toBe(201);
    expect(b.employees.map((e) => e.id)).not.toContain(created.json().id);
    const again = await a.api.post('/customer/employees/', {
      first_name: 'Same',
      last_name: 'Again',
      email: taken,
    });
    expect(again.statusCode).toBe(409);

    const inA = await a.api.get(`/customer/employees/?email=${encodeURIComponent(taken)}`);
    expect(inA.json().results.map((e: { id: number }) => e.id)).toEqual([created.json().id]);
    const inB = await b.api.get(`/customer/employees/?email=${encodeURIComponent(taken)}`);
    expect(inB.json().results.map((e: { id: number }) => e.id)).toEqual([b.employees[2]!.id]);
  });

  it('leaves B exactly as it was after everything A tried', async () => {
    expect(await visibleState(b)).toEqual(bBefore);
  });
});
