import { describe, expect, it } from 'vitest';
import { makeEnrollment } from '../../../../test/helpers/learner.js';
import { learnerTestApp } from '../../../../test/helpers/learner-app.js';
import { makeAccountRow } from '../../../../test/helpers/mail-fixtures.js';
import {
  courseProgressRows,
  linkMessageStats,
  lockCourseProgress,
  recordEnrollmentResult,
  touchEnrollment,
  updateCourseProgress,
} from './learner.repository.js';

// After the link, every query of the learner pages is scoped by the account the link resolved:
// given another account, none of them reads or changes the enrollment. Each case acts for the
// right account too, so that the filter, not an empty fixture, is what the test sees.

const learnerApp = learnerTestApp();

async function enrollmentAndStranger() {
  const db = learnerApp.app.db;
  const e = await makeEnrollment(db, { courseKeys: ['phishing'] });
  const stranger = await makeAccountRow(db);
  return { db, e, stranger: stranger.id };
}

describe("a learner's enrollment, to another account", () => {
  it('records no activity, progress or result', async () => {
    const { db, e, stranger } = await enrollmentAndStranger();
    const now = Date.now();
    await touchEnrollment(db, stranger, e.enrollmentId, now);
    await recordEnrollmentResult(db, stranger, e.enrollmentId, { score: 100, completedAt: now });
    await expect(lockCourseProgress(db, stranger, e.enrollmentId, 'phishing', now)).rejects.toThrow();
    expect(await learnerApp.enrollment(e.enrollmentId)).toMatchObject({
      started_at: null,
      last_activity_at: null,
      score: null,
      completed_at: null,
    });
    expect(await learnerApp.courseRows(e.enrollmentId)).toEqual([]);

    await touchEnrollment(db, e.accountId, e.enrollmentId, now);
    expect((await learnerApp.enrollment(e.enrollmentId)).started_at).toBe(now);
  });

  it('reads and changes none of its course progress', async () => {
    const { db, e, stranger } = await enrollmentAndStranger();
    const row = await lockCourseProgress(db, e.accountId, e.enrollmentId, 'phishing', 1);
    expect(row).toMatchObject({ enrollment_id: e.enrollmentId, course_key: 'phishing', attempts: 0 });
    await updateCourseProgress(db, stranger, e.enrollmentId, 'phishing', { attempts: 5 });
    expect(await courseProgressRows(db, stranger, e.enrollmentId)).toEqual([]);
    expect(await courseProgressRows(db, e.accountId, e.enrollmentId)).toMatchObject([{ attempts: 0 }]);
  });

  it('counts none of its new-link emails', async () => {
    const { db, e, stranger } = await enrollmentAndStranger();
    const now = Date.now();
    await db
      .insertInto('messages')
      .values({
        account_id: e.accountId,
        campaign_id: e.campaignId,
        enrollment_id: e.enrollmentId,
        kind: 'link',
        round: 1,
        status: 'queued',
        attempts: 0,
        priority: 0,
        next_attempt_at: now,
        created_at: now,
      })
      .execute();
    expect(await linkMessageStats(db, e.accountId, e.enrollmentId)).toEqual({ count: 1, latest: now });
    expect(await linkMessageStats(db, stranger, e.enrollmentId)).toEqual({ count: 0, latest: null });
  });
});
