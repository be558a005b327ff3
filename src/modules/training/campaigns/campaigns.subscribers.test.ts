import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeEmployee, makeGroup } from '../../../../test/helpers/factories.js';
import { seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import { addGroupMembers } from '../../directory/groups/groups.membership.commands.js';
import { deleteGroup } from '../../directory/groups/groups.service.js';
import { launchCampaign } from './campaigns.launch.commands.js';
import { createCampaign } from './campaigns.service.js';

// Subscriptions: `group.members_added` → newcomers enrolled and invited; `group.deleting` → a
// group a scheduled or active training campaign targets is kept (409 group_in_use).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const DAY_MS = 86_400_000;

async function activeCampaign(enrollNewMembers: boolean) {
  const account = await makeAccount(t.app);
  const group = await makeGroup(t.app, account.id, 'Sales');
  const campaign = await createCampaign(t.app.db, account.id, {
    name: 'Q4 awareness',
    course_keys: ['phishing'],
    group_ids: [group.id],
    due_date: new Date(Date.now() + 5 * DAY_MS).toISOString(),
    enroll_new_members: enrollNewMembers,
  });
  await launchCampaign(t.app.db, { accountId: account.id, campaignId: campaign.id, trigger: 'now' });
  return { accountId: account.id, groupId: group.id, campaignId: campaign.id };
}

const enrolled = (campaignId: number) =>
  t.app.db
    .selectFrom('enrollments')
    .select('employee_id')
    .where('campaign_id', '=', campaignId)
    .orderBy('employee_id')
    .execute()
    .then((rows) => rows.map((r) => r.employee_id));

describe('training campaign subscribers', () => {
  it('enrolls and invites people who join a group an active campaign enrolling newcomers targets', async () => {
    const c = await activeCampaign(true);
    const newcomer = await makeEmployee(t.app, c.accountId);
    await addGroupMembers(t.app.db, c.accountId, c.groupId, [newcomer.id]);
    expect(await enrolled(c.campaignId)).toEqual([newcomer.id]);
    const invitations = await t.app.db
      .selectFrom('messages')
      .select('kind')
      .where('campaign_id', '=', c.campaignId)
      .execute();
    expect(invitations).toEqual([{ kind: 'invitation' }]);
  });

  it('enrolls nobody when the campaign does not enroll newcomers', async () => {
    const c = await activeCampaign(false);
    const newcomer = await makeEmployee(t.app, c.accountId);
    await addGroupMembers(t.app.db, c.accountId, c.groupId, [newcomer.id]);
    expect(await enrolled(c.campaignId)).toEqual([]);
  });

  it('keeps a group an active campaign targets (409 group_in_use, nothing deleted)', async () => {
    const c = await activeCampaign(false);
    await expect(deleteGroup(t.app.db, c.accountId, c.groupId)).rejects.toMatchObject({
      code: 'group_in_use',
      message: 'This group is a target of "Q4 awareness"; stop or change that campaign first',
    });
    const group = await t.app.db
      .selectFrom('groups')
      .select('id')
      .where('id', '=', c.groupId)
      .executeTakeFirst();
    expect(group).toEqual({ id: c.groupId });
  });

  it('names every campaign of either kind that keeps the group, in one refusal', async () => {
    const c = await activeCampaign(false);
    const phishing = await seedPhishingCampaign(t.app, c.accountId, { status: 'running', people: 0 });
    await t.app.db
      .insertInto('phishing_campaign_groups')
      .values({ campaign_id: phishing.campaignId, group_id: c.groupId })
      .execute();
    await expect(deleteGroup(t.app.db, c.accountId, c.groupId)).rejects.toMatchObject({
      code: 'group_in_use',
      message:
        'This group is a target of "Q4 awareness", "Quarterly simulation"; stop or change that campaign first',
    });
  });
});
