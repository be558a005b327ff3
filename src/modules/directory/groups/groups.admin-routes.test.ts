import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminMethod,
  adminOfOneOfTwoAccounts,
  adminSender,
  signInAs,
} from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded, validationFailedBody } from '../../../../test/helpers/errors.js';
import { client, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';

// The admin API's group routes: per route, 401 without a session → 404 for another account
// (its path, or its group in ours) → 400 → success; and membership changes seen at once by the
// Customer API.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

/** An account with an administrator and an API key (`api`), and another account with a group. */
async function accounts() {
  const two = await adminOfOneOfTwoAccounts(t.app);
  const theirGroup = await makeGroup(t.app, two.theirs, 'Theirs', 'kept');
  const { key } = await makeKey(t.app, { accountId: two.mine });
  return { ...two, theirGroup, api: client(t.app, key) };
}

const ROUTES: Array<[AdminMethod, string, unknown?]> = [
  ['GET', '/groups'],
  ['POST', '/groups', { name: 'Sales' }],
  ['GET', '/groups/:id'],
  ['PATCH', '/groups/:id', { name: 'Renamed' }],
  ['DELETE', '/groups/:id'],
  ['GET', '/groups/:id/members'],
  ['POST', '/groups/:id/members', { employee_ids: [] }],
  ['POST', '/groups/:id/members/remove', { employee_ids: [] }],
  ['POST', '/groups/:id/members/by-email', { emails: [] }],
];

describe('access to the group routes', () => {
  it('answers 401 without a session', async () => {
    const { base, theirGroup } = await accounts();
    for (const [method, path, body] of ROUTES) {
      const res = await send(undefined, method, `${base}${path.replace(':id', String(theirGroup.id))}`, body);
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.json()).toEqual({ error: 'Sign-in required', status: 401, ...coded('sign_in_required') });
    }
  });

  it('answers 404 Account not found on another account’s path', async () => {
    const { theirs, admin, theirGroup } = await accounts();
    for (const [method, path, body] of ROUTES) {
      const url = `/accounts/${theirs}${path.replace(':id', String(theirGroup.id))}`;
      const res = await send(admin, method, url, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'Account not found', status: 404, ...coded('account_not_found') });
    }
  });

  it('answers 404 Group not found for another account’s group on our path, changing nothing', async () => {
    const { base, admin, theirGroup, theirs } = await accounts();
    for (const [method, path, body] of ROUTES.filter(([, path]) => path.includes(':id'))) {
      for (const id of [theirGroup.id, 'abc']) {
        const res = await send(admin, method, `${base}${path.replace(':id', String(id))}`, body);
        expect(res.statusCode, `${method} ${path} ${id}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Group not found', status: 404, ...coded('group_not_found') });
      }
    }
    const operator = await signInAs(t.app, { role: 'operator' });
    const still = await send(operator, 'GET', `/accounts/${theirs}/groups/${theirGroup.id}`);
    expect(still.json()).toMatchObject({ name: 'Theirs', description: 'kept', employee_count: 0 });
  });
});

describe('groups', () => {
  it('lists by name with search and paging, refusing a bad page', async () => {
    const { mine, base, admin } = await accounts();
    const b = await makeGroup(t.app, mine, 'beta');
    const a = await makeGroup(t.app, mine, 'Alpha');
    const list = await send(admin, 'GET', `${base}/groups`);
    expect(list.json()).toEqual({
      count: 2,
      results: [
        {
          id: a.id,
          name: 'Alpha',
          description: '',
          employee_count: 0,
          created_at: new Date(a.created_at).toISOString(),
          updated_at: new Date(a.updated_at).toISOString(),
        },
        expect.objectContaining({ id: b.id, name: 'beta' }),
      ],
    });
    expect((await send(admin, 'GET', `${base}/groups?search=ET`)).json()).toMatchObject({ count: 1 });
    expect((await send(admin, 'GET', `${base}/groups?page=2&page_size=1`)).json().results[0].id).toBe(b.id);
    expect((await send(admin, 'GET', `${base}/groups?page=3&page_size=1`)).json()).toEqual({
      count: 2,
      results: [],
    });
    const bad = await send(admin, 'GET', `${base}/groups?page=abc`);
    expect(bad.json()).toEqual(validationFailedBody({ page: ['must be a positive integer'] }));
  });

  it('creates, shows, renames and deletes a group; the Customer API follows', async () => {
    const { base, admin, api } = await accounts();
    const invalid = await send(admin, 'POST', `${base}/groups`, { name: '', description: 3 });
    expect(invalid.json()).toEqual(validationFailedBody({ description: ['must be a string'] }));
    const empty = await send(admin, 'POST', `${base}/groups`, { name: '  ' });
    expect(empty.json().details).toEqual({ name: ['must not be empty'] });
    const created = await send(admin, 'POST', `${base}/groups`, {
      name: 'Sales',
      description: 'All of sales',
    });
    expect(created.statusCode).toBe(201);
    const group = created.json();
    expect(group).toMatchObject({ name: 'Sales', description: 'All of sales', employee_count: 0 });
    expect((await send(admin, 'GET', `${base}/groups/${group.id}`)).json()).toEqual(group);

    const before = await api.get(`/customer/groups/${group.id}/`);
    const tooLong = await send(admin, 'PATCH', `${base}/groups/${group.id}`, { name: 'x'.repeat(151) });
    expect(tooLong.json().details).toEqual({ name: ['must be at most 150 characters'] });
    const renamed = await send(admin, 'PATCH', `${base}/groups/${group.id}`, { name: 'Sales EMEA' });
    expect(renamed.json()).toMatchObject({ id: group.id, name: 'Sales EMEA', description: 'All of sales' });
    const after = await api.get(`/customer/groups/${group.id}/`);
    expect(after.json().name).toBe('Sales EMEA');
    expect(after.headers.etag).not.toBe(before.headers.etag);

    const deleted = await send(admin, 'DELETE', `${base}/groups/${group.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await api.get(`/customer/groups/${group.id}/`)).statusCode).toBe(404);
    expect((await send(admin, 'GET', `${base}/groups/${group.id}`)).statusCode).toBe(404);
  });
});

describe('members', () => {
  it('adds and removes members; the Customer API shows them at once with a new ETag', async () => {
    const { mine, base, admin, api } = await accounts();
    const ann = await makeEmployee(t.app, mine, { first_name: 'Ann', last_name: 'Zed' });
    const bo = await makeEmployee(t.app, mine, { first_name: 'Bo', last_name: 'Adams' });
    const group = await makeGroup(t.app, mine);
    const v0 = await api.get(`/customer/groups/${group.id}/`);

    const added = await send(admin, 'POST', `${base}/groups/${group.id}/members`, {
      employee_ids: [ann.id, bo.id],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ added: 2, group: { id: group.id, employee_count: 2 } });
    const v1 = await api.get(`/customer/groups/${group.id}/`);
    expect(v1.json().employees.map((e: { id: number }) => e.id)).toEqual([ann.id, bo.id]);
    expect(v1.headers.etag).not.toBe(v0.headers.etag);

    const members = await send(admin, 'GET', `${base}/groups/${group.id}/members`);
    expect(members.json()).toMatchObject({
      count: 2,
      results: [{ id: bo.id, last_name: 'Adams' }, { id: ann.id }],
    });
    const found = await send(admin, 'GET', `${base}/groups/${group.id}/members?search=zed&page_size=1`);
    expect(found.json()).toMatchObject({ count: 1, results: [{ id: ann.id }] });

    const removed = await send(admin, 'POST', `${base}/groups/${group.id}/members/remove`, {
      employee_ids: [ann.id],
    });
    expect(removed.json()).toMatchObject({ removed: 1, group: { employee_count: 1 } });
    const v2 = await api.get(`/customer/groups/${group.id}/`);
    expect(v2.json()).toMatchObject({ employee_count: 1, employees: [{ id: bo.id }] });
    expect(v2.headers.etag).not.toBe(v1.headers.etag);
  });

  it('refuses bad ids: not integers (Validation failed), or not the account’s (Invalid employee_ids)', async () => {
    const { mine, theirs, base, admin } = await accounts();
    const group = await makeGroup(t.app, mine);
    const stranger = await makeEmployee(t.app, theirs);
    for (const path of ['members', 'members/remove']) {
      const typed = await send(admin, 'POST', `${base}/groups/${group.id}/${path}`, {
        employee_ids: [1, 'x', 0],
      });
      expect(typed.json()).toEqual(
        validationFailedBody({
          employee_ids: ['each entry must be an integer', 'each entry must be a positive integer'],
        }),
      );
      const foreign = await send(admin, 'POST', `${base}/groups/${group.id}/${path}`, {
        employee_ids: [stranger.id],
      });
      expect(foreign.json()).toEqual({
        error: 'Invalid employee_ids',
        status: 400,
        ...coded('invalid_employee_ids'),
        details: { invalid_ids: [stranger.id] },
      });
    }
  });

  it('adds members by email and reports the rest; the Customer API shows them', async () => {
    const { mine, base, admin, api } = await accounts();
    const ann = await makeEmployee(t.app, mine, { email: 'ann@example.com' });
    const group = await makeGroup(t.app, mine);
    const before = await api.get(`/customer/groups/${group.id}/`);
    const tooMany = await send(admin, 'POST', `${base}/groups/${group.id}/members/by-email`, {
      emails: Array.from({ length: 10_001 }, (_, i) => `p${i}@example.com`),
    });
    expect(tooMany.json()).toEqual(validationFailedBody({ emails: ['must have at most 10000 entries'] }));
    const res = await send(admin, 'POST', `${base}/groups/${group.id}/members/by-email`, {
      emails: ['ANN@example.com', 'who@example.com', 'ann@example.com', 'WHO@example.com'],
    });
    expect(res.json()).toMatchObject({
      added: 1,
      already_members: 0,
      not_found: ['who@example.com'],
      group: { id: group.id, employee_count: 1 },
    });
    const after = await api.get(`/customer/groups/${group.id}/`);
    expect(after.json().employees).toEqual([
      { id: ann.id, first_name: ann.first_name, last_name: ann.last_name, email: 'ann@example.com' },
    ]);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const again = await send(admin, 'POST', `${base}/groups/${group.id}/members/by-email`, {
      emails: ['ann@example.com'],
    });
    expect(again.json()).toMatchObject({ added: 0, already_members: 1, not_found: [] });
    expect((await api.get(`/customer/groups/${group.id}/`)).headers.etag).toBe(after.headers.etag);
  });
});

describe('the OpenAPI document', () => {
  it('leaves the admin API routes out', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/api_gateway/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/admin/api'))).toEqual([]);
    for (const word of ['employees/import', 'by-email', 'members/remove'])
      expect(JSON.stringify(doc)).not.toContain(word);
  });
});
