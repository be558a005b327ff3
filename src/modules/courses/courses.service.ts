import type { Db } from '../../db/database.js';
import { AppError, FieldErrorCollector } from '../../errors.js';
import { getAccount } from '../accounts/accounts.service.js';
import {
  builtInCourses,
  customCourseId,
  customCourseKey,
  findCourse,
  fromCourseRow,
  type TrainingCourse,
} from './courses.lookup.js';
import {
  campaignsUsingCourse,
  deleteCourseRow,
  insertCourse,
  listCustomCourses,
  updateCourseRow,
} from './courses.repository.js';
import { type CourseInput, checkCourseInput } from './courses.rules.js';

const courseNotFound = () => new AppError('course_not_found');
const builtInFixed = () => new AppError('course_built_in');

function checked(input: Record<string, unknown>): CourseInput {
  const errors = new FieldErrorCollector();
  const course = checkCourseInput(errors, input);
  errors.throwIfAny();
  return course;
}

function storedFields(course: CourseInput) {
  return {
    title: course.title,
    summary: course.summary,
    minutes: course.minutes,
    pass_mark: course.pass_mark,
    lessons: JSON.stringify(course.lessons),
    quiz: JSON.stringify(course.quiz),
  };
}

/** Every course an account can use: the built-in ones, then its own by title. */
export async function listCourses(db: Db, accountId: number): Promise<TrainingCourse[]> {
  const own = await listCustomCourses(db, accountId);
  return [...builtInCourses().values(), ...own.map(fromCourseRow)];
}

export async function getCourse(db: Db, accountId: number, key: string): Promise<TrainingCourse> {
  const course = await findCourse(db, accountId, key);
  if (!course) throw courseNotFound();
  return course;
}

/** Adds a course of the account's own (`custom-<id>`). */
export async function createCourse(
  db: Db,
  accountId: number,
  input: Record<string, unknown>,
): Promise<TrainingCourse> {
  const course = checked(input);
  await getAccount(db, accountId);
  const now = Date.now();
  return fromCourseRow(
    await insertCourse(db, accountId, {
      ...storedFields(course),
      created_at: now,
      updated_at: now,
    }),
  );
}

/**
 * Replaces an own course's content. Learners in running campaigns see the new lessons; their
 * progress and past scores stay as they were.
 */
export async function updateCourse(
  db: Db,
  accountId: number,
  key: string,
  input: Record<string, unknown>,
): Promise<TrainingCourse> {
  if (builtInCourses().has(key)) throw builtInFixed();
  const id = customCourseId(key);
  if (id === null) throw courseNotFound();
  const course = checked(input);
  const row = await updateCourseRow(db, accountId, id, { ...storedFields(course), updated_at: Date.now() });
  if (!row) throw courseNotFound();
  return fromCourseRow(row);
}

/** Deletes an own course that no campaign uses (a used one keeps its learners' progress meaningful). */
export async function deleteCourse(db: Db, accountId: number, key: string): Promise<void> {
  if (builtInCourses().has(key)) throw builtInFixed();
  const id = customCourseId(key);
  if (id === null) throw courseNotFound();
  await db.transaction().execute(async (trx) => {
    const users = await campaignsUsingCourse(trx, accountId, customCourseKey(id));
    if (users.length > 0) {
      throw new AppError('course_in_use', {
        message: `This course is used by ${users.map((n) => `"${n}"`).join(', ')}; it cannot be deleted`,
      });
    }
    if (!(await deleteCourseRow(trx, accountId, id))) throw courseNotFound();
  });
}
