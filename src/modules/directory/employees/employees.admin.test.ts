import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import { addNewMembers, unknownEmployeeIds } from '../groups/groups.members.repository.js';
import { replaceMembership } from '../groups/groups.membership.commands.js';
import { lockGroup, recordGroupChange } from '../groups/groups.repository.js';
import { deleteEmployee, getEmployeeWithGroups, updateEmployee } from './employees.service.js';

// The domain services behind the web interface's employee page (editing, deleting); searching
// is tested in employees.search.test.ts, the HTTP routes in employees.admin-routes.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function accountWith(people: Array<[string, string, string]>) {
  const { accountId, key } = await makeKey(t.app);
  const employees = [];
  for (const [first_name, last_name, email] of people)
    employees.push(await makeEmployee(t.app, accountId, { first_name, last_name, email }));
  return { accountId, key, employees };
}

const PEOPLE: Array<[string, string, string]> = [
  ['Ann', 'Lee', 'ann.lee@example.com'],
  ['bo', 'smith', 'bo@example.com'],
  ['Cy', 'Smithers', 'cy@example.org'],
];

describe('getEmployeeWithGroups', () => {
  it('lists the groups by name, and treats another account’s employee as not found', async () => {
    const { accountId, employees } = await accountWith(PEOPLE.slice(0, 1));
    const [ann] = employees as [(typeof employees)[0]];
    const b = await makeGroup(t.app, accountId, 'b team');
    const a = await makeGroup(t.app, accountId, 'A team');
    await makeGroup(t.app, accountId, 'Unrelated');
    for (const group of [a, b])
      await replaceMembership(t.app.db, { accountId, groupId: group.id, employeeIds: [ann.id] });
    expect((await getEmployeeWithGroups(t.app.db, accountId, ann.id)).groups).toEqual([
      { id: a.id, name: 'A team' },
      { id: b.id, name: 'b team' },
    ]);
    const other = await accountWith([]);
    await expect(getEmployeeWithGroups(t.app.db, other.accountId, ann.id)).rejects.toMatchObject({
      status: 404,
      message: 'Employee not found',
    });
  });
});

describe('updateEmployee', () => {
  it('changes only the fields given, with the create rules', async () => {
    const { accountId, employees } = await accountWith(PEOPLE.slice(0, 1));
    const ann = employees[0]!;
    const updated = await updateEmployee(t.app.db, accountId, ann.id, { last_name: '  Lee-Smith ' });
    expect(updated).toMatchObject({
      first_name: 'Ann',
      last_name: 'Lee-Smith',
      email: 'ann.lee@example.com',
    });
    expect(updated.updated_at).toBeGreaterThanOrEqual(ann.updated_at);
    expect(updated.created_at).toBe(ann.created_at);

    const moved = await updateEmployee(t.app.db, accountId, ann.id, { email: ' Ann@Example.NET ' });
    expect(moved.email).toBe('Ann@Example.NET');
    expect(moved.email_normalized).toBe('ann@example.net');

    await expect(
      updateEmployee(t.app.db, accountId, ann.id, { first_name: ' ', email: 'not-an-address' }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'Validation failed',
      details: { first_name: ['must not be empty'], email: ['must be a valid email address'] },
    });
    expect(await updateEmployee(t.app.db, accountId, ann.id, {})).toEqual(moved);
  });

  it('answers 409 for an address another employee of the account has, in any letter case', async () => {
    const { accountId, employees } = await accountWith(PEOPLE.slice(0, 2));
    await expect(
      updateEmployee(t.app.db, accountId, employees[1]!.id, { email: 'ANN.LEE@example.com' }),
    ).rejects.toMatchObject({ status: 409, message: 'Email already exists' });
    // Its own address in another case is no conflict.
    const same = await updateEmployee(t.app.db, accountId, employees[0]!.id, {
      email: 'Ann.Lee@example.com',
    });
    expect(same.email).toBe('Ann.Lee@example.com');
    // Another account may hold the same address.
    const other = await accountWith([['Bo', 'Smith', 'bo@example.com']]);
    expect(
      (
        await updateEmployee(t.app.db, other.accountId, other.employees[0]!.id, {
          email: 'ann.lee@example.com',
        })
      ).email,
    ).toBe('ann.lee@example.com');
  });

  it('does not change another account’s employee', async () => {
    const { accountId, employees } = await accountWith(PEOPLE.slice(0, 1));
    const other = await accountWith([]);
    // Text that is no id reaches a service as 0 (the route's PathId).
    for (const id of [employees[0]!.id, 0, 99_999_999]) {
      await expect(updateEmployee(t.app.db, other.accountId, id, { first_name: 'X' })).rejects.toMatchObject({
        status: 404,
        message: 'Employee not found',
      });
    }
    expect((await getEmployeeWithGroups(t.app.db, accountId, employees[0]!.id)).first_name).toBe('Ann');
  });
});

describe('deleteEmployee', () => {
  it('removes the employee from every group, moving their counts and Customer API ETags', async () => {
    const { accountId, key, employees } = await accountWith(PEOPLE.slice(0, 3));
    const [ann, bo, cy] = employees as [(typeof employees)[0], (typeof employees)[0], (typeof employees)[0]];
    const both = await makeGroup(t.app, accountId);
    const without = await makeGroup(t.app, accountId);
    await replaceMembership(t.app.db, { accountId, groupId: both.id, employeeIds: [ann.id, bo.id] });
    await replaceMembership(t.app.db, { accountId, groupId: without.id, employeeIds: [cy.id] });
    const api = client(t.app, key);
    const before = await api.get(`/customer/groups/${both.id}/`);
    const untouched = await api.get(`/customer/groups/${without.id}/`);

    await deleteEmployee(t.app.db, accountId, ann.id);

    const after = await api.get(`/customer/groups/${both.id}/`);
    expect(after.json()).toMatchObject({ employee_count: 1, employees: [{ id: bo.id }] });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await api.get(`/customer/groups/${without.id}/`)).headers.etag).toBe(untouched.headers.etag);
    expect((await api.get(`/customer/employees/${ann.id}/`)).statusCode).toBe(404);
    await expect(deleteEmployee(t.app.db, accountId, ann.id)).rejects.toMatchObject({ status: 404 });
  });

  it('does not delete another account’s employee', async () => {
    const { accountId, employees } = await accountWith(PEOPLE.slice(0, 1));
    const other = await accountWith([]);
    await expect(deleteEmployee(t.app.db, other.accountId, employees[0]!.id)).rejects.toMatchObject({
      status: 404,
      message: 'Employee not found',
    });
    expect((await getEmployeeWithGroups(t.app.db, accountId, employees[0]!.id)).id).toBe(employees[0]!.id);
  });

  it('counts a membership added by a transaction still open when the delete starts', async () => {
    const { accountId, key } = await makeKey(t.app);
    const ann = await makeEmployee(t.app, accountId);
    const group = await makeGroup(t.app, accountId);
    let deletion: Promise<void> | undefined;
    // What replaceMembership does, held open while the deletion starts.
    await t.app.db.transaction().execute(async (trx) => {
      const locked = await lockGroup(trx, accountId, group.id);
      expect(await unknownEmployeeIds(trx, accountId, [ann.id])).toEqual([]);
      await addNewMembers(trx, accountId, { groupId: group.id, groupWasEmpty: true }, [ann.id]);
      await recordGroupChange(
        trx,
        accountId,
        group.id,
        { employee_count: locked!.employee_count + 1 },
        Date.now(),
      );
      deletion = deleteEmployee(t.app.db, accountId, ann.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await deletion;
    const detail = (await client(t.app, key).get(`/customer/groups/${group.id}/`)).json();
    expect(detail).toMatchObject({ employee_count: 0, employees: [] });
  });

  it('keeps every group count exact when deletions race with membership changes', async () => {
    const { accountId, key } = await makeKey(t.app);
    const api = client(t.app, key);
    // Each round: employees 0–5 in three groups; six replacements add 6–8 and drop 0–2 while
    // 2–7 are deleted. Losing a race must give a 400 for a deleted id, never a 500 or a wrong count.
    for (let round = 0; round < 10; round++) {
      const ids: number[] = [];
      for (let i = 0; i < 9; i++) ids.push((await makeEmployee(t.app, accountId)).id);
      const groups = await Promise.all([1, 2, 3].map(() => makeGroup(t.app, accountId)));
      for (const group of groups)
        await replaceMembership(t.app.db, { accountId, groupId: group.id, employeeIds: ids.slice(0, 6) });
      const doomed = ids.slice(2, 8);
      const puts = groups.flatMap((group, g) =>
        [1, 2].map((i) => api.put(`/customer/groups/${group.id}/`, { employee_ids: ids.slice(g + i, 9) })),
      );
      const deletes = doomed.map((id) => deleteEmployee(t.app.db, accountId, id));
      const answers = await Promise.all(puts);
      await Promise.all(deletes);
      for (const res of answers) {
        expect([200, 400], res.body).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.json().error).toBe('Invalid employee_ids');
      }
      for (const group of groups) {
        const detail = (await api.get(`/customer/groups/${group.id}/`)).json();
        expect(detail.employee_count, `round ${round}`).toBe(detail.employees.length);
        for (const member of detail.employees) expect(doomed).not.toContain(member.id);
      }
    }
  });
});
