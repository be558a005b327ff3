import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { fromProjectRoot } from '../../../core/paths.js';

/**
 * The built-in course catalogue: `content/courses/<slug>/course.json` plus one Markdown file
 * per lesson, checked as it is read: a broken course fails with a message naming the file and
 * what is wrong (the test suite loads every built-in course), never in front of a learner.
 * The training campaigns issue (#4) builds enrollments and the learner page on this.
 */

export const CATALOGUE_ROOT = fromProjectRoot('content', 'courses');

const Question = Type.Object(
  {
    question: Type.String({ minLength: 1 }),
    choices: Type.Array(Type.String({ minLength: 1 }), { minItems: 2, maxItems: 6 }),
    answer: Type.Integer({ minimum: 0 }),
    explanation: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);

const CourseFile = Type.Object(
  {
    slug: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
    title: Type.String({ minLength: 1, maxLength: 150 }),
    summary: Type.String({ minLength: 1, maxLength: 500 }),
    minutes: Type.Integer({ minimum: 1, maximum: 600 }),
    pass_mark: Type.Integer({ minimum: 1, maximum: 100 }),
    lessons: Type.Array(
      Type.Object({
        title: Type.String({ minLength: 1 }),
        file: Type.String({ pattern: '^[\\w.-]+\\.md$' }),
      }),
      { minItems: 1 },
    ),
    quiz: Type.Array(Question, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type QuizQuestion = Static<typeof Question>;

export interface Lesson {
  title: string;
  /** The lesson's Markdown source. */
  markdown: string;
}

export interface Course extends Omit<Static<typeof CourseFile>, 'lessons'> {
  lessons: Lesson[];
}

export class CatalogueError extends Error {}

function loadCourse(folder: string): Course {
  const where = join(folder, 'course.json');
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(where, 'utf8'));
  } catch (err) {
    throw new CatalogueError(`${where}: ${(err as Error).message}`);
  }
  const problem = Value.Errors(CourseFile, data).First();
  if (problem) throw new CatalogueError(`${where}: ${problem.path || '/'} ${problem.message}`);
  const course = data as Static<typeof CourseFile>;
  if (course.slug !== folder.split(/[\\/]/).pop()) {
    throw new CatalogueError(`${where}: slug "${course.slug}" differs from its folder`);
  }
  course.quiz.forEach((q, i) => {
    if (q.answer >= q.choices.length) {
      throw new CatalogueError(`${where}: /quiz/${i}/answer points past the last choice`);
    }
  });
  const lessons = course.lessons.map((lesson) => {
    const file = join(folder, lesson.file);
    if (!existsSync(file)) throw new CatalogueError(`${where}: lesson file ${lesson.file} is missing`);
    return { title: lesson.title, markdown: readFileSync(file, 'utf8') };
  });
  return { ...course, lessons };
}

/** Every built-in course, in slug order. */
export function loadCatalogue(root = CATALOGUE_ROOT): Course[] {
  if (!existsSync(root)) throw new CatalogueError(`course catalogue not found at ${root}`);
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => loadCourse(join(root, name)));
}

export interface QuizResult {
  correct: number;
  total: number;
  /** Whole percent, rounded down: 7 of 8 is 87, so a pass mark of 88 is not reached. */
  score: number;
  passed: boolean;
}

/** Scores a learner's answers (choice indexes, one per question; missing ones count as wrong). */
export function scoreQuiz(
  course: Pick<Course, 'quiz' | 'pass_mark'>,
  answers: readonly (number | null)[],
): QuizResult {
  const total = course.quiz.length;
  const correct = course.quiz.filter((q, i) => answers[i] === q.answer).length;
  const score = total === 0 ? 0 : Math.floor((correct * 100) / total);
  return { correct, total, score, passed: score >= course.pass_mark };
}
