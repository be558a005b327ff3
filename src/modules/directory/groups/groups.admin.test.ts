import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import {
  client,
  makeCampaign,
  makeEmployee,
  makeGroup,
  makeKey,
  seedEmployees,
} from '../../../../test/helpers/factories.js';
import { getCampaign } from '../../training/campaigns/campaigns.service.js';
import { deleteEmployeeRow } from '../employees/employees.repository.js';
import {
  addGroupMembers,
  addGroupMembersByEmail,
  removeGroupMembers,
  replaceMembership,
} from './groups.membership.commands.js';
import { deleteGroup, getGroup, groupMembersPage, listGroupsPage, updateGroup } from './groups.service.js';

// The domain services behind the web interface's group pages; HTTP in groups.admin-routes.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const first = { limit: 25, offset: 0 };

async function account() {
  const { accountId, key } = await makeKey(t.app);
  const api = client(t.app, key);
  /** The group as the Customer API shows it, with its ETag. */
  const customerView = async (groupId: number) => {
    const res = await api.get(`/customer/groups/${groupId}/`);
    return { etag: res.headers.etag, ...res.json() };
  };
  return { accountId, customerView };
}

describe('listGroupsPage', () => {
  it('orders by name case-insensitively, then id, searches names and pages', async () => {
    const { accountId } = await account();
    const names = ['sales', 'Engineering', 'Sales EMEA', 'All staff', 'sales'];
    const made = [];
    for (const name of names) made.push(await makeGroup(t.app, accountId, name));
    await makeGroup(t.app, (await makeKey(t.app)).accountId, 'Sales elsewhere');
    const list = async (search: string | undefined, window = first) => {
      const page = await listGroupsPage(t.app.db, accountId, { search }, window);
      return { count: page.count, ids: page.items.map((g) => g.id) };
    };
    const [sales, engineering, emea, all, sales2] = made.map((g) => g.id);
    expect(await list(undefined)).toEqual({ count: 5, ids: [all, engineering, sales, sales2, emea] });
    expect(await list('SALES')).toEqual({ count: 3, ids: [sales, sales2, emea] });
    expect(await list('sales', { limit: 2, offset: 2 })).toEqual({ count: 3, ids: [emea] });
    expect(await list(undefined, { limit: 2, offset: 10 })).toEqual({ count: 5, ids: [] });
    expect(await list('%')).toEqual({ count: 0, ids: [] });
  });
});

describe('updateGroup', () => {
  it('renames with the name rules, moving the Customer API ETag only when something changed', async () => {
    const { accountId, customerView } = await account();
    const group = await makeGroup(t.app, accountId, 'Sales', 'Old');
    const before = await customerView(group.id);
    const renamed = await updateGroup(t.app.db, accountId, group.id, { name: '  Sales EMEA ' });
    expect(renamed).toMatchObject({ name: 'Sales EMEA', description: 'Old', version: group.version + 1 });
    const after = await customerView(group.id);
    expect(after).toMatchObject({ name: 'Sales EMEA', description: 'Old' });
    expect(after.etag).not.toBe(before.etag);

    const same = await updateGroup(t.app.db, accountId, group.id, { name: 'Sales EMEA', description: 'Old' });
    expect(same.version).toBe(renamed.version);
    expect((await customerView(group.id)).etag).toBe(after.etag);

    await expect(
      updateGroup(t.app.db, accountId, group.id, { name: '', description: 'x'.repeat(2001) }),
    ).rejects.toMatchObject({
      status: 400,
      details: { name: ['must not be empty'], description: ['must be at most 2000 characters'] },
    });
  });

  it('does not change another account’s group', async () => {
    const { accountId } = await account();
    const theirs = await makeGroup(t.app, (await makeKey(t.app)).accountId, 'Theirs');
    // Text that is no id reaches a service as 0 (the route's PathId).
    for (const id of [theirs.id, 0]) {
      await expect(updateGroup(t.app.db, accountId, id, { name: 'Mine' })).rejects.toMatchObject({
        status: 404,
        message: 'Group not found',
      });
    }
    expect((await getGroup(t.app.db, theirs.account_id, theirs.id)).name).toBe('Theirs');
  });
});

describe('deleteGroup', () => {
  it('deletes the group with its memberships; campaigns no longer target it', async () => {
    const { accountId, customerView } = await account();
    const ann = await makeEmployee(t.app, accountId);
    const group = await makeGroup(t.app, accountId);
    const kept = await makeGroup(t.app, accountId, 'Kept');
    await addGroupMembers(t.app.db, accountId, group.id, [ann.id]);
    const campaign = await makeCampaign(t.app, accountId, [group.id, kept.id]);
    await expect(deleteGroup(t.app.db, (await makeKey(t.app)).accountId, group.id)).rejects.toMatchObject({
      status: 404,
    });
    await deleteGroup(t.app.db, accountId, group.id);
    expect((await customerView(group.id)).status).toBe(404);
    expect((await getCampaign(t.app.db, accountId, campaign.id)).groups).toEqual([
      { id: kept.id, name: 'Kept' },
    ]);
    await expect(deleteGroup(t.app.db, accountId, group.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('groupMembersPage', () => {
  it('lists members by last name, searches them and counts', async () => {
    const { accountId } = await account();
    const people = [
      ['Ann', 'Zed', 'ann@example.com'],
      ['Bo', 'Adams', 'bo@example.com'],
      ['Cy', 'Smith', 'cy@smith.example.com'],
      ['Di', 'Smith', 'di@example.com'],
    ];
    const made = [];
    for (const [first_name, last_name, email] of people)
      made.push(await makeEmployee(t.app, accountId, { first_name, last_name, email }));
    await makeEmployee(t.app, accountId, { last_name: 'Smith' }); // not a member
    const group = await makeGroup(t.app, accountId);
    await addGroupMembers(
      t.app.db,
      accountId,
      group.id,
      made.map((e) => e.id),
    );
    const page = async (search?: string, window = first) => {
      const result = await groupMembersPage(t.app.db, accountId, group.id, { search }, window);
      return { count: result.count, names: result.items.map((e) => e.first_name) };
    };
    expect(await page()).toEqual({ count: 4, names: ['Bo', 'Cy', 'Di', 'Ann'] });
    expect(await page('smith')).toEqual({ count: 2, names: ['Cy', 'Di'] });
    expect(await page(undefined, { limit: 3, offset: 3 })).toEqual({ count: 4, names: ['Ann'] });
    expect(await page('smith', { limit: 3, offset: 3 })).toEqual({ count: 2, names: [] });
    const other = await makeGroup(t.app, (await makeKey(t.app)).accountId);
    await expect(groupMembersPage(t.app.db, accountId, other.id, {}, first)).rejects.toMatchObject({
      status: 404,
      message: 'Group not found',
    });
  });
});

describe('addGroupMembers and removeGroupMembers', () => {
  it('add and remove some members, moving the count and ETag only when membership changes', async () => {
    const { accountId, customerView } = await account();
    // One after the other, so that their ids ascend a, b, c (the Customer API lists members by id).
    const a = await makeEmployee(t.app, accountId);
    const b = await makeEmployee(t.app, accountId);
    const c = await makeEmployee(t.app, accountId);
    const group = await makeGroup(t.app, accountId);
    const v0 = await customerView(group.id);

    const added = await addGroupMembers(t.app.db, accountId, group.id, [b!.id, a!.id, b!.id]);
    expect(added).toMatchObject({ added: 2, group: { employee_count: 2 } });
    const v1 = await customerView(group.id);
    expect(v1.employees.map((e: { id: number }) => e.id)).toEqual([a!.id, b!.id]);
    expect(v1.etag).not.toBe(v0.etag);

    expect(await addGroupMembers(t.app.db, accountId, group.id, [a!.id, c!.id])).toMatchObject({
      added: 1,
      group: { employee_count: 3 },
    });
    const v2 = await customerView(group.id);
    expect(v2.employee_count).toBe(3);

    expect((await addGroupMembers(t.app.db, accountId, group.id, [a!.id])).added).toBe(0);
    expect((await addGroupMembers(t.app.db, accountId, group.id, [])).added).toBe(0);
    expect((await customerView(group.id)).etag).toBe(v2.etag);

    expect(await removeGroupMembers(t.app.db, accountId, group.id, [a!.id, c!.id, c!.id])).toMatchObject({
      removed: 2,
      group: { employee_count: 1 },
    });
    const v3 = await customerView(group.id);
    expect(v3).toMatchObject({ employee_count: 1, employees: [{ id: b!.id }] });
    expect(v3.etag).not.toBe(v2.etag);
    expect((await removeGroupMembers(t.app.db, accountId, group.id, [a!.id])).removed).toBe(0);
    expect((await customerView(group.id)).etag).toBe(v3.etag);
  });

  it('refuses ids that are not employees of the account, as the Customer API does, and changes nothing', async () => {
    const { accountId, customerView } = await account();
    const mine = await makeEmployee(t.app, accountId);
    const theirs = await makeEmployee(t.app, (await makeKey(t.app)).accountId);
    const group = await makeGroup(t.app, accountId);
    const before = await customerView(group.id);
    for (const change of [addGroupMembers, removeGroupMembers]) {
      await expect(
        change(t.app.db, accountId, group.id, [999_999_999, mine.id, theirs.id]),
      ).rejects.toMatchObject({
        status: 400,
        message: 'Invalid employee_ids',
        details: { invalid_ids: [theirs.id, 999_999_999] },
      });
    }
    expect(await customerView(group.id)).toEqual(before);
    await expect(addGroupMembers(t.app.db, accountId, 0, [mine.id])).rejects.toMatchObject({ status: 404 });
  });

  it('adds 20,000 ids in one set-based statement', async () => {
    const { accountId, customerView } = await account();
    const ids = await seedEmployees(t.app, accountId, 20_000);
    const group = await makeGroup(t.app, accountId);
    expect((await addGroupMembers(t.app.db, accountId, group.id, ids)).added).toBe(20_000);
    expect((await removeGroupMembers(t.app.db, accountId, group.id, ids.slice(5))).removed).toBe(19_995);
    expect((await customerView(group.id)).employee_count).toBe(5);
  });

  it('answers 400, not 500, when an employee is deleted while being added', async () => {
    const { accountId } = await account();
    const ann = await makeEmployee(t.app, accountId);
    const group = await makeGroup(t.app, accountId);
    let changes: Promise<PromiseSettledResult<unknown>[]> | undefined;
    // A deletion still open while the ids are checked (the employee still exists).
    await t.app.db.transaction().execute(async (trx) => {
      await deleteEmployeeRow(trx, accountId, ann.id);
      changes = Promise.allSettled([
        addGroupMembers(t.app.db, accountId, group.id, [ann.id]),
        replaceMembership(t.app.db, { accountId, groupId: group.id, employeeIds: [ann.id] }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    for (const change of (await changes)!) {
      expect(change.status).toBe('rejected');
      expect((change as PromiseRejectedResult).reason).toMatchObject({
        status: 400,
        details: { invalid_ids: [ann.id] },
      });
    }
  });
});

describe('addGroupMembersByEmail', () => {
  it('resolves addresses case-insensitively and reports added, already members and not found', async () => {
    const { accountId, customerView } = await account();
    const ann = await makeEmployee(t.app, accountId, { email: 'Ann@Example.com' });
    const bo = await makeEmployee(t.app, accountId, { email: 'bo@example.com' });
    await makeEmployee(t.app, (await makeKey(t.app)).accountId, { email: 'theirs@example.com' });
    const group = await makeGroup(t.app, accountId);
    await addGroupMembers(t.app.db, accountId, group.id, [bo.id]);
    const result = await addGroupMembersByEmail(t.app.db, accountId, group.id, [
      ' ann@EXAMPLE.com',
      'nobody@example.com',
      'BO@example.com',
      'theirs@example.com',
      '',
      'ANN@example.com',
      'Nobody@Example.com',
      'not an address',
      'nul\u0000@example.com',
    ]);
    expect(result).toMatchObject({
      added: 1,
      already_members: 1,
      not_found: ['nobody@example.com', 'theirs@example.com', 'not an address', 'nul\u0000@example.com'],
      group: { employee_count: 2 },
    });
    const view = await customerView(group.id);
    expect(view.employees.map((e: { id: number }) => e.id)).toEqual([ann.id, bo.id]);
  });

  it('takes 10,000 addresses and refuses more', async () => {
    const { accountId } = await account();
    await seedEmployees(t.app, accountId, 10_000);
    const emails = (
      await t.app.db.selectFrom('employees').select('email').where('account_id', '=', accountId).execute()
    ).map((e) => e.email.toUpperCase());
    const group = await makeGroup(t.app, accountId);
    const result = await addGroupMembersByEmail(t.app.db, accountId, group.id, emails);
    expect(result).toMatchObject({ added: 10_000, already_members: 0, not_found: [] });
    await expect(
      addGroupMembersByEmail(t.app.db, accountId, group.id, [...emails, 'one@more.com']),
    ).rejects.toMatchObject({ status: 400, details: { emails: ['must have at most 10000 entries'] } });
  });
});
