import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeGroup } from '../../../../test/helpers/factories.js';
import { seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import { deleteEmployee } from '../../directory/employees/employees.service.js';
import { deleteGroup } from '../../directory/groups/groups.service.js';

// Subscriptions: `group.deleting` → a group a scheduled or running phishing campaign targets is
// kept (409 group_in_use), drafts let go of it; `employee.deleting` → simulations stay, marked.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const targets = (groupId: number, campaignId: number) =>
  t.app.db
    .insertInto('phishing_campaign_groups')
    .values({ campaign_id: campaignId, group_id: groupId })
    .execute();

describe('phishing campaign subscribers', () => {
  it('keeps a group a running campaign targets (409 group_in_use)', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { status: 'running', people: 1 });
    await targets(c.groupId, c.campaignId);
    await expect(deleteGroup(t.app.db, account.id, c.groupId)).rejects.toMatchObject({
      code: 'group_in_use',
    });
  });

  it('lets a draft campaign lose a deleted group', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { status: 'draft', people: 0 });
    const group = await makeGroup(t.app, account.id);
    await targets(group.id, c.campaignId);
    await deleteGroup(t.app.db, account.id, group.id);
    const left = await t.app.db
      .selectFrom('phishing_campaign_groups')
      .select('group_id')
      .where('campaign_id', '=', c.campaignId)
      .execute();
    expect(left).toEqual([]);
  });

  it('keeps a deleted employee’s simulation, marked with the deletion time', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { status: 'running', people: 1 });
    const person = c.people[0]!;
    await deleteEmployee(t.app.db, account.id, person.employee.id);
    const kept = await t.app.db
      .selectFrom('phishing_recipients')
      .select(['employee_id', 'employee_deleted_at'])
      .where('id', '=', person.id)
      .executeTakeFirstOrThrow();
    expect(kept.employee_id).toBe(person.employee.id);
    expect(kept.employee_deleted_at).not.toBeNull();
  });
});
