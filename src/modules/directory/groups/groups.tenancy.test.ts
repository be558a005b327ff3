import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeEmployee, makeGroup } from '../../../../test/helpers/factories.js';
import { deleteMembershipsOfEmployee } from '../employees/employees.offboarding.repository.js';
import { memberGroupIds } from '../employees/employees.repository.js';
import {
  addNewMembers,
  deleteMembershipsOfGroup,
  memberSummaryChunk,
  removeMembers,
  removeMembersBetween,
} from './groups.members.repository.js';
import { replaceMembership } from './groups.membership.commands.js';

// group_members has no account_id: its statements reach the rows through the account's group or
// employee. Called with another account, each must read and change nothing, even given real ids.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

/** A group of one account with two members, and another account. */
async function groupOfAnotherAccount() {
  const owner = (await makeAccount(t.app)).id;
  const other = (await makeAccount(t.app)).id;
  const ann = await makeEmployee(t.app, owner);
  const bo = await makeEmployee(t.app, owner);
  const cy = await makeEmployee(t.app, owner);
  const group = await makeGroup(t.app, owner);
  await replaceMembership(t.app.db, { accountId: owner, groupId: group.id, employeeIds: [ann.id, bo.id] });
  const members = async () => (await memberSummaryChunk(t.app.db, owner, group.id, 0, 10)).count;
  return { owner, other, group, ann, bo, cy, members };
}

describe('group members, asked for by another account', () => {
  it('reads none of the group’s members and none of an employee’s groups', async () => {
    const { other, group, ann, members } = await groupOfAnotherAccount();
    expect(await members()).toBe(2);
    expect(await memberSummaryChunk(t.app.db, other, group.id, 0, 10)).toEqual({
      json: '',
      count: 0,
      lastId: 0,
    });
    expect(await memberGroupIds(t.app.db, other, ann.id)).toEqual([]);
  });

  it('removes no member of the group, by id, by range, or with the employee', async () => {
    const { owner, other, group, ann, bo, members } = await groupOfAnotherAccount();
    expect(await removeMembers(t.app.db, other, group.id, [ann.id, bo.id])).toBe(0);
    const everyone = { after: 0, upTo: Number.MAX_SAFE_INTEGER };
    expect(await removeMembersBetween(t.app.db, other, group.id, everyone, [])).toBe(0);
    expect(await deleteMembershipsOfGroup(t.app.db, other, group.id)).toBe(0);
    await deleteMembershipsOfEmployee(t.app.db, other, ann.id);
    expect(await members()).toBe(2);
    expect(await memberGroupIds(t.app.db, owner, ann.id)).toEqual([group.id]);
  });

  it('adds no member to the group', async () => {
    const { other, group, cy, members } = await groupOfAnotherAccount();
    const into = { groupId: group.id, groupWasEmpty: false };
    expect(await addNewMembers(t.app.db, other, into, [cy.id])).toBe(0);
    expect(await members()).toBe(2);
  });
});
