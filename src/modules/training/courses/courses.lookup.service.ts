import type { Db } from '../../../core/db/database.js';
import { type Lesson, loadCatalogue, type QuizQuestion } from './courses.catalogue.service.js';
import { type CourseRow, courseKeysOfCampaigns, findCustomCourses } from './courses.repository.js';

/**
 * One view of a course, built-in or the account's own. A course is named by its key: a
 * built-in slug (`phishing`) or `custom-<id>` for an account's course; keys are what campaigns
 * and learner progress store.
 */
export interface TrainingCourse {
  key: string;
  title: string;
  summary: string;
  minutes: number;
  pass_mark: number;
  lessons: Lesson[];
  quiz: QuizQuestion[];
  built_in: boolean;
  created_at: number | null;
  updated_at: number | null;
}

const CUSTOM_PREFIX = 'custom-';

let builtIns: Map<string, TrainingCourse> | undefined;

/** The built-in courses, read from `content/courses/` once per process, in slug order. */
export function builtInCourses(): Map<string, TrainingCourse> {
  builtIns ??= new Map(
    loadCatalogue().map((c) => [
      c.slug,
      {
        key: c.slug,
        title: c.title,
        summary: c.summary,
        minutes: c.minutes,
        pass_mark: c.pass_mark,
        lessons: c.lessons,
        quiz: c.quiz,
        built_in: true,
        created_at: null,
        updated_at: null,
      },
    ]),
  );
  return builtIns;
}

export function customCourseKey(id: number): string {
  return `${CUSTOM_PREFIX}${id}`;
}

/** The id inside `custom-<id>`, or null for any other key. */
export function customCourseId(key: string): number | null {
  const match = /^custom-([1-9]\d{0,15})$/.exec(key);
  return match ? Number(match[1]) : null;
}

export function fromCourseRow(row: CourseRow): TrainingCourse {
  return {
    key: customCourseKey(row.id),
    title: row.title,
    summary: row.summary,
    minutes: row.minutes,
    pass_mark: row.pass_mark,
    lessons: JSON.parse(row.lessons),
    quiz: JSON.parse(row.quiz),
    built_in: false,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The courses with these keys that this account can use, by key; unknown keys (and another
 * account's courses) are simply absent.
 */
export async function findCourses(
  db: Db,
  accountId: number,
  keys: string[],
): Promise<Map<string, TrainingCourse>> {
  const found = new Map<string, TrainingCourse>();
  const customIds: number[] = [];
  for (const key of new Set(keys)) {
    const builtIn = builtInCourses().get(key);
    if (builtIn) found.set(key, builtIn);
    const id = customCourseId(key);
    if (id !== null) customIds.push(id);
  }
  for (const row of await findCustomCourses(db, accountId, customIds)) {
    found.set(customCourseKey(row.id), fromCourseRow(row));
  }
  return found;
}

export async function findCourse(
  db: Db,
  accountId: number,
  key: string,
): Promise<TrainingCourse | undefined> {
  return (await findCourses(db, accountId, [key])).get(key);
}

/** A course a campaign names: the course itself, or undefined when it was deleted since. */
export interface CampaignCourse {
  key: string;
  course: TrainingCourse | undefined;
}

/** Each of the account's campaigns' courses, in the campaign's order. */
export async function coursesOfCampaigns(
  db: Db,
  accountId: number,
  campaignIds: number[],
): Promise<Map<number, CampaignCourse[]>> {
  const keys = await courseKeysOfCampaigns(db, accountId, campaignIds);
  const courses = await findCourses(db, accountId, [...keys.values()].flat());
  return new Map(
    [...keys].map(([campaignId, list]) => [
      campaignId,
      list.map((key) => ({ key, course: courses.get(key) })),
    ]),
  );
}
