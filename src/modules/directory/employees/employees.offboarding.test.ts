import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import { learnerClient, makeEnrollment } from '../../../../test/helpers/learner.js';
import { queueCampaignMessages } from '../../mail/mail.queue.commands.js';
import { addGroupMembers } from '../groups/groups.membership.commands.js';

// Offboarding (issue 10): deleting an employee keeps their training record, anonymised. A
// completion is audit evidence: the campaign still counts it and lists it as "Deleted employee
// #<id>", with no name or address; the employee is gone everywhere else, and the address is free.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);
const DAY_MS = 86_400_000;

/** A campaign in `status` with Émile (who completed it, score 90, and was sent an invitation) and Bo (who did not). */
async function campaignWithCompletion(status: 'active' | 'completed' = 'completed') {
  const emile = await makeEnrollment(t.app.db, {
    status,
    employee: { first_name: 'Émile', last_name: 'Öztürk', email: 'Emile.Ozturk@example.com' },
  });
  const { accountId, campaignId } = emile;
  const completedAt = Date.now() - DAY_MS;
  await t.app.db
    .updateTable('enrollments')
    .set({
      started_at: completedAt - 3_600_000,
      completed_at: completedAt,
      score: 90,
      last_activity_at: completedAt,
    })
    .where('id', '=', emile.enrollmentId)
    .execute();
  await t.app.db
    .insertInto('messages')
    .values({
      account_id: accountId,
      campaign_id: campaignId,
      enrollment_id: emile.enrollmentId,
      kind: 'invitation',
      status: 'sent',
      next_attempt_at: completedAt,
      to_address: 'Emile.Ozturk@example.com',
      subject: 'Your training',
      body_text: 'Hello Émile',
      created_at: completedAt,
      sent_at: completedAt,
    })
    .execute();
  const bo = await makeEmployee(t.app, accountId, { first_name: 'Bo', last_name: 'Chen' });
  const boEnrollment = await t.app.db
    .insertInto('enrollments')
    .values({ account_id: accountId, campaign_id: campaignId, employee_id: bo.id, enrolled_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { key } = await makeKey(t.app, { accountId });
  const admin = await signInAs(t.app, { role: 'account_admin', accountId });
  return {
    emile,
    bo,
    boEnrollmentId: boEnrollment.id,
    accountId,
    campaignId,
    completedAt,
    api: client(t.app, key),
    admin,
    base: `/accounts/${accountId}`,
  };
}

describe('deleting an employee who completed a campaign', () => {
  it('keeps the completion in the campaign’s figures and lists, anonymised', async () => {
    const c = await campaignWithCompletion();
    const group = await makeGroup(t.app, c.accountId);
    await addGroupMembers(t.app.db, c.accountId, group.id, [c.emile.employeeId, c.bo.id]);

    const deleted = await send(c.admin, 'DELETE', `${c.base}/employees/${c.emile.employeeId}`);
    expect(deleted.statusCode).toBe(204);

    // Customer API: the campaign still counts Émile's completion…
    const campaign = await c.api.get(`/customer/campaigns/training/${c.campaignId}/`);
    expect(campaign.json()).toMatchObject({ enrolled_count: 2, completed_count: 1, completion_rate: 0.5 });
    // …and lists it under a former id, with no name or address.
    const enrollments = await c.api.get(`/customer/campaigns/training/${c.campaignId}/enrollments/`);
    expect(enrollments.statusCode).toBe(200);
    expect(enrollments.json()).toMatchObject({ count: 2 });
    expect(enrollments.json().results[0]).toEqual({
      id: c.emile.enrollmentId,
      employee: {
        id: c.emile.employeeId,
        first_name: 'Deleted employee',
        last_name: `#${c.emile.employeeId}`,
        email: '',
      },
      status: 'completed',
      enrolled_at: expect.any(String),
      started_at: new Date(c.completedAt - 3_600_000).toISOString(),
      completed_at: new Date(c.completedAt).toISOString(),
      score: 90,
    });
    expect(enrollments.json().results[1].employee).toMatchObject({ id: c.bo.id, first_name: 'Bo' });
    expect(enrollments.body).not.toMatch(/Émile|Öztürk|Ozturk/i);

    // The web interface: the same figures, the record marked, after the living; nothing to find by the old name.
    const progress = await send(c.admin, 'GET', `${c.base}/campaigns/${c.campaignId}/progress`);
    expect(progress.json().counts).toMatchObject({ enrolled: 2, completed: 1 });
    const people = await send(c.admin, 'GET', `${c.base}/campaigns/${c.campaignId}/enrollments`);
    expect(
      people.json().results.map((e: { employee: { first_name: string } }) => e.employee.first_name),
    ).toEqual(['Bo', 'Deleted employee']);
    expect(people.json().results[1]).toMatchObject({
      employee_deleted_at: expect.any(String),
      status: 'completed',
      score: 90,
      invitation: null,
    });
    for (const search of ['öztürk', 'emile', 'ozturk@']) {
      const found = await send(
        c.admin,
        'GET',
        `${c.base}/campaigns/${c.campaignId}/enrollments?search=${search}`,
      );
      expect(found.json().count, search).toBe(0);
    }
    const completed = await send(
      c.admin,
      'GET',
      `${c.base}/campaigns/${c.campaignId}/enrollments?status=completed`,
    );
    expect(completed.json().count).toBe(1);
    const csv = await send(c.admin, 'GET', `${c.base}/campaigns/${c.campaignId}/enrollments.csv`);
    const rows: string[][] = parse(csv.body, { from_line: 2 });
    expect(rows.find((r) => r[0] === String(c.emile.employeeId))?.slice(0, 5)).toEqual([
      String(c.emile.employeeId),
      'Deleted employee',
      `#${c.emile.employeeId}`,
      '',
      'completed',
    ]);
    expect(csv.body).not.toMatch(/Émile|Öztürk|Ozturk/i);

    // Their mail went with them (each message held the address, the name and a personal link).
    const messages = await t.app.db
      .selectFrom('messages')
      .select('id')
      .where('enrollment_id', '=', c.emile.enrollmentId)
      .execute();
    expect(messages).toEqual([]);
    // And they are gone everywhere else: by id, by address, in lists and in groups.
    expect((await c.api.get(`/customer/employees/${c.emile.employeeId}/`)).statusCode).toBe(404);
    expect((await c.api.get('/customer/employees/?email=emile.ozturk@example.com')).json().count).toBe(0);
    expect((await c.api.get('/customer/employees/')).json().results.map((e: { id: number }) => e.id)).toEqual(
      [c.bo.id],
    );
    expect((await c.api.get(`/customer/groups/${group.id}/`)).json()).toMatchObject({
      employee_count: 1,
      employees: [{ id: c.bo.id }],
    });
    const putBack = await c.api.put(`/customer/groups/${group.id}/`, { employee_ids: [c.emile.employeeId] });
    expect(putBack.json()).toMatchObject({ status: 400, details: { invalid_ids: [c.emile.employeeId] } });
    expect((await send(c.admin, 'GET', `${c.base}/employees?search=ozturk`)).json().count).toBe(0);
  });

  it('frees the address for a new employee, with a new id and none of the old record', async () => {
    const c = await campaignWithCompletion();
    // The newest employee is the one deleted: its id must still never come back.
    const last = await makeEmployee(t.app, c.accountId, { email: 'last@example.com' });
    await send(c.admin, 'DELETE', `${c.base}/employees/${last.id}`);
    await send(c.admin, 'DELETE', `${c.base}/employees/${c.emile.employeeId}`);

    const again = await c.api.post('/customer/employees/', {
      first_name: 'Émile',
      last_name: 'Öztürk',
      email: 'EMILE.OZTURK@example.com',
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBeGreaterThan(last.id);
    const reused = await c.api.post('/customer/employees/', {
      first_name: 'L',
      last_name: 'A',
      email: 'last@example.com',
    });
    expect(reused.statusCode).toBe(201);
    expect(reused.json().id).toBeGreaterThan(again.json().id);

    // The old record stays the deleted person's, not the newcomer's.
    const enrollments = await c.api.get(`/customer/campaigns/training/${c.campaignId}/enrollments/`);
    expect(
      enrollments.json().results.map((e: { employee: { id: number; first_name: string } }) => e.employee),
    ).toEqual([
      {
        id: c.emile.employeeId,
        first_name: 'Deleted employee',
        last_name: `#${c.emile.employeeId}`,
        email: '',
      },
      expect.objectContaining({ id: c.bo.id }),
    ]);
    expect((await c.api.get('/customer/employees/?email=emile.ozturk@example.com')).json().results).toEqual([
      again.json(),
    ]);
  });

  it('sends a deleted employee nothing more, and their link stops working', async () => {
    const c = await campaignWithCompletion('active');
    await t.app.db
      .updateTable('enrollments')
      .set({ completed_at: null, score: null })
      .where('id', '=', c.emile.enrollmentId)
      .execute();
    await send(c.admin, 'DELETE', `${c.base}/employees/${c.emile.employeeId}`);

    const reminders = await queueCampaignMessages(t.app.db, {
      accountId: c.accountId,
      campaignId: c.campaignId,
      kind: 'reminder',
      round: 3,
      now: Date.now(),
      incompleteOnly: true,
    });
    expect(reminders).toBe(1); // Bo's only
    const resend = await send(
      c.admin,
      'POST',
      `${c.base}/campaigns/${c.campaignId}/enrollments/${c.emile.enrollmentId}/resend`,
    );
    expect(resend.statusCode).toBe(409);
    expect(resend.json()).toMatchObject({ error: 'This person’s employee record was deleted' });
    expect((await learnerClient(t.app).get(c.emile.path)).statusCode).toBe(404);
    // Still counted, as not completed.
    const campaign = await c.api.get(`/customer/campaigns/training/${c.campaignId}/`);
    expect(campaign.json()).toMatchObject({ enrolled_count: 2, completed_count: 0 });
  });
});
