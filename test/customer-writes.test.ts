import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { client, makeKey } from './helpers/factories.js';
import { makeActiveCampaign } from './helpers/mail-fixtures.js';

/**
 * The writes an HR sync needs (issue 12, item 3): groups created, renamed and deleted, members
 * added and removed without resending the rest, employees changed and offboarded. On the
 * database the suite runs on (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

let n = 0;
async function world() {
  const { key, accountId } = await makeKey(t.app);
  const api = client(t.app, key);
  const people: number[] = [];
  for (let i = 0; i < 4; i++) {
    n++;
    const res = await api.post('/customer/employees/', {
      first_name: 'Ann',
      last_name: `Lee ${n}`,
      email: `writes.${n}.${Date.now()}@example.com`,
    });
    people.push(res.json().id);
  }
  return { api, accountId, people };
}
const memberIds = (body: { employees: { id: number }[] }) => body.employees.map((e) => e.id);

describe('group writes', () => {
  it('creates a group (201, Location, ETag), renames it, and deletes it (204, then 404)', async () => {
    const { api } = await world();
    const created = await api.post('/customer/groups/', {
      name: '  Sales  ',
      description: 'Everyone in sales',
    });
    expect(created.statusCode).toBe(201);
    const group = created.json();
    expect(group).toMatchObject({
      name: 'Sales',
      description: 'Everyone in sales',
      employee_count: 0,
      employees: [],
    });
    expect(created.headers.location).toMatch(new RegExp(`/api/api_gateway/customer/groups/${group.id}/$`));
    expect(created.headers.etag).toMatch(/^W\/"/);
    const read = await api.get(`/customer/groups/${group.id}/`);
    expect(read.headers.etag).toBe(created.headers.etag);

    const renamed = await api.request('PATCH', `/customer/groups/${group.id}/`, { name: 'Sales EMEA' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Sales EMEA', description: 'Everyone in sales' });
    expect(renamed.headers.etag).not.toBe(created.headers.etag);
    const same = await api.request('PATCH', `/customer/groups/${group.id}/`, { name: 'Sales EMEA' });
    expect(same.headers.etag).toBe(renamed.headers.etag);

    const deleted = await api.request('DELETE', `/customer/groups/${group.id}/`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await api.get(`/customer/groups/${group.id}/`)).json()).toMatchObject({
      code: 'group_not_found',
    });
    expect((await api.request('DELETE', `/customer/groups/${group.id}/`)).statusCode).toBe(404);
  });

  it('refuses a bad name with the contract’s 400 and changes nothing', async () => {
    const { api } = await world();
    const bad = await api.post('/customer/groups/', { name: '   ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', details: { name: [expect.any(String)] } });
    const group = (await api.post('/customer/groups/', { name: 'Kept' })).json();
    const patch = await api.request('PATCH', `/customer/groups/${group.id}/`, { name: 'x'.repeat(151) });
    expect(patch.statusCode).toBe(400);
    expect((await api.get(`/customer/groups/${group.id}/`)).json().name).toBe('Kept');
  });

  it('adds and removes members without touching the others; the ETag moves only on a change', async () => {
    const { api, people } = await world();
    const [a, b, c, d] = people as [number, number, number, number];
    const group = (await api.post('/customer/groups/', { name: 'Team' })).json();
    const url = `/customer/groups/${group.id}/members/`;
    const added = await api.post(url, { employee_ids: [a, b, b] });
    expect(added.statusCode).toBe(200);
    expect(memberIds(added.json())).toEqual([a, b]);
    const more = await api.post(url, { employee_ids: [b, c] });
    expect(memberIds(more.json())).toEqual([a, b, c]);
    expect(more.headers.etag).not.toBe(added.headers.etag);
    const again = await api.post(url, { employee_ids: [c] });
    expect(again.headers.etag).toBe(more.headers.etag);

    const removed = await api.request('DELETE', url, { employee_ids: [a, d] });
    expect(removed.statusCode).toBe(200);
    expect(memberIds(removed.json())).toEqual([b, c]);
    expect(removed.json().employee_count).toBe(2);
  });

  it('refuses another account’s or unknown employee ids as a whole (400 invalid_employee_ids)', async () => {
    const mine = await world();
    const theirs = await world();
    const group = (await mine.api.post('/customer/groups/', { name: 'Team' })).json();
    const url = `/customer/groups/${group.id}/members/`;
    const res = await mine.api.post(url, { employee_ids: [mine.people[0], theirs.people[0], 999_999_999] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid_employee_ids',
      details: { invalid_ids: [theirs.people[0], 999_999_999].sort((x, y) => Number(x) - Number(y)) },
    });
    expect((await mine.api.get(`/customer/groups/${group.id}/`)).json().employees).toEqual([]);
    const malformed = await mine.api.post(url, { employee_ids: ['1'] });
    expect(malformed.statusCode).toBe(400);
  });

  it('keeps a group a running campaign targets (409 group_in_use)', async () => {
    const { api, accountId } = await world();
    const group = (await api.post('/customer/groups/', { name: 'Targeted' })).json();
    const { campaignId } = await makeActiveCampaign(t.app.db, accountId, { name: 'Q4 training' });
    await t.app.db
      .insertInto('campaign_groups')
      .values({ campaign_id: campaignId, group_id: group.id })
      .execute();
    const res = await api.request('DELETE', `/customer/groups/${group.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'group_in_use' });
    expect((await api.get(`/customer/groups/${group.id}/`)).statusCode).toBe(200);
  });
});

describe('employee writes', () => {
  it('changes only the fields sent, and refuses another employee’s address (409)', async () => {
    const { api, people } = await world();
    const [a, b] = people as [number, number];
    const before = (await api.get(`/customer/employees/${a}/`)).json();
    const res = await api.request('PATCH', `/customer/employees/${a}/`, { last_name: 'Lee-Park' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: a,
      first_name: 'Ann',
      last_name: 'Lee-Park',
      email: before.email,
    });
    const taken = (await api.get(`/customer/employees/${b}/`)).json().email.toUpperCase();
    const clash = await api.request('PATCH', `/customer/employees/${a}/`, { email: taken });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ code: 'email_taken' });
    const bad = await api.request('PATCH', `/customer/employees/${a}/`, { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect((await api.get(`/customer/employees/${a}/`)).json().email).toBe(before.email);
  });

  it('offboards an employee: 204, they leave their groups (the ETag moves), the address is free again', async () => {
    const { api, people } = await world();
    const [a, b] = people as [number, number];
    const email = (await api.get(`/customer/employees/${a}/`)).json().email;
    const group = (await api.post('/customer/groups/', { name: 'Team' })).json();
    const withBoth = await api.post(`/customer/groups/${group.id}/members/`, { employee_ids: [a, b] });
    const res = await api.request('DELETE', `/customer/employees/${a}/`);
    expect(res.statusCode).toBe(204);
    expect((await api.get(`/customer/employees/${a}/`)).statusCode).toBe(404);
    const after = await api.get(`/customer/groups/${group.id}/`);
    expect(memberIds(after.json())).toEqual([b]);
    expect(after.headers.etag).not.toBe(withBoth.headers.etag);
    const again = await api.post('/customer/employees/', { first_name: 'Ann', last_name: 'New', email });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).not.toBe(a);
  });

  it('needs the write permission', async () => {
    const { accountId, people } = await world();
    const reader = await makeKey(t.app, { accountId, grants: ['employees:read', 'groups:read'] });
    const api = client(t.app, reader.key);
    expect((await api.request('DELETE', `/customer/employees/${people[0]}/`)).statusCode).toBe(403);
    expect((await api.post('/customer/groups/', { name: 'No' })).statusCode).toBe(403);
  });
});
