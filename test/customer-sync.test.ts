import { beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { validationFailedBody } from './helpers/errors.js';
import { client, makeEmployee, makeGroup, makeKey } from './helpers/factories.js';

/**
 * Incremental sync (issue 12, item 3): `updated_since=` on the employee and group lists, and the
 * ids deleted since an instant, from every path that deletes. On the database the suite runs on.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

let n = 0;
const unique = (label: string) => `${label}.${++n}.${Date.now()}@example.com`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function world() {
  const { key, accountId } = await makeKey(t.app);
  return { api: client(t.app, key), accountId };
}
type Api = Awaited<ReturnType<typeof world>>['api'];

/** Every item of a list, following `next` from page 1. */
async function pageThrough(api: Api, url: string) {
  const items: Array<Record<string, unknown> & { id: number }> = [];
  let next: string | null = url;
  while (next) {
    const res = await api.get(next.replace(/^https?:\/\/[^/]+\/api\/api_gateway/, ''));
    expect(res.statusCode, res.body).toBe(200);
    items.push(...res.json().results);
    next = res.json().next;
  }
  return items;
}

/** A moment strictly after every write so far and before every write to come. */
async function instant(): Promise<string> {
  await sleep(3);
  const at = new Date().toISOString();
  await sleep(3);
  return at;
}

describe('updated_since on the employee and group lists', () => {
  it('lists only what was created or changed at or after the instant, by id, with the usual envelope', async () => {
    const { api, accountId } = await world();
    const before = await makeEmployee(t.app, accountId, { email: unique('before') });
    const changedLater = await makeEmployee(t.app, accountId, { email: unique('changed') });
    const since = await instant();
    const after = await makeEmployee(t.app, accountId, { email: unique('after') });
    await api.request('PATCH', `/customer/employees/${changedLater.id}/`, { last_name: 'Changed' });

    const res = await api.get(`/customer/employees/?updated_since=${encodeURIComponent(since)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: 2, next: null, previous: null });
    expect(res.json().results.map((e: { id: number }) => e.id)).toEqual([changedLater.id, after.id]);
    // An offset names the same instant; combined with email=.
    const offset = new Date(Date.parse(since) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const same = await api.get(`/customer/employees/?updated_since=${encodeURIComponent(offset)}`);
    expect(same.json().count).toBe(2);
    const byEmail = await api.get(
      `/customer/employees/?email=${encodeURIComponent(before.email)}&updated_since=${encodeURIComponent(since)}`,
    );
    expect(byEmail.json()).toMatchObject({ count: 0, results: [] });
    const afterByEmail = await api.get(
      `/customer/employees/?email=${encodeURIComponent(after.email.toUpperCase())}&updated_since=${encodeURIComponent(since)}`,
    );
    expect(afterByEmail.json().results.map((e: { id: number }) => e.id)).toEqual([after.id]);
    // In the future: nothing; page 2 of nothing is past the end.
    const future = await api.get('/customer/employees/?updated_since=2999-01-01T00:00:00Z');
    expect(future.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await api.get('/customer/employees/?updated_since=2999-01-01T00:00:00Z&page=2')).statusCode).toBe(
      404,
    );
  });

  it('answers exactly as before without the parameter', async () => {
    const { api, accountId } = await world();
    await makeEmployee(t.app, accountId);
    await makeGroup(t.app, accountId, 'Sales');
    for (const list of ['/customer/employees/', '/customer/groups/']) {
      const plain = await api.get(list);
      const epoch = await api.get(`${list}?updated_since=1970-01-01T00:00:00Z`);
      expect(epoch.json().results).toEqual(plain.json().results);
      expect(plain.body).toMatch(/^\{"count":1,"next":null,"previous":null,"results":\[\{"id":\d+,/);
    }
  });

  it('refuses an instant that is not ISO 8601 with a time zone (400, naming the parameter)', async () => {
    const { api } = await world();
    const details = {
      updated_since: ['must be an ISO 8601 instant with a time zone, such as 2026-11-22T09:14:03.512Z'],
    };
    for (const bad of [
      'yesterday',
      '2026-11-22',
      '2026-11-22T09:14:03',
      '2026-02-30T00:00:00Z',
      '1764000000000',
      '',
    ]) {
      for (const list of ['/customer/employees/', '/customer/groups/']) {
        const res = await api.get(`${list}?updated_since=${encodeURIComponent(bad)}`);
        expect(res.statusCode, `${list} ${bad}`).toBe(400);
        expect(res.json()).toEqual(validationFailedBody(details));
      }
    }
    const twice = await api.get(
      '/customer/groups/?updated_since=2026-01-01T00:00:00Z&updated_since=2026-01-02T00:00:00Z',
    );
    expect(twice.statusCode).toBe(400);
    // An unencoded `+` arrives as a space: still the offset.
    const plus = await api.get('/customer/groups/?updated_since=2026-01-01T01:00:00+01:00');
    expect(plus.statusCode).toBe(200);
  });

  it('lists groups created, renamed or whose members changed since the instant', async () => {
    const { api, accountId } = await world();
    const old = await makeGroup(t.app, accountId, 'Old');
    const renamed = await makeGroup(t.app, accountId, 'Renamed');
    const joined = await makeGroup(t.app, accountId, 'Joined');
    const person = await makeEmployee(t.app, accountId);
    const since = await instant();
    await api.request('PATCH', `/customer/groups/${renamed.id}/`, { name: 'Renamed again' });
    await api.post(`/customer/groups/${joined.id}/members/`, { employee_ids: [person.id] });
    const created = (await api.post('/customer/groups/', { name: 'New' })).json();
    const res = await api.get(`/customer/groups/?updated_since=${encodeURIComponent(since)}&page_size=2`);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(3);
    expect(res.json().next).toMatch(/updated_since=.*page=2|page=2.*updated_since=/);
    const all = await pageThrough(
      api,
      `/customer/groups/?updated_since=${encodeURIComponent(since)}&page_size=2`,
    );
    expect(all.map((g) => g.id)).toEqual([renamed.id, joined.id, created.id]);
    expect(all[1]).toEqual({ id: joined.id, name: 'Joined', description: '', employee_count: 1 });
    expect(all.map((g) => g.id)).not.toContain(old.id);
  });

  it('pages through many rows sharing one updated_at (a bulk upsert) without missing or repeating one, even while rows change', async () => {
    const { api } = await world();
    const since = await instant();
    const rows = Array.from({ length: 250 }, (_, i) => ({
      first_name: 'Tie',
      last_name: `P${i}`,
      email: unique(`tie${i}`),
    }));
    const created = (await api.post('/customer/employees/bulk/', { employees: rows })).json();
    const ids = created.results.map((r: { id: number }) => r.id);
    const stamps = new Set(
      (await pageThrough(api, '/customer/employees/?page_size=1000')).map((e) => e.updated_at),
    );
    expect(stamps.size).toBe(1);

    // Page 30 at a time; between pages, change rows already read and rows still to come.
    const seen: number[] = [];
    let url: string | null = `/customer/employees/?updated_since=${encodeURIComponent(since)}&page_size=30`;
    let turn = 0;
    while (url) {
      const res = await api.get(url.replace(/^https?:\/\/[^/]+\/api\/api_gateway/, ''));
      seen.push(...res.json().results.map((e: { id: number }) => e.id));
      url = res.json().next;
      const read = ids[turn * 7] as number;
      const toCome = ids[Math.min(249, 240 - turn)] as number;
      for (const id of [read, toCome])
        await api.request('PATCH', `/customer/employees/${id}/`, { last_name: `Changed ${turn}` });
      turn++;
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(new Set(seen).size).toBe(250);
  });
});

describe('deleted ids', () => {
  it('lists the ids deleted through every path, oldest first, since an instant, for this account only', async () => {
    const { api, accountId } = await world();
    const other = await world();
    const admin = await signInAs(t.app, { role: 'account_admin', accountId });
    const base = `/admin/api/accounts/${accountId}`;
    const adminDelete = (path: string) =>
      t.app.inject({ method: 'DELETE', url: `${base}${path}`, headers: admin.headers });

    const gone = await makeEmployee(t.app, accountId);
    const early = await makeEmployee(t.app, accountId);
    await api.request('DELETE', `/customer/employees/${early.id}/`);
    const since = await instant();
    const viaApi = await makeEmployee(t.app, accountId);
    const viaAdmin = await makeEmployee(t.app, accountId);
    const groupViaApi = await makeGroup(t.app, accountId);
    const groupViaAdmin = await makeGroup(t.app, accountId);
    const theirs = await makeEmployee(t.app, other.accountId);
    const theirGroup = await makeGroup(t.app, other.accountId);

    expect((await api.request('DELETE', `/customer/employees/${viaApi.id}/`)).statusCode).toBe(204);
    await sleep(2);
    expect((await adminDelete(`/employees/${viaAdmin.id}`)).statusCode).toBe(204);
    expect((await api.request('DELETE', `/customer/groups/${groupViaApi.id}/`)).statusCode).toBe(204);
    await sleep(2);
    expect((await adminDelete(`/groups/${groupViaAdmin.id}`)).statusCode).toBe(204);
    await other.api.request('DELETE', `/customer/employees/${theirs.id}/`);
    await other.api.request('DELETE', `/customer/groups/${theirGroup.id}/`);
    // A delete that fails (not found, another account's) leaves no tombstone.
    expect((await api.request('DELETE', `/customer/employees/${theirs.id}/`)).statusCode).toBe(404);

    const employees = await api.get(`/customer/employees/deleted/?since=${encodeURIComponent(since)}`);
    expect(employees.statusCode).toBe(200);
    expect(employees.json()).toMatchObject({ count: 2, next: null, previous: null });
    const [first, second] = employees.json().results;
    expect(first).toEqual({
      id: viaApi.id,
      deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(second.id).toBe(viaAdmin.id);
    expect(Date.parse(first.deleted_at)).toBeLessThanOrEqual(Date.parse(second.deleted_at));
    expect(Date.parse(first.deleted_at)).toBeGreaterThanOrEqual(Date.parse(since));

    const everything = await api.get('/customer/employees/deleted/');
    expect(everything.json().results.map((d: { id: number }) => d.id)).toEqual([
      early.id,
      viaApi.id,
      viaAdmin.id,
    ]);
    const paged = await pageThrough(api, '/customer/employees/deleted/?page_size=1');
    expect(paged.map((d) => d.id)).toEqual([early.id, viaApi.id, viaAdmin.id]);

    const groups = await api.get(`/customer/groups/deleted/?since=${encodeURIComponent(since)}`);
    expect(groups.json().results.map((d: { id: number }) => d.id)).toEqual([
      groupViaApi.id,
      groupViaAdmin.id,
    ]);
    const theirList = await other.api.get('/customer/employees/deleted/');
    expect(theirList.json().results.map((d: { id: number }) => d.id)).toEqual([theirs.id]);
    // Still there: the employee never deleted is in no list of deletions.
    expect(everything.json().results.map((d: { id: number }) => d.id)).not.toContain(gone.id);
  });

  it('a deletion that is refused leaves no tombstone (a group a running campaign targets)', async () => {
    const { api, accountId } = await world();
    const group = await makeGroup(t.app, accountId);
    await t.app.db
      .insertInto('training_campaigns')
      .values({
        account_id: accountId,
        name: 'Running',
        status: 'active',
        start_at: null,
        due_at: null,
        launched_at: Date.now(),
        completed_at: null,
        archived_at: null,
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((c) =>
        t.app.db.insertInto('campaign_groups').values({ campaign_id: c.id, group_id: group.id }).execute(),
      );
    expect((await api.request('DELETE', `/customer/groups/${group.id}/`)).statusCode).toBe(409);
    expect((await api.get('/customer/groups/deleted/')).json()).toMatchObject({ count: 0, results: [] });
  });

  it('refuses a bad since (400), pages like every list, and needs read permission', async () => {
    const { api } = await world();
    const res = await api.get('/customer/groups/deleted/?since=last-week');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      validationFailedBody({
        since: ['must be an ISO 8601 instant with a time zone, such as 2026-11-22T09:14:03.512Z'],
      }),
    );
    expect((await api.get('/customer/employees/deleted/?page=0')).statusCode).toBe(400);
    expect((await api.get('/customer/employees/deleted/?page=2')).statusCode).toBe(404);
    expect((await api.get('/customer/employees/deleted')).json()).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
    const { key } = await makeKey(t.app, { grants: ['employees:w', 'groups:w'] });
    const writeOnly = client(t.app, key);
    for (const path of ['/customer/employees/deleted/', '/customer/groups/deleted/']) {
      const refused = await writeOnly.get(path);
      expect(refused.statusCode).toBe(403);
    }
  });
});
