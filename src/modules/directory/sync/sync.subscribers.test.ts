import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeEmployee, makeGroup } from '../../../../test/helpers/factories.js';
import { deleteEmployee } from '../employees/employees.service.js';
import { deleteGroup } from '../groups/groups.service.js';

// Subscription: `employee.deleted` and `group.deleted` → a tombstone, in the deleting transaction.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const tombstones = (accountId: number) =>
  t.app.db
    .selectFrom('tombstones')
    .select(['resource', 'resource_id'])
    .where('account_id', '=', accountId)
    .orderBy('resource')
    .execute();

describe('sync subscribers', () => {
  it('records a tombstone for each deleted employee and group', async () => {
    const account = await makeAccount(t.app);
    const employee = await makeEmployee(t.app, account.id);
    const group = await makeGroup(t.app, account.id);
    await deleteEmployee(t.app.db, account.id, employee.id);
    await deleteGroup(t.app.db, account.id, group.id);
    expect(await tombstones(account.id)).toEqual([
      { resource: 'employee', resource_id: employee.id },
      { resource: 'group', resource_id: group.id },
    ]);
  });

  it('records none for a deletion that is refused', async () => {
    const account = await makeAccount(t.app);
    const group = await makeGroup(t.app, account.id);
    const now = Date.now();
    const campaign = await t.app.db
      .insertInto('training_campaigns')
      .values({
        account_id: account.id,
        name: 'Running',
        status: 'active',
        start_at: now,
        launched_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db
      .insertInto('campaign_groups')
      .values({ campaign_id: Number(campaign.id), group_id: group.id })
      .execute();
    await expect(deleteGroup(t.app.db, account.id, group.id)).rejects.toMatchObject({ code: 'group_in_use' });
    expect(await tombstones(account.id)).toEqual([]);
  });
});
