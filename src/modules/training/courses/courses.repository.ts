import type { Insertable, Selectable, Updateable } from 'kysely';
import { byName } from '../../../core/db/collation.js';
import type { Db } from '../../../core/db/database.js';
import type { CourseQuizRulesTable, CoursesTable } from '../../../core/db/schema.js';

export type CourseRow = Selectable<CoursesTable>;

export function findCustomCourses(db: Db, accountId: number, ids: number[]): Promise<CourseRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('courses')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
}

/** An account's own courses, by title. */
export function listCustomCourses(db: Db, accountId: number): Promise<CourseRow[]> {
  return db
    .selectFrom('courses')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy(byName(db, 'title'))
    .orderBy('id')
    .execute();
}

export function insertCourse(
  db: Db,
  accountId: number,
  values: Omit<Insertable<CoursesTable>, 'account_id'>,
): Promise<CourseRow> {
  return db
    .insertInto('courses')
    .values({ ...values, account_id: accountId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateCourseRow(
  db: Db,
  accountId: number,
  id: number,
  values: Updateable<CoursesTable>,
): Promise<CourseRow | undefined> {
  return db
    .updateTable('courses')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteCourseRow(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('courses')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Names of the account's campaigns that use a course. */
export async function campaignsUsingCourse(db: Db, accountId: number, courseKey: string): Promise<string[]> {
  const rows = await db
    .selectFrom('campaign_courses as cc')
    .innerJoin('training_campaigns as c', 'c.id', 'cc.campaign_id')
    .select('c.name')
    .where('c.account_id', '=', accountId)
    .where('cc.course_key', '=', courseKey)
    .orderBy('c.id')
    .execute();
  return rows.map((r) => r.name);
}

/**
 * Course keys of each of the account's campaigns, in the campaign's order (here rather than in
 * campaigns: the mail and the learner pages read a campaign's courses too, through this module).
 */
export async function courseKeysOfCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
): Promise<Map<number, string[]>> {
  const byCampaign = new Map<number, string[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return byCampaign;
  const rows = await db
    .selectFrom('campaign_courses')
    .select(['campaign_id', 'course_key'])
    .where('campaign_id', 'in', (eb) =>
      eb
        .selectFrom('training_campaigns as owner')
        .select('owner.id')
        .where('owner.account_id', '=', accountId)
        .where('owner.id', 'in', campaignIds),
    )
    .orderBy('campaign_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byCampaign.get(row.campaign_id)?.push(row.course_key);
  return byCampaign;
}

export type QuizRulesRow = Selectable<CourseQuizRulesTable>;

/** The account's quiz rules of these courses (a course without a row has the defaults). */
export function findQuizRules(db: Db, accountId: number, courseKeys: string[]): Promise<QuizRulesRow[]> {
  if (courseKeys.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('course_quiz_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('course_key', 'in', courseKeys)
    .execute();
}

/** Sets the account's quiz rules of a course. */
export async function upsertQuizRules(
  db: Db,
  accountId: number,
  courseKey: string,
  values: Pick<QuizRulesRow, 'max_attempts' | 'answers_shown' | 'updated_at'>,
): Promise<void> {
  await db
    .insertInto('course_quiz_rules')
    .values({ account_id: accountId, course_key: courseKey, ...values })
    .onConflict((oc) => oc.columns(['account_id', 'course_key']).doUpdateSet(values))
    .execute();
}

/** Removes the account's quiz rules of a course (its own course, deleted). */
export async function deleteQuizRules(db: Db, accountId: number, courseKey: string): Promise<void> {
  await db
    .deleteFrom('course_quiz_rules')
    .where('account_id', '=', accountId)
    .where('course_key', '=', courseKey)
    .execute();
}
