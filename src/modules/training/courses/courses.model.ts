import type { FieldErrorCollector } from '../../../core/errors.js';
import { checkName, checkText } from '../../../core/fields.js';
import type { QuizQuestion } from './courses.catalogue.service.js';
import type { TrainingCourse } from './courses.lookup.service.js';
import { QUIZ_RULE_LIMITS } from './courses.quiz-rules.model.js';

/** What an administrator's own course may hold (the built-in ones follow content/courses/README.md). */

export const MAX_LESSONS = 50;
export const MAX_QUESTIONS = 50;

/** Every bound a course's fields have (served to the editor by GET /admin/api/limits). */
export const COURSE_LIMITS = {
  summary_max: 500,
  minutes: { min: 1, max: 600 },
  pass_mark: { min: 1, max: 100 },
  lessons_max: MAX_LESSONS,
  lesson_markdown_max: 100_000,
  questions_max: MAX_QUESTIONS,
  question_max: 1000,
  choices: { min: 2, max: 6 },
  choice_max: 500,
  explanation_max: 2000,
  max_attempts: QUIZ_RULE_LIMITS.max_attempts,
} as const;
const L = COURSE_LIMITS;

/** The fields of a course that its author writes. */
export type CourseInput = Pick<
  TrainingCourse,
  'title' | 'summary' | 'minutes' | 'pass_mark' | 'lessons' | 'quiz'
>;

function checkInteger(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  min: number,
  max: number,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    errors.add(field, `must be a whole number from ${min} to ${max}`);
    return min;
  }
  return value;
}

function checkList(errors: FieldErrorCollector, field: string, value: unknown, max: number): unknown[] {
  if (!Array.isArray(value)) {
    errors.add(field, 'must be a list');
    return [];
  }
  if (value.length === 0) errors.add(field, 'must not be empty');
  if (value.length > max) errors.add(field, `must have at most ${max} entries`);
  return value.slice(0, max);
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function checkQuestion(errors: FieldErrorCollector, field: string, value: unknown): QuizQuestion {
  const q = record(value);
  const question = checkText(errors, `${field}.question`, q.question, { min: 1, max: L.question_max });
  const choices = checkList(errors, `${field}.choices`, q.choices, L.choices.max).map((choice, j) =>
    checkText(errors, `${field}.choices[${j}]`, choice, { min: 1, max: L.choice_max }),
  );
  if (choices.length > 0 && choices.length < L.choices.min) {
    errors.add(`${field}.choices`, `must have at least ${L.choices.min} choices`);
  }
  const answer = checkInteger(errors, `${field}.answer`, q.answer, 0, Math.max(choices.length - 1, 0));
  const explanation = checkText(errors, `${field}.explanation`, q.explanation ?? '', {
    min: 0,
    max: L.explanation_max,
  });
  return { question, choices, answer, explanation };
}

/** Reads a course from a request; every problem is a field error named by its path, e.g. `quiz[2].answer`. */
export function checkCourseInput(errors: FieldErrorCollector, input: Record<string, unknown>): CourseInput {
  return {
    title: checkName(errors, 'title', input.title),
    summary: checkText(errors, 'summary', input.summary ?? '', { min: 0, max: L.summary_max }),
    minutes: checkInteger(errors, 'minutes', input.minutes, L.minutes.min, L.minutes.max),
    pass_mark: checkInteger(errors, 'pass_mark', input.pass_mark, L.pass_mark.min, L.pass_mark.max),
    lessons: checkList(errors, 'lessons', input.lessons, MAX_LESSONS).map((value, i) => {
      const lesson = record(value);
      return {
        title: checkName(errors, `lessons[${i}].title`, lesson.title),
        markdown: checkText(errors, `lessons[${i}].markdown`, lesson.markdown, {
          min: 1,
          max: L.lesson_markdown_max,
        }),
      };
    }),
    quiz: checkList(errors, 'quiz', input.quiz, MAX_QUESTIONS).map((value, i) =>
      checkQuestion(errors, `quiz[${i}]`, value),
    ),
  };
}
