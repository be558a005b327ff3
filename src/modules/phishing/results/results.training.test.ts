import { beforeAll, describe, expect, it } from 'vitest';
import { adminOfOneOfTwoAccounts, adminSender } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeEmployee } from '../../../../test/helpers/factories.js';
import {
  builtIn,
  learnerClient,
  makeEnrollment,
  quizForm,
  readAllLessons,
} from '../../../../test/helpers/learner.js';
import { seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import { enrollNewMembers } from '../../training/index.js';

// GET /admin/api/accounts/:accountId/employees/:employeeId/training: the employee page's
// Training section. 401 without a session → 404 for another account's or an unknown employee
// → 400 → what the section shows.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);
const phishing = builtIn('phishing');
const passwords = builtIn('passwords-and-mfa');
const DUE = Date.parse('2031-03-31T23:59:59.999Z');

/** Ann, enrolled in "Security basics" (two courses, due 31 March 2031) and in a phishing campaign's remedial training. */
async function annWithTraining() {
  const two = await adminOfOneOfTwoAccounts(t.app);
  const basics = await makeEnrollment(t.app.db, {
    accountId: two.mine,
    campaignName: 'Security basics',
    courseKeys: ['phishing', 'passwords-and-mfa'],
    dueAt: DUE,
  });
  const simulation = await seedPhishingCampaign(t.app, two.mine, { remedial: true, people: 1 });
  const remedialId = simulation.remedialId as number;
  await t.app.db.transaction().execute((trx) =>
    enrollNewMembers(trx, {
      accountId: two.mine,
      campaignIds: [remedialId],
      employeeIds: [basics.employeeId],
      now: Date.now() + 1000,
    }),
  );
  const url = `${two.base}/employees/${basics.employeeId}/training`;
  return { ...two, basics, simulation, remedialId, url };
}

describe('an employee’s training', () => {
  it('lists each enrollment, the latest first, with its campaign, status, dates, score and progress per course; remedial training names its phishing campaign', async () => {
    const { admin, basics, simulation, remedialId, url } = await annWithTraining();
    await readAllLessons(t.app, basics.path, phishing);
    await learnerClient(t.app).post(`${basics.path}/courses/phishing/quiz`, quizForm(phishing, 1));
    await learnerClient(t.app).post(`${basics.path}/courses/phishing/quiz`, quizForm(phishing));
    await learnerClient(t.app).post(`${basics.path}/courses/passwords-and-mfa/lessons/1`);

    const res = await send(admin, 'GET', url);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    const [remedial, own] = body.results;
    expect(remedial).toMatchObject({
      campaign: { id: remedialId, name: 'Phishing: remedial training', status: 'active' },
      remedial_for: { id: simulation.campaignId, name: 'Quarterly simulation' },
      status: 'not_started',
      started_at: null,
      due_at: null,
      completed_at: null,
      score: null,
      courses: [
        {
          key: 'phishing',
          title: phishing.title,
          lessons: phishing.lessons.length,
          lessons_read: 0,
          attempts: 0,
          best_score: null,
          passed_at: null,
        },
      ],
    });
    expect(own).toMatchObject({
      enrollment_id: basics.enrollmentId,
      campaign: { id: basics.campaignId, name: 'Security basics', status: 'active' },
      remedial_for: null,
      status: 'in_progress',
      due_at: '2031-03-31T23:59:59.999Z',
      completed_at: null,
      score: null,
      courses: [
        {
          key: 'phishing',
          title: phishing.title,
          lessons: phishing.lessons.length,
          lessons_read: phishing.lessons.length,
          attempts: 2,
          best_score: 100,
          passed_at: expect.any(String),
        },
        {
          key: 'passwords-and-mfa',
          title: passwords.title,
          lessons: passwords.lessons.length,
          lessons_read: 1,
          attempts: 0,
          best_score: null,
          passed_at: null,
        },
      ],
    });
    expect(Date.parse(own.started_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(own.enrolled_at)).toBeLessThanOrEqual(Date.parse(remedial.enrolled_at));
  });

  it('shows a completed enrollment with its completion date and score', async () => {
    const { admin, basics, url } = await annWithTraining();
    for (const course of [phishing, passwords]) {
      await readAllLessons(t.app, basics.path, course);
      await learnerClient(t.app).post(`${basics.path}/courses/${course.key}/quiz`, quizForm(course));
    }
    const own = (await send(admin, 'GET', url)).json().results[1];
    expect(own).toMatchObject({ status: 'completed', score: 100, completed_at: expect.any(String) });
    expect(own.courses.map((c: { passed_at: string | null }) => c.passed_at !== null)).toEqual([true, true]);
  });

  it('says overdue for an enrollment past its campaign’s due date, and pages', async () => {
    const two = await adminOfOneOfTwoAccounts(t.app);
    const late = await makeEnrollment(t.app.db, { accountId: two.mine, dueAt: Date.now() - 86_400_000 });
    const url = `${two.base}/employees/${late.employeeId}/training`;
    expect((await send(two.admin, 'GET', url)).json().results[0].status).toBe('overdue');
    const second = await send(two.admin, 'GET', `${url}?page=2&page_size=1`);
    expect(second.json()).toEqual({ count: 1, results: [] });
  });

  it('shows nothing for an employee without training', async () => {
    const two = await adminOfOneOfTwoAccounts(t.app);
    const bob = await makeEmployee(t.app, two.mine);
    const res = await send(two.admin, 'GET', `${two.base}/employees/${bob.id}/training`);
    expect(res.json()).toEqual({ count: 0, results: [] });
  });

  it('refuses without a session, and answers 404 for another account’s, an unknown or a deleted employee', async () => {
    const { admin, base, theirs, basics, url } = await annWithTraining();
    expect((await send(undefined, 'GET', url)).statusCode).toBe(401);
    const stranger = await makeEmployee(t.app, theirs);
    const notFound = { error: 'Employee not found', status: 404, ...coded('employee_not_found') };
    for (const id of [stranger.id, 999_999_999]) {
      const res = await send(admin, 'GET', `${base}/employees/${id}/training`);
      expect([res.statusCode, res.json()]).toEqual([404, notFound]);
    }
    expect((await send(admin, 'DELETE', `${base}/employees/${basics.employeeId}`)).statusCode).toBe(204);
    const gone = await send(admin, 'GET', url);
    expect([gone.statusCode, gone.json()]).toEqual([404, notFound]);
    // Their record stays in the campaign, as the delete dialog says.
    const kept = await send(admin, 'GET', `${base}/campaigns/${basics.campaignId}/enrollments`);
    expect(kept.json().results).toEqual([
      expect.objectContaining({
        employee: {
          id: basics.employeeId,
          first_name: 'Deleted employee',
          last_name: `#${basics.employeeId}`,
          email: '',
        },
      }),
    ]);
  });

  it('answers 400 for a bad page', async () => {
    const { admin, url } = await annWithTraining();
    for (const query of ['page=0', 'page_size=x', 'page=-1']) {
      const res = await send(admin, 'GET', `${url}?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  });
});
