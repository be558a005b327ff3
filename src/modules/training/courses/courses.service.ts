import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { getAccount } from '../../access/index.js';
import {
  builtInCourses,
  customCourseId,
  customCourseKey,
  findCourse,
  fromCourseRow,
  type TrainingCourse,
} from './courses.lookup.service.js';
import { type CourseInput, checkCourseInput } from './courses.model.js';
import { checkQuizRules, DEFAULT_QUIZ_RULES, type QuizRules } from './courses.quiz-rules.model.js';
import { quizRulesOf, quizRulesOfCourse } from './courses.quiz-rules.service.js';
import {
  campaignsUsingCourse,
  deleteCourseRow,
  deleteQuizRules,
  insertCourse,
  listCustomCourses,
  updateCourseRow,
  upsertQuizRules,
} from './courses.repository.js';

/** A course as its administrators see it: with the account's quiz rules of it. */
export type RuledCourse = TrainingCourse & { rules: QuizRules };

const courseNotFound = () => new AppError('course_not_found');
const builtInFixed = () => new AppError('course_built_in');

/** The course and, when the request names either, its quiz rules (both checked at once). */
function checked(input: Record<string, unknown>): { course: CourseInput; rules: QuizRules | null } {
  const errors = new FieldErrorCollector();
  const course = checkCourseInput(errors, input);
  const named = input.max_attempts !== undefined || input.answers_shown !== undefined;
  const rules = named ? checkQuizRules(errors, input) : null;
  errors.throwIfAny();
  return { course, rules };
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

/** What the audit log shows of a course: its settings, and only that the (long) lessons or quiz changed. */
const COURSE_AUDIT = {
  fields: ['title', 'summary', 'minutes', 'pass_mark', 'rules', 'lessons', 'quiz'],
  secrets: ['lessons', 'quiz'],
};

/** Every course an account can use: the built-in ones, then its own by title. */
export async function listCourses(db: Db, accountId: number): Promise<RuledCourse[]> {
  const own = await listCustomCourses(db, accountId);
  const courses = [...builtInCourses().values(), ...own.map(fromCourseRow)];
  const rules = await quizRulesOf(
    db,
    accountId,
    courses.map((c) => c.key),
  );
  return courses.flatMap((c) => {
    const ruled = rules.get(c.key);
    return ruled ? [{ ...c, rules: ruled }] : [];
  });
}

export async function getCourse(db: Db, accountId: number, key: string): Promise<RuledCourse> {
  const course = await findCourse(db, accountId, key);
  if (!course) throw courseNotFound();
  return { ...course, rules: await quizRulesOfCourse(db, accountId, key) };
}

/** Adds a course of the account's own (`custom-<id>`). */
export async function createCourse(
  db: Db,
  accountId: number,
  input: Record<string, unknown>,
): Promise<RuledCourse> {
  const { course, rules } = checked(input);
  await getAccount(db, accountId);
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const created = fromCourseRow(
      await insertCourse(trx, accountId, { ...storedFields(course), created_at: now, updated_at: now }),
    );
    const set = rules ?? DEFAULT_QUIZ_RULES;
    if (rules) await upsertQuizRules(trx, accountId, created.key, { ...rules, updated_at: now });
    await recordAudit(trx, {
      accountId,
      action: 'course.created',
      object: { type: 'course', id: created.key, label: created.title },
      changes: diffFields(null, { ...created, rules: set }, COURSE_AUDIT),
    });
    return { ...created, rules: set };
  });
}

/**
 * Replaces an own course's content (and its quiz rules when the request names them). Learners in running campaigns see the new lessons; their
 * progress and past scores stay as they were.
 */
export async function updateCourse(
  db: Db,
  accountId: number,
  key: string,
  input: Record<string, unknown>,
): Promise<RuledCourse> {
  if (builtInCourses().has(key)) throw builtInFixed();
  const id = customCourseId(key);
  if (id === null) throw courseNotFound();
  const { course, rules } = checked(input);
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const before = await findCourse(trx, accountId, key);
    const row = await updateCourseRow(trx, accountId, id, { ...storedFields(course), updated_at: now });
    if (!row || !before) throw courseNotFound();
    const rulesBefore = await quizRulesOfCourse(trx, accountId, key);
    if (rules) await upsertQuizRules(trx, accountId, key, { ...rules, updated_at: now });
    const updated = { ...fromCourseRow(row), rules: rules ?? rulesBefore };
    await recordAudit(trx, {
      accountId,
      action: 'course.updated',
      object: { type: 'course', id: key, label: updated.title },
      changes: diffFields({ ...before, rules: rulesBefore }, updated, COURSE_AUDIT),
    });
    return updated;
  });
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
    const before = await findCourse(trx, accountId, key);
    if (!(await deleteCourseRow(trx, accountId, id))) throw courseNotFound();
    await deleteQuizRules(trx, accountId, key);
    await recordAudit(trx, {
      accountId,
      action: 'course.deleted',
      object: { type: 'course', id: key, label: before?.title ?? null },
    });
  });
}
