import type { AnswersShown } from '../../../core/db/schema.js';
import type { FieldErrorCollector } from '../../../core/errors.js';

/**
 * A quiz's rules, per course and account (built-in courses too): how many attempts a learner has,
 * and when the right answers (with their explanations) are shown after an attempt. Pure rules;
 * the learner pages and the admin API apply them.
 */

export type { AnswersShown };

export interface QuizRules {
  /** Attempts a learner has; null: as many as they like. */
  max_attempts: number | null;
  answers_shown: AnswersShown;
}

export const ANSWERS_SHOWN: readonly AnswersShown[] = ['passed_or_last', 'always', 'never'];

/** Unlimited attempts; the right answers once passed or after the last attempt. */
export const DEFAULT_QUIZ_RULES: QuizRules = { max_attempts: null, answers_shown: 'passed_or_last' };

/** The bounds of the rules (served to the editor by GET /admin/api/limits). */
export const QUIZ_RULE_LIMITS = { max_attempts: { min: 1, max: 20 } } as const;

/** Reads the rules from a request: `max_attempts` a whole number in bounds or null, `answers_shown` one of ANSWERS_SHOWN. */
export function checkQuizRules(errors: FieldErrorCollector, input: Record<string, unknown>): QuizRules {
  const { min, max } = QUIZ_RULE_LIMITS.max_attempts;
  const attempts = input.max_attempts ?? null;
  let maxAttempts: number | null = null;
  if (attempts !== null) {
    if (typeof attempts !== 'number' || !Number.isInteger(attempts) || attempts < min || attempts > max) {
      errors.add('max_attempts', `must be a whole number from ${min} to ${max}, or empty for unlimited`);
    } else maxAttempts = attempts;
  }
  const shown = input.answers_shown ?? DEFAULT_QUIZ_RULES.answers_shown;
  if (typeof shown !== 'string' || !(ANSWERS_SHOWN as readonly string[]).includes(shown)) {
    errors.add('answers_shown', `must be one of ${ANSWERS_SHOWN.join(', ')}`);
    return { max_attempts: maxAttempts, answers_shown: DEFAULT_QUIZ_RULES.answers_shown };
  }
  return { max_attempts: maxAttempts, answers_shown: shown as AnswersShown };
}

/** Attempts still open to a learner who made `attempts`; null: unlimited. */
export function attemptsLeft(rules: QuizRules, attempts: number): number | null {
  return rules.max_attempts === null ? null : Math.max(rules.max_attempts - attempts, 0);
}

/**
 * Whether a learner may see the right answers and explanations now: `always`; never with
 * `never`; by default once they passed the quiz, or when they have no attempt left.
 */
export function answersRevealed(rules: QuizRules, state: { passed: boolean; attempts: number }): boolean {
  switch (rules.answers_shown) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'passed_or_last':
      return state.passed || attemptsLeft(rules, state.attempts) === 0;
  }
}

/**
 * The course's score after an attempt: the best passing attempt once one passed (a failing one
 * never replaces it, even if a pass mark lowered since makes it higher), else the best attempt.
 */
export function bestScore(
  before: { bestScore: number | null; passed: boolean },
  attempt: { score: number; passed: boolean },
): number {
  if (before.bestScore === null) return attempt.score;
  if (before.passed === attempt.passed) return Math.max(before.bestScore, attempt.score);
  return before.passed ? before.bestScore : attempt.score;
}
