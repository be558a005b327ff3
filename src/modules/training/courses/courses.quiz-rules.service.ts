import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { findCourse } from './courses.lookup.service.js';
import { checkQuizRules, DEFAULT_QUIZ_RULES, type QuizRules } from './courses.quiz-rules.model.js';
import { findQuizRules, upsertQuizRules } from './courses.repository.js';

/** An account's quiz rules of its courses: read for the learner pages and the admin API, set by an administrator. */

/** The rules of each of these courses for the account (the defaults where none were set), by key. */
export async function quizRulesOf(
  db: Db,
  accountId: number,
  courseKeys: string[],
): Promise<Map<string, QuizRules>> {
  const keys = [...new Set(courseKeys)];
  const rows = new Map((await findQuizRules(db, accountId, keys)).map((r) => [r.course_key, r]));
  return new Map(
    keys.map((key) => {
      const row = rows.get(key);
      return [
        key,
        row ? { max_attempts: row.max_attempts, answers_shown: row.answers_shown } : DEFAULT_QUIZ_RULES,
      ];
    }),
  );
}

export async function quizRulesOfCourse(db: Db, accountId: number, courseKey: string): Promise<QuizRules> {
  return (await quizRulesOf(db, accountId, [courseKey])).get(courseKey) ?? DEFAULT_QUIZ_RULES;
}

/** Checks quiz rules from a request, throwing the field errors. */
export function checkedQuizRules(input: Record<string, unknown>): QuizRules {
  const errors = new FieldErrorCollector();
  const rules = checkQuizRules(errors, input);
  errors.throwIfAny();
  return rules;
}

/**
 * Sets the account's quiz rules of a course, built-in or its own. They apply to the next attempt
 * in every campaign that uses the course; attempts already made stay as they were.
 */
export async function setQuizRules(
  db: Db,
  accountId: number,
  courseKey: string,
  input: Record<string, unknown>,
): Promise<QuizRules> {
  const rules = checkedQuizRules(input);
  const course = await findCourse(db, accountId, courseKey);
  if (!course) throw new AppError('course_not_found');
  await db.transaction().execute(async (trx) => {
    const before = await quizRulesOfCourse(trx, accountId, courseKey);
    await upsertQuizRules(trx, accountId, courseKey, { ...rules, updated_at: Date.now() });
    await recordAudit(trx, {
      accountId,
      action: 'course.quiz_rules_updated',
      object: { type: 'course', id: courseKey, label: course.title },
      changes: diffFields(before, rules),
    });
  });
  return rules;
}
