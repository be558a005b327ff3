import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeCampaign, makeGroup } from '../../../../test/helpers/factories.js';
import { campaignMessages, makeActiveCampaign } from '../../../../test/helpers/mail-fixtures.js';
import { queueCampaignMessages } from '../../mail/mail.queue.commands.js';
import { courseKeysOfCampaigns } from '../courses/courses.repository.js';
import { claimReminderRound, recordReminderCount } from '../enrollments/enrollments.reminders.repository.js';
import {
  countEnrollments,
  enrollGroupMembers,
  enrollJoiningMembers,
  findCampaignEnrollment,
  listEnrollments,
} from '../enrollments/enrollments.repository.js';
import { completionsByDay, courseCounts, statusCounts } from './campaigns.progress.repository.js';
import { enrollmentCounts } from './campaigns.repository.js';
import {
  groupsOfCampaigns,
  replaceCampaignCourses,
  replaceCampaignGroups,
} from './campaigns.targets.service.js';

// The account comes first in every repository call, and SQL filters by it: given another
// account's campaign, each function reads nothing and writes nothing. Each case also acts for
// the right account, so that the filter, not an empty fixture, is what the test sees.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function twoAccounts() {
  const mine = await makeAccount(t.app);
  const theirs = await makeAccount(t.app);
  const campaign = await makeActiveCampaign(t.app.db, mine.id, { people: 2, courses: ['phishing'] });
  const myGroup = await makeGroup(t.app, mine.id);
  const theirGroup = await makeGroup(t.app, theirs.id);
  await t.app.db
    .insertInto('group_members')
    .values(campaign.employeeIds.map((employee_id) => ({ group_id: myGroup.id, employee_id })))
    .execute();
  await replaceCampaignGroups(t.app.db, mine.id, campaign.campaignId, [myGroup.id]);
  return { mine: mine.id, theirs: theirs.id, campaign, myGroup, theirGroup };
}

const targets = (campaignId: number) =>
  t.app.db
    .selectFrom('campaign_groups')
    .select('group_id')
    .where('campaign_id', '=', campaignId)
    .execute()
    .then((rows) => rows.map((r) => r.group_id));

describe("another account's campaign", () => {
  it('keeps its groups and courses whatever another account sets', async () => {
    const { mine, theirs, campaign, myGroup, theirGroup } = await twoAccounts();
    await replaceCampaignGroups(t.app.db, theirs, campaign.campaignId, [theirGroup.id]);
    await replaceCampaignCourses(t.app.db, theirs, campaign.campaignId, ['passwords-and-mfa']);
    expect(await targets(campaign.campaignId)).toEqual([myGroup.id]);
    expect(
      (await courseKeysOfCampaigns(t.app.db, mine, [campaign.campaignId])).get(campaign.campaignId),
    ).toEqual(['phishing']);
  });

  it('never targets another account’s group, even from its own campaign', async () => {
    const { mine, campaign, myGroup, theirGroup } = await twoAccounts();
    await replaceCampaignGroups(t.app.db, mine, campaign.campaignId, [theirGroup.id, myGroup.id]);
    expect(await targets(campaign.campaignId)).toEqual([myGroup.id]);
  });

  it('shows no groups, courses or figures to another account', async () => {
    const { mine, theirs, campaign, myGroup } = await twoAccounts();
    const id = campaign.campaignId;
    expect((await groupsOfCampaigns(t.app.db, mine, [id])).get(id)).toEqual([
      { id: myGroup.id, name: myGroup.name },
    ]);
    expect((await groupsOfCampaigns(t.app.db, theirs, [id])).get(id)).toEqual([]);
    expect((await courseKeysOfCampaigns(t.app.db, theirs, [id])).get(id)).toEqual([]);
    expect((await enrollmentCounts(t.app.db, mine, [id])).get(id)).toEqual({ enrolled: 2, completed: 0 });
    expect((await enrollmentCounts(t.app.db, theirs, [id])).get(id)).toEqual({ enrolled: 0, completed: 0 });
    expect((await statusCounts(t.app.db, mine, id, Date.now())).enrolled).toBe(2);
    expect(await statusCounts(t.app.db, theirs, id, Date.now())).toEqual({
      enrolled: 0,
      completed: 0,
      started: 0,
      own_overdue: 0,
      own_overdue_started: 0,
      average_score: null,
    });
    await t.app.db
      .updateTable('enrollments')
      .set({ completed_at: Date.now() })
      .where('campaign_id', '=', id)
      .execute();
    expect((await completionsByDay(t.app.db, mine, id)).size).toBe(1);
    expect((await completionsByDay(t.app.db, theirs, id)).size).toBe(0);
    await t.app.db
      .insertInto('enrollment_courses')
      .values({
        enrollment_id: campaign.enrollmentIds[0] as number,
        course_key: 'phishing',
        started_at: 1,
        updated_at: 1,
      })
      .execute();
    expect((await courseCounts(t.app.db, mine, id)).get('phishing')?.started).toBe(1);
    expect((await courseCounts(t.app.db, theirs, id)).size).toBe(0);
  });

  it('lists none of its enrollments to another account', async () => {
    const { mine, theirs, campaign } = await twoAccounts();
    const filter = { campaignId: campaign.campaignId, dueAt: null, now: Date.now() };
    expect(await countEnrollments(t.app.db, mine, filter)).toBe(2);
    expect(await countEnrollments(t.app.db, theirs, filter)).toBe(0);
    expect(await listEnrollments(t.app.db, theirs, filter, 10, 0)).toEqual([]);
    const [enrollmentId] = campaign.enrollmentIds as [number];
    expect(await findCampaignEnrollment(t.app.db, mine, campaign.campaignId, enrollmentId)).toBeDefined();
    expect(await findCampaignEnrollment(t.app.db, theirs, campaign.campaignId, enrollmentId)).toBeUndefined();
  });

  it('enrolls and invites nobody for another account', async () => {
    const { mine, theirs, myGroup } = await twoAccounts();
    const draft = await makeCampaign(t.app, mine, [myGroup.id]);
    const everyone = { now: Date.now(), after: 0, upTo: Number.MAX_SAFE_INTEGER };
    expect(await enrollGroupMembers(t.app.db, { accountId: theirs, campaignId: draft.id, ...everyone })).toBe(
      0,
    );
    expect(await enrollGroupMembers(t.app.db, { accountId: mine, campaignId: draft.id, ...everyone })).toBe(
      2,
    );
    const queue = { campaignId: draft.id, kind: 'reminder' as const, round: 3, now: Date.now() };
    expect(await queueCampaignMessages(t.app.db, { accountId: theirs, ...queue })).toBe(0);
    expect(await queueCampaignMessages(t.app.db, { accountId: mine, ...queue })).toBe(2);
    expect(await campaignMessages(t.app.db, draft.id)).toHaveLength(2);
  });

  it('takes no newcomers into a campaign of another account', async () => {
    const { mine, theirs, campaign } = await twoAccounts();
    const theirCampaign = await makeActiveCampaign(t.app.db, theirs, { people: 1 });
    const newcomers = { employeeIds: campaign.employeeIds, now: Date.now() };
    const joined = { accountId: mine, campaignId: theirCampaign.campaignId, ...newcomers };
    expect(await enrollJoiningMembers(t.app.db, joined)).toEqual([]);
    const ownCampaign = await makeActiveCampaign(t.app.db, mine, { people: 1 });
    const own = { accountId: mine, campaignId: ownCampaign.campaignId, ...newcomers };
    expect(await enrollJoiningMembers(t.app.db, own)).toHaveLength(2);
  });

  it('records no reminder round for another account', async () => {
    const { mine, theirs, campaign } = await twoAccounts();
    const round = { campaignId: campaign.campaignId, days: 3, now: Date.now() };
    expect(await claimReminderRound(t.app.db, theirs, round)).toBe(false);
    expect(await claimReminderRound(t.app.db, mine, round)).toBe(true);
    await recordReminderCount(t.app.db, theirs, round, 99);
    const row = await t.app.db
      .selectFrom('campaign_reminders')
      .selectAll()
      .where('campaign_id', '=', campaign.campaignId)
      .executeTakeFirstOrThrow();
    expect(row.queued_count).toBe(0);
  });
});
