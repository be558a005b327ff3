import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeKey } from '../../../../test/helpers/factories.js';
import { makeScimToken, type ScimClient, scimClient } from '../../../../test/helpers/scim.js';
import { queueCampaignMessages } from '../../mail/mail.queue.commands.js';

// A person deactivated through SCIM (active false) stays readable everywhere, but is no longer
// enrolled by a launch or as a newcomer, invited, reminded, or sent a simulation.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const DAY = 86_400_000;
const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const at = (ms: number) => new Date(ms).toISOString();

async function person(scim: ScimClient, name: string, active = true): Promise<number> {
  const res = await scim.post('/Users', {
    userName: `${name.toLowerCase()}@deactivation.example`,
    name: { givenName: name, familyName: 'Test' },
    active,
  });
  expect(res.statusCode, res.body).toBe(201);
  return Number(res.json().id);
}

async function setup() {
  const { token, accountId } = await makeScimToken(t.app);
  const scim = scimClient(t.app, token);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId });
  const ann = await person(scim, 'Ann');
  const bob = await person(scim, 'Bob');
  const cy = await person(scim, 'Cy', false);
  const group = await scim.post('/Groups', {
    displayName: 'Everyone',
    members: [ann, bob, cy].map((id) => ({ value: String(id) })),
  });
  expect(group.statusCode, group.body).toBe(201);
  return {
    scim,
    accountId,
    admin,
    base: `/accounts/${accountId}`,
    ann,
    bob,
    cy,
    groupId: Number(group.json().id),
  };
}

const enrolled = async (campaignId: number) =>
  (
    await t.app.db
      .selectFrom('enrollments')
      .select('employee_id')
      .where('campaign_id', '=', campaignId)
      .orderBy('employee_id')
      .execute()
  ).map((r) => Number(r.employee_id));

const invited = async (accountId: number, campaignId: number) =>
  (
    await t.app.db
      .selectFrom('messages as m')
      .innerJoin('enrollments as e', 'e.id', 'm.enrollment_id')
      .select('e.employee_id')
      .where('m.account_id', '=', accountId)
      .where('m.campaign_id', '=', campaignId)
      .where('m.kind', '=', 'invitation')
      .orderBy('e.employee_id')
      .execute()
  ).map((r) => Number(r.employee_id));

describe('a deactivated employee', () => {
  it('is not enrolled or invited by a launch, nor as a newcomer; is not reminded once deactivated', async () => {
    const { scim, accountId, admin, base, ann, bob, groupId } = await setup();
    const draft = await send(admin, 'POST', `${base}/campaigns`, {
      name: 'Awareness',
      course_keys: ['phishing'],
      group_ids: [groupId],
      due_date: day(30),
      reminder_days: [1],
      enroll_new_members: true,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const campaignId = draft.json().id;
    const launched = await send(admin, 'POST', `${base}/campaigns/${campaignId}/launch`);
    expect(launched.statusCode, launched.body).toBe(200);
    expect(await enrolled(campaignId)).toEqual([ann, bob]);
    expect(await invited(accountId, campaignId)).toEqual([ann, bob]);

    // Newcomers: a deactivated one is not enrolled, an active one is.
    const dee = await person(scim, 'Dee', false);
    const eve = await person(scim, 'Eve');
    const added = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: String(dee) }, { value: String(eve) }] }],
    });
    expect(added.statusCode, added.body).toBe(204);
    expect(await enrolled(campaignId)).toEqual([ann, bob, eve]);
    expect(await invited(accountId, campaignId)).toEqual([ann, bob, eve]);

    // Bob leaves: his enrollment stays (history), but no reminder is queued for him.
    await scim.patch(`/Users/${bob}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    const reminders = await t.app.db.transaction().execute((trx) =>
      queueCampaignMessages(trx, {
        accountId,
        campaignId,
        kind: 'reminder',
        round: 1,
        now: Date.now(),
        incompleteOnly: true,
      }),
    );
    expect(reminders).toBe(2);
    expect(await enrolled(campaignId)).toEqual([ann, bob, eve]);
  });

  it('is not a recipient of a phishing launch', async () => {
    const { admin, base, ann, bob, cy, groupId } = await setup();
    const draft = await send(admin, 'POST', `${base}/phishing/campaigns`, {
      name: 'Simulation',
      group_ids: [groupId],
      template_keys: ['builtin:invoice-final-notice'],
      window_start_at: at(Date.now() + DAY),
      window_end_at: at(Date.now() + 15 * DAY),
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      hour_start: 9,
      hour_end: 17,
      time_zone: 'Europe/Berlin',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const launched = await send(admin, 'POST', `${base}/phishing/campaigns/${draft.json().id}/launch`);
    expect(launched.statusCode, launched.body).toBe(200);
    const recipients = await t.app.db
      .selectFrom('phishing_recipients')
      .select('employee_id')
      .where('campaign_id', '=', draft.json().id)
      .orderBy('employee_id')
      .execute();
    expect(recipients.map((r) => Number(r.employee_id))).toEqual([ann, bob]);
    expect(recipients.map((r) => Number(r.employee_id))).not.toContain(cy);
  });

  it('stays readable: SCIM, the Customer API (v2.2.0 fields only) and the admin API (with active false)', async () => {
    const { scim, accountId, admin, base, cy } = await setup();
    expect((await scim.get(`/Users/${cy}`)).json().active).toBe(false);
    const { key } = await makeKey(t.app, { accountId });
    const customer = await client(t.app, key).get(`/customer/employees/${cy}/`);
    expect(customer.statusCode).toBe(200);
    expect(customer.json()).not.toHaveProperty('active');
    const list = await send(admin, 'GET', `${base}/employees?search=cy`);
    expect(list.json().results).toEqual([expect.objectContaining({ id: cy, active: false })]);
    const page = await send(admin, 'GET', `${base}/employees/${cy}`);
    expect(page.json()).toMatchObject({ id: cy, active: false });
  });
});
