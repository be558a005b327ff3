import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { client, makeAccount, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';

// A campaign's life through the admin API (draft → scheduled → active → completed → archived),
// with what the Customer API shows at each step: enrollments once per person, invitations
// queued, figures that agree, and the rules that keep progress when groups change.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);
const DAY = 86_400_000;
const future = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function setup() {
  const account = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  const { key } = await makeKey(t.app, { accountId: account.id });
  const api = client(t.app, key);
  const base = `/accounts/${account.id}`;
  const people = [];
  for (const name of ['Ann', 'Bob', 'Cy'])
    people.push(await makeEmployee(t.app, account.id, { first_name: name }));
  const [ann, bob, cy] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
  const sales = await makeGroup(t.app, account.id, 'Sales');
  const ops = await makeGroup(t.app, account.id, 'Ops');
  // Bob is in both groups: he must be enrolled once.
  await api.put(`/customer/groups/${sales.id}/`, { employee_ids: [ann.id, bob.id] });
  await api.put(`/customer/groups/${ops.id}/`, { employee_ids: [bob.id, cy.id] });
  return { accountId: account.id, admin, api, base, ann, bob, cy, sales, ops };
}

async function draft(admin: AdminClient, base: string, body: Record<string, unknown>) {
  const res = await send(admin, 'POST', `${base}/campaigns`, { name: 'Q4 awareness', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function messages(accountId: number) {
  return t.app.db
    .selectFrom('messages')
    .select(['enrollment_id', 'kind', 'status'])
    .where('account_id', '=', accountId)
    .execute();
}

describe('creating and editing a campaign', () => {
  it('creates a draft with every setting and shows it in both APIs', async () => {
    const { admin, api, base, sales } = await setup();
    const created = await draft(admin, base, {
      description: 'For everyone in sales',
      course_keys: ['phishing', 'passwords-and-mfa', 'phishing'],
      group_ids: [sales.id],
      start_date: '2026-12-01',
      due_date: '2026-12-15',
      reminder_days: [1, 7, 7],
      enroll_new_members: true,
    });
    expect(created).toMatchObject({
      status: 'draft',
      description: 'For everyone in sales',
      courses: [
        { key: 'phishing', title: 'Spotting phishing', built_in: true },
        { key: 'passwords-and-mfa', built_in: true },
      ],
      groups: [{ id: sales.id, name: 'Sales' }],
      start_date: '2026-12-01T00:00:00.000Z',
      due_date: '2026-12-15T23:59:59.999Z',
      reminder_days: [7, 1],
      enroll_new_members: true,
      enrolled_count: 0,
      completion_rate: 0,
    });
    const res = await api.get(`/customer/campaigns/training/${created.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: created.id,
      group_ids: [sales.id],
      due_date: '2026-12-15T23:59:59.999Z',
    });
    expect(res.json()).not.toHaveProperty('groups');
  });

  it('explains every invalid field at once and creates nothing', async () => {
    const { accountId, admin, base } = await setup();
    const other = await makeGroup(t.app, (await makeAccount(t.app)).id, 'Theirs');
    const res = await send(admin, 'POST', `${base}/campaigns`, {
      name: ' ',
      course_keys: ['phishing', 'no-such-course', 'custom-999999'],
      group_ids: [other.id],
      due_date: 'next friday',
      reminder_days: [0, 400],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Validation failed');
    expect(Object.keys(res.json().details).sort()).toEqual(['due_date', 'name', 'reminder_days'].sort());
    // A value of the wrong type is refused by the route's schema, before any rule.
    const wrongType = await send(admin, 'POST', `${base}/campaigns`, {
      name: 'x',
      enroll_new_members: 'yes',
    });
    expect(wrongType.json().details).toEqual({ enroll_new_members: ['must be a boolean'] });
    const unknownRefs = await send(admin, 'POST', `${base}/campaigns`, {
      name: 'x',
      course_keys: ['no-such-course'],
      group_ids: [other.id],
    });
    expect(unknownRefs.json().details).toEqual({
      course_keys: ['unknown courses: no-such-course'],
      group_ids: [`unknown groups: ${other.id}`],
    });
    const listed = await send(admin, 'GET', `${base}/campaigns`);
    expect(listed.json().count).toBe(0);
    expect(accountId).toBeGreaterThan(0);
  });

  it('refuses a due date before the start', async () => {
    const { admin, base } = await setup();
    const res = await send(admin, 'POST', `${base}/campaigns`, {
      name: 'x',
      start_date: future(10),
      due_date: future(5),
    });
    expect(res.json()).toMatchObject({
      status: 400,
      details: { due_date: ['must be after the start date'] },
    });
  });
});

describe('scheduling and launching', () => {
  it('needs courses, groups and dates to schedule, and says which are missing', async () => {
    const { admin, base } = await setup();
    const c = await draft(admin, base, {});
    const res = await send(admin, 'POST', `${base}/campaigns/${c.id}/schedule`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual({
      course_keys: ['choose at least one course'],
      group_ids: ['choose at least one target group'],
      start_date: ['is required to schedule'],
      due_date: ['is required to schedule'],
    });
    const launch = await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    expect(launch.json().details.due_date).toEqual(['is required to launch']);
  });

  it('schedules, unschedules and reschedules; a scheduled campaign must stay ready to run', async () => {
    const { admin, base, sales } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id],
      start_date: future(2),
      due_date: future(9),
    });
    const scheduled = await send(admin, 'POST', `${base}/campaigns/${c.id}/schedule`);
    expect(scheduled.json()).toMatchObject({
      status: 'scheduled',
      allowed_actions: ['edit', 'unschedule', 'launch'],
    });
    const badEdit = await send(admin, 'PATCH', `${base}/campaigns/${c.id}`, { group_ids: [] });
    expect(badEdit.json()).toMatchObject({
      status: 400,
      details: { group_ids: ['choose at least one target group'] },
    });
    const again = await send(admin, 'POST', `${base}/campaigns/${c.id}/schedule`);
    expect(again.json()).toEqual({
      error: 'Cannot schedule a campaign that is scheduled',
      status: 409,
      ...coded('campaign_status_conflict'),
    });
    const back = await send(admin, 'POST', `${base}/campaigns/${c.id}/unschedule`);
    expect(back.json().status).toBe('draft');
  });

  it('enrolls each member of the target groups once and queues one invitation each', async () => {
    const { accountId, admin, api, base, sales, ops, ann, bob, cy } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id, ops.id],
      due_date: future(14),
    });
    const res = await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'active',
      enrolled_count: 3,
      completed_count: 0,
      allowed_actions: ['edit', 'stop'],
    });
    expect(Date.parse(res.json().start_date)).toBeLessThanOrEqual(Date.now());

    const queued = await messages(accountId);
    expect(queued).toHaveLength(3);
    expect(queued.every((m) => m.kind === 'invitation' && m.status === 'queued')).toBe(true);

    const enrollments = await api.get(`/customer/campaigns/training/${c.id}/enrollments/`);
    expect(enrollments.statusCode).toBe(200);
    expect(enrollments.json()).toMatchObject({ count: 3, next: null, previous: null });
    expect(enrollments.json().results.map((e: { employee: { id: number } }) => e.employee.id)).toEqual([
      ann.id,
      bob.id,
      cy.id,
    ]);
    expect(enrollments.json().results[0]).toEqual({
      id: expect.any(Number),
      employee: { id: ann.id, first_name: 'Ann', last_name: ann.last_name, email: ann.email },
      status: 'not_started',
      enrolled_at: expect.stringMatching(/Z$/),
      started_at: null,
      completed_at: null,
      score: null,
    });

    const again = await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    expect(again.json()).toEqual({
      error: 'Cannot launch a campaign that is active',
      status: 409,
      ...coded('campaign_status_conflict'),
    });
    expect(await messages(accountId)).toHaveLength(3);
  });

  it('lets two launches race: one wins, nobody is enrolled or invited twice', async () => {
    const { accountId, admin, base, sales, ops } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id, ops.id],
      due_date: future(3),
    });
    const results = await Promise.all(
      [1, 2, 3].map(() => send(admin, 'POST', `${base}/campaigns/${c.id}/launch`)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await messages(accountId)).toHaveLength(3);
  });

  it('enrolls people who join a target group while active, only when asked to', async () => {
    const { accountId, admin, api, base, sales, ann, bob, cy } = await setup();
    const keen = await draft(admin, base, {
      name: 'Keen',
      course_keys: ['phishing'],
      group_ids: [sales.id],
      due_date: future(5),
      enroll_new_members: true,
    });
    const fixed = await draft(admin, base, {
      name: 'Fixed',
      course_keys: ['phishing'],
      group_ids: [sales.id],
      due_date: future(5),
    });
    await send(admin, 'POST', `${base}/campaigns/${keen.id}/launch`);
    await send(admin, 'POST', `${base}/campaigns/${fixed.id}/launch`);
    const newcomer = await makeEmployee(t.app, accountId, { first_name: 'Dee' });
    // Cy joins through the Customer API, Dee through the web interface.
    await api.put(`/customer/groups/${sales.id}/`, { employee_ids: [ann.id, bob.id, cy.id] });
    await send(admin, 'POST', `${base}/groups/${sales.id}/members`, { employee_ids: [newcomer.id] });

    const keenList = (await api.get(`/customer/campaigns/training/${keen.id}/`)).json();
    const fixedList = (await api.get(`/customer/campaigns/training/${fixed.id}/`)).json();
    expect(keenList.enrolled_count).toBe(4);
    expect(fixedList.enrolled_count).toBe(2);
    expect((await messages(accountId)).filter((m) => m.kind === 'invitation')).toHaveLength(6);

    // Leaving the group never removes the enrollment (or its progress).
    await api.put(`/customer/groups/${sales.id}/`, { employee_ids: [] });
    expect((await api.get(`/customer/campaigns/training/${keen.id}/`)).json().enrolled_count).toBe(4);
  });
});

describe('resending an invitation', () => {
  it('queues one fresh invitation for one person, shows it in the table, and refuses what makes no sense', async () => {
    const { accountId, admin, base, sales, ops, ann } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id],
      due_date: future(5),
    });
    await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    const rows = (await send(admin, 'GET', `${base}/campaigns/${c.id}/enrollments`)).json().results;
    const annsId = rows.find((e: { employee: { id: number } }) => e.employee.id === ann.id).id;
    const resend = (id: number | string = annsId, campaignId: number = c.id) =>
      send(admin, 'POST', `${base}/campaigns/${campaignId}/enrollments/${id}/resend`);

    // The first invitation has not gone out yet.
    expect((await resend()).json()).toEqual({
      error: 'An invitation to this person is already waiting to be sent',
      status: 409,
      ...coded('invitation_pending'),
    });
    await t.app.db
      .updateTable('messages')
      .set({ status: 'sent', sent_at: Date.now() })
      .where('account_id', '=', accountId)
      .execute();
    const res = await resend();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: annsId,
      employee: { id: ann.id },
      invitation: { status: 'queued', sent_at: null },
    });
    const invitations = (await messages(accountId)).filter((m) => m.enrollment_id === annsId);
    expect(invitations).toHaveLength(2);
    expect(
      await t.app.db
        .selectFrom('messages')
        .select('round')
        .where('enrollment_id', '=', annsId)
        .orderBy('round')
        .execute(),
    ).toEqual([{ round: 0 }, { round: 1 }]);

    const other = await draft(admin, base, {
      name: 'Other',
      course_keys: ['phishing'],
      group_ids: [ops.id],
      due_date: future(5),
    });
    await send(admin, 'POST', `${base}/campaigns/${other.id}/launch`);
    for (const id of [999_999_999, 'abc']) {
      expect((await resend(id)).json()).toEqual({
        error: 'Enrollment not found',
        status: 404,
        ...coded('enrollment_not_found'),
      });
    }
    expect((await resend(annsId, other.id)).json()).toEqual({
      error: 'Enrollment not found',
      status: 404,
      ...coded('enrollment_not_found'),
    });

    await t.app.db
      .updateTable('enrollments')
      .set({ completed_at: Date.now() })
      .where('id', '=', annsId)
      .execute();
    await t.app.db
      .updateTable('messages')
      .set({ status: 'sent' })
      .where('account_id', '=', accountId)
      .execute();
    expect((await resend()).json()).toEqual({
      error: 'This person has completed the training',
      status: 409,
      ...coded('training_completed'),
    });
    await send(admin, 'POST', `${base}/campaigns/${c.id}/stop`);
    expect((await resend()).json()).toEqual({
      error: 'Invitations go out only while the campaign is active',
      status: 409,
      ...coded('campaign_not_active'),
    });
  });
});

describe('what each status allows', () => {
  it('fixes courses and groups after launch, but lets the due date and reminders move', async () => {
    const { admin, base, sales, ops } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id],
      due_date: future(5),
    });
    await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    const groups = await send(admin, 'PATCH', `${base}/campaigns/${c.id}`, { group_ids: [ops.id] });
    expect(groups.json()).toEqual({
      error: 'group_ids cannot change while the campaign is active',
      status: 409,
      ...coded('campaign_field_locked'),
    });
    // The whole form sent back unchanged is fine.
    const same = await send(admin, 'PATCH', `${base}/campaigns/${c.id}`, {
      group_ids: [sales.id],
      course_keys: ['phishing'],
      due_date: future(20),
      reminder_days: [3],
      name: 'Renamed',
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ name: 'Renamed', reminder_days: [3] });

    const deleted = await send(admin, 'DELETE', `${base}/campaigns/${c.id}`);
    expect(deleted.json()).toEqual({
      error: 'Cannot delete a campaign that is active',
      status: 409,
      ...coded('campaign_status_conflict'),
    });
    const stopped = await send(admin, 'POST', `${base}/campaigns/${c.id}/stop`);
    expect(stopped.json()).toMatchObject({ status: 'completed', allowed_actions: ['edit', 'archive'] });
    expect(stopped.json().completed_at).not.toBeNull();
    const due = await send(admin, 'PATCH', `${base}/campaigns/${c.id}`, { due_date: future(30) });
    expect(due.json()).toEqual({
      error: 'due_date cannot change while the campaign is completed',
      status: 409,
      ...coded('campaign_field_locked'),
    });
    const archived = await send(admin, 'POST', `${base}/campaigns/${c.id}/archive`);
    expect(archived.json()).toMatchObject({ status: 'archived', allowed_actions: [] });
    const rename = await send(admin, 'PATCH', `${base}/campaigns/${c.id}`, { name: 'Later' });
    expect(rename.statusCode).toBe(409);
  });

  it('deletes a draft only', async () => {
    const { admin, base } = await setup();
    const c = await draft(admin, base, {});
    expect((await send(admin, 'DELETE', `${base}/campaigns/${c.id}`)).statusCode).toBe(204);
    expect((await send(admin, 'GET', `${base}/campaigns/${c.id}`)).statusCode).toBe(404);
  });

  it('keeps a group that a running campaign targets, and lets a draft lose it', async () => {
    const { admin, base, sales, ops } = await setup();
    const running = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id],
      due_date: future(5),
    });
    await send(admin, 'POST', `${base}/campaigns/${running.id}/launch`);
    const refused = await send(admin, 'DELETE', `${base}/groups/${sales.id}`);
    expect(refused.json()).toEqual({
      error: 'This group is a target of "Q4 awareness"; stop or change that campaign first',
      status: 409,
      ...coded('group_in_use'),
    });
    const planned = await draft(admin, base, { name: 'Plan', group_ids: [ops.id] });
    expect((await send(admin, 'DELETE', `${base}/groups/${ops.id}`)).statusCode).toBe(204);
    expect((await send(admin, 'GET', `${base}/campaigns/${planned.id}`)).json().groups).toEqual([]);
  });
});

describe('figures', () => {
  it('agree between the Customer API, the progress view and the CSV export', async () => {
    const { accountId, admin, api, base, sales, ops, ann, bob } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id, ops.id],
      due_date: future(5),
    });
    await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    const now = Date.now();
    // Ann completed with 90, Bob has started.
    await t.app.db
      .updateTable('enrollments')
      .set({ started_at: now, completed_at: now, score: 90 })
      .where('campaign_id', '=', c.id)
      .where('employee_id', '=', ann.id)
      .execute();
    await t.app.db
      .updateTable('enrollments')
      .set({ started_at: now })
      .where('campaign_id', '=', c.id)
      .where('employee_id', '=', bob.id)
      .execute();

    const item = (await api.get('/customer/campaigns/training/'))
      .json()
      .results.find((x: { id: number }) => x.id === c.id);
    expect(item).toMatchObject({ enrolled_count: 3, completed_count: 1, completion_rate: 0.3333 });
    const progress = (await send(admin, 'GET', `${base}/campaigns/${c.id}/progress`)).json();
    expect(progress.counts).toEqual({
      enrolled: 3,
      completed: 1,
      in_progress: 1,
      not_started: 1,
      overdue: 0,
    });
    expect(progress.completion_rate).toBe(0.3333);
    expect(progress.average_score).toBe(90);
    expect(progress.timeline.at(0)).toEqual({ date: new Date(now).toISOString().slice(0, 10), completed: 1 });

    const completed = await api.get(`/customer/campaigns/training/${c.id}/enrollments/?status=completed`);
    expect(
      completed
        .json()
        .results.map((e: { employee: { id: number }; score: number }) => [e.employee.id, e.score]),
    ).toEqual([[ann.id, 90]]);
    const page = await send(
      admin,
      'GET',
      `${base}/campaigns/${c.id}/enrollments?status=in_progress&search=bob`,
    );
    expect(page.json()).toMatchObject({
      count: 1,
      results: [{ employee: { id: bob.id }, status: 'in_progress' }],
    });

    const csv = await send(admin, 'GET', `${base}/campaigns/${c.id}/enrollments.csv`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // for Excel
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'employee_id,first_name,last_name,email,status,enrolled_at,started_at,completed_at,score,invitation',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`${ann.id},Ann,`);
    expect(lines[1]).toContain(',completed,');
    expect(accountId).toBeGreaterThan(0);
  });

  it('shows everyone not completed as overdue after the due date', async () => {
    const { admin, api, base, sales } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id],
      due_date: future(1),
    });
    await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    await t.app.db
      .updateTable('training_campaigns')
      .set({ due_at: Date.now() - 1000 })
      .where('id', '=', c.id)
      .execute();
    const res = await api.get(`/customer/campaigns/training/${c.id}/enrollments/?status=overdue`);
    expect(res.json().count).toBe(2);
    expect((await send(admin, 'GET', `${base}/campaigns/${c.id}/progress`)).json().counts).toMatchObject({
      overdue: 2,
      not_started: 0,
    });
  });
});

describe('Customer API access to one campaign and its enrollments', () => {
  const paths = (id: number | string) => [
    `/customer/campaigns/training/${id}/`,
    `/customer/campaigns/training/${id}/enrollments/`,
    `/customer/campaigns/training/${id}`,
  ];

  it('answers 401 without a key, 403 without campaigns:read, 404 for another account’s campaign', async () => {
    const { admin, base } = await setup();
    const c = await draft(admin, base, {});
    for (const path of paths(c.id)) {
      const res = await t.app.inject({ method: 'GET', url: `/api/api_gateway${path}` });
      expect(res.statusCode, path).toBe(401);
      const { key } = await makeKey(t.app, { grants: ['groups:rw', 'campaigns:w'] });
      const denied = await client(t.app, key).get(path);
      expect(denied.json()).toEqual({ error: 'API key lacks read permission on campaigns', status: 403 });
      const other = await makeKey(t.app, { grants: ['campaigns:r'] });
      for (const id of [c.id, 'abc', '0', '99999999999']) {
        const res404 = await client(t.app, other.key).get(path.replace(String(c.id), String(id)));
        expect(res404.json(), `${path} ${id}`).toEqual({
          error: 'Campaign not found',
          status: 404,
          ...coded('campaign_not_found'),
        });
      }
    }
  });

  it('validates the status filter and the page', async () => {
    const { admin, api, base, sales } = await setup();
    const c = await draft(admin, base, {
      course_keys: ['phishing'],
      group_ids: [sales.id],
      due_date: future(5),
    });
    await send(admin, 'POST', `${base}/campaigns/${c.id}/launch`);
    const bad = await api.get(`/customer/campaigns/training/${c.id}/enrollments/?status=done`);
    expect(bad.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { status: ['must be one of not_started, in_progress, completed, overdue'] },
    });
    const past = await api.get(`/customer/campaigns/training/${c.id}/enrollments/?page=2`);
    expect(past.json()).toEqual({ error: 'Invalid page', status: 404, ...coded('invalid_page') });
    const paged = await api.get(`/customer/campaigns/training/${c.id}/enrollments/?page_size=1`);
    expect(paged.json().next).toMatch(/enrollments\/\?page_size=1&page=2$|page=2/);
  });
});
