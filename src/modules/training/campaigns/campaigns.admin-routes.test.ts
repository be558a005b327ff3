import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, type AdminMethod, adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount, makeCampaign, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import {
  builtIn,
  learnerClient,
  makeEnrollment,
  quizForm,
  readAllLessons,
} from '../../../../test/helpers/learner.js';

// The admin API's training campaign routes: 401 → 404 for another account → 400 → success.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

function get(as: AdminClient | undefined, url: string) {
  return t.app.inject({ method: 'GET', url: `/admin/api${url}`, headers: as?.headers ?? {} });
}

async function accounts() {
  const mine = await makeAccount(t.app);
  const theirs = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: mine.id });
  const theirCampaign = await makeCampaign(t.app, theirs.id, [], 'Theirs');
  return { mine: mine.id, theirs: theirs.id, admin, theirCampaign, base: `/accounts/${mine.id}` };
}

describe('GET …/campaigns and …/campaigns/{id}', () => {
  it('answers 401 without a session', async () => {
    const { base, theirCampaign } = await accounts();
    for (const path of ['/campaigns', `/campaigns/${theirCampaign.id}`]) {
      const res = await get(undefined, `${base}${path}`);
      expect(res.statusCode, path).toBe(401);
      expect(res.json()).toEqual({ error: 'Sign-in required', status: 401, ...coded('sign_in_required') });
    }
  });

  it('answers 404 for another account’s path, and for its campaign on ours', async () => {
    const { base, theirs, admin, theirCampaign } = await accounts();
    for (const path of ['/campaigns', `/campaigns/${theirCampaign.id}`]) {
      const res = await get(admin, `/accounts/${theirs}${path}`);
      expect(res.json(), path).toEqual({
        error: 'Account not found',
        status: 404,
        ...coded('account_not_found'),
      });
    }
    for (const id of [theirCampaign.id, 'abc']) {
      const res = await get(admin, `${base}/campaigns/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        error: 'Campaign not found',
        status: 404,
        ...coded('campaign_not_found'),
      });
    }
  });

  it('refuses a page size that is not a positive integer', async () => {
    const { base, admin } = await accounts();
    const res = await get(admin, `${base}/campaigns?page_size=-1`);
    expect(res.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { page_size: ['must be a positive integer'] },
    });
  });

  it('lists campaigns newest first with their groups, and shows one', async () => {
    const { mine, base, admin } = await accounts();
    const group = await makeGroup(t.app, mine, 'Sales');
    const first = await makeCampaign(t.app, mine, [group.id], 'First');
    const second = await makeCampaign(t.app, mine, [], 'Second');
    const list = await get(admin, `${base}/campaigns`);
    expect(list.statusCode).toBe(200);
    const shown = {
      id: first.id,
      name: 'First',
      description: '',
      status: 'draft',
      groups: [{ id: group.id, name: 'Sales' }],
      courses: [],
      start_date: null,
      due_date: null,
      reminder_days: [],
      enroll_new_members: false,
      launched_at: null,
      completed_at: null,
      archived_at: null,
      enrolled_count: 0,
      completed_count: 0,
      completion_rate: 0,
      allowed_actions: ['edit', 'schedule', 'launch', 'archive', 'delete'],
      created_at: new Date(first.created_at).toISOString(),
      updated_at: new Date(first.updated_at).toISOString(),
    };
    expect(list.json()).toEqual({
      count: 2,
      results: [expect.objectContaining({ id: second.id, name: 'Second', groups: [] }), shown],
    });
    expect((await get(admin, `${base}/campaigns?page=2&page_size=1`)).json()).toEqual({
      count: 2,
      results: [shown],
    });
    expect((await get(admin, `${base}/campaigns/${first.id}`)).json()).toEqual(shown);
  });
});

const ROUTES: Array<[AdminMethod, string, unknown?]> = [
  ['POST', '/campaigns', { name: 'x' }],
  ['PATCH', '/campaigns/:id', { name: 'Renamed' }],
  ['DELETE', '/campaigns/:id'],
  ['POST', '/campaigns/:id/schedule'],
  ['POST', '/campaigns/:id/unschedule'],
  ['POST', '/campaigns/:id/launch'],
  ['POST', '/campaigns/:id/stop'],
  ['POST', '/campaigns/:id/archive'],
  ['GET', '/campaigns/:id/progress'],
  ['GET', '/campaigns/:id/enrollments'],
  ['GET', '/campaigns/:id/enrollments.csv'],
  ['POST', '/campaigns/:id/enrollments/1/resend'],
];

describe('access to the campaign routes that change or report', () => {
  const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

  it('answers 401 without a session, and 404 on another account’s path or for its campaign, changing nothing', async () => {
    const { base, theirs, admin, theirCampaign } = await accounts();
    for (const [method, path, body] of ROUTES) {
      const route = path.replace(':id', String(theirCampaign.id));
      const anonymous = await send(undefined, method, `${base}${route}`, body);
      expect(anonymous.statusCode, `${method} ${path}`).toBe(401);
      const theirPath = await send(admin, method, `/accounts/${theirs}${route}`, body);
      expect(theirPath.json(), `${method} ${path}`).toEqual({
        error: 'Account not found',
        status: 404,
        ...coded('account_not_found'),
      });
      if (path.includes(':id')) {
        const ours = await send(admin, method, `${base}${route}`, body);
        expect(ours.json(), `${method} ${path}`).toEqual({
          error: 'Campaign not found',
          status: 404,
          ...coded('campaign_not_found'),
        });
      }
    }
    const kept = await t.app.db
      .selectFrom('training_campaigns')
      .select(['name', 'status'])
      .where('id', '=', theirCampaign.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ name: 'Theirs', status: 'draft' });
  });

  it('refuses a change without the CSRF token', async () => {
    const { base, admin } = await accounts();
    const created = await send(admin, 'POST', `${base}/campaigns`, { name: 'Mine' });
    const headers = { ...admin.headers };
    delete headers['x-csrf-token'];
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/api${base}/campaigns/${created.json().id}/archive`,
      headers,
    });
    expect(res.json()).toEqual({ error: 'Invalid CSRF token', status: 403, ...coded('invalid_csrf_token') });
    expect((await get(admin, `${base}/campaigns/${created.json().id}`)).json().status).toBe('draft');
  });

  it('refuses an unknown status filter', async () => {
    const { base, admin } = await accounts();
    const res = await get(admin, `${base}/campaigns?status=running`);
    expect(res.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { status: ['must be one of draft, scheduled, active, completed, archived'] },
    });
  });
});

describe('GET …/campaigns/{id}/enrollments: quiz attempts', () => {
  it("shows each person's attempt count and every attempt's course, score, pass and time", async () => {
    const e = await makeEnrollment(t.app.db, { courseKeys: ['phishing'] });
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: e.accountId });
    const learner = learnerClient(t.app);
    const phishing = builtIn('phishing');
    await readAllLessons(t.app, e.path, phishing);
    const before = Date.now();
    await learner.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing, 3));
    await learner.post(`${e.path}/courses/phishing/quiz`, quizForm(phishing, 1));
    const res = await get(admin, `/accounts/${e.accountId}/campaigns/${e.campaignId}/enrollments`);
    expect(res.statusCode).toBe(200);
    const [row] = res.json().results;
    expect(row).toMatchObject({ score: 85, attempt_count: 2 });
    expect(row.attempts).toEqual([
      { course_key: 'phishing', number: 1, score: 57, passed: false, submitted_at: expect.any(String) },
      { course_key: 'phishing', number: 2, score: 85, passed: true, submitted_at: expect.any(String) },
    ]);
    expect(Date.parse(row.attempts[0].submitted_at)).toBeGreaterThanOrEqual(before - 1000);
    // The Customer API's enrollment keeps its v2.2.0 shape.
    const { key } = await makeKey(t.app, { accountId: e.accountId });
    const api = await t.app.inject({
      method: 'GET',
      url: `/api/api_gateway/customer/campaigns/training/${e.campaignId}/enrollments/`,
      headers: { apikey: key },
    });
    expect(api.statusCode, api.body).toBe(200);
    expect(Object.keys(api.json().results[0]).sort()).toEqual(
      ['completed_at', 'employee', 'enrolled_at', 'id', 'score', 'started_at', 'status'].sort(),
    );
  });
});
