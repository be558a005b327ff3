import { openDatabase } from '../../src/core/db/database.js';
import { builtIn, learnerToken, quizForm } from '../helpers/learner.js';
import type { Vigil } from './harness.js';

const DAY_MS = 86_400_000;

interface TrainingPlan {
  accountId: number;
  campaignId: number;
  /** How many days ago the campaign was launched. */
  launchedDaysAgo: number;
  /** People who finish every course; their completions spread over the days since the launch. */
  complete: number;
  /** People who read a lesson or two and stop. */
  start: number;
}

/**
 * Realistic progress for screenshots: learners of a launched campaign go through the learner
 * page over HTTP (lessons read, quizzes passed, as a browser does), then the timestamps are moved
 * back so the completions fall on the days since an earlier launch. The web interface then shows
 * the API's figures for that history.
 */
export async function takeTraining(vigil: Vigil, plan: TrainingPlan): Promise<void> {
  const url = vigil.env.DATABASE_URL;
  if (!url) throw new Error('the server has no DATABASE_URL');
  const database = openDatabase(url);
  try {
    const { db } = database;
    const enrollments = await db
      .selectFrom('enrollments')
      .select('id')
      .where('campaign_id', '=', plan.campaignId)
      .orderBy('id')
      .execute();
    const keys = (
      await db
        .selectFrom('campaign_courses')
        .select('course_key')
        .where('campaign_id', '=', plan.campaignId)
        .orderBy('position')
        .execute()
    ).map((row) => row.course_key);
    const post = (path: string, form: Record<string, string> = {}) =>
      fetch(`${vigil.baseUrl}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });

    const now = Date.now();
    const launch = now - plan.launchedDaysAgo * DAY_MS;
    await db
      .updateTable('training_campaigns')
      .set({ start_at: launch, launched_at: launch, created_at: launch - 2 * DAY_MS })
      .where('id', '=', plan.campaignId)
      .execute();
    await db
      .updateTable('enrollments')
      .set({ enrolled_at: launch })
      .where('campaign_id', '=', plan.campaignId)
      .execute();

    for (const [i, { id }] of enrollments.slice(0, plan.complete + plan.start).entries()) {
      const path = `/learn/${await learnerToken(db, id)}`;
      const finishes = i < plan.complete;
      for (const key of finishes ? keys : keys.slice(0, 1)) {
        const course = builtIn(key);
        const lessons = finishes ? course.lessons.length : 1 + (i % 2);
        for (let n = 1; n <= lessons; n++) {
          const res = await post(`${path}/courses/${key}/lessons/${n}`);
          if (res.status !== 303) throw new Error(`lesson ${n} of ${key}: ${res.status}`);
        }
        if (finishes) {
          const res = await post(`${path}/courses/${key}/quiz`, quizForm(course, i % 3 === 0 ? 1 : 0));
          if (res.status !== 303) throw new Error(`quiz of ${key}: ${res.status}`);
        }
      }
      // Most people finish in the first days, fewer later: day 1 of the campaign, then fewer each day.
      const day = Math.min(plan.launchedDaysAgo - 1, Math.floor(Math.sqrt(i * 2.2)));
      const at = launch + day * DAY_MS + (i % 7) * 3_600_000 + 9 * 3_600_000;
      await db
        .updateTable('enrollments')
        .set(
          finishes
            ? { started_at: at - 1_800_000, completed_at: at, last_activity_at: at }
            : { started_at: at, last_activity_at: at },
        )
        .where('id', '=', id)
        .execute();
      await db
        .updateTable('enrollment_courses')
        .set(
          finishes
            ? { started_at: at - 1_800_000, passed_at: at, updated_at: at }
            : { started_at: at, updated_at: at },
        )
        .where('enrollment_id', '=', id)
        .execute();
    }
  } finally {
    await database.close();
  }
}
