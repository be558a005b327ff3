// The course editor's state: the API's CourseInput plus a stable id per lesson, question and
// choice (React keys that survive reordering).
import { ApiError } from '../../api/client';
import type { Course, CourseInput } from '../../api/types';

let next = 0;
const newId = () => `d${++next}`;

export interface ChoiceDraft {
  id: string;
  text: string;
}

export interface LessonDraft {
  id: string;
  title: string;
  markdown: string;
}

export interface QuestionDraft {
  id: string;
  question: string;
  choices: ChoiceDraft[];
  /** Index of the right choice. */
  answer: number;
  explanation: string;
}

export const newLesson = (title = '', markdown = ''): LessonDraft => ({ id: newId(), title, markdown });

export const newQuestion = (): QuestionDraft => ({
  id: newId(),
  question: '',
  choices: [newChoice(), newChoice()],
  answer: 0,
  explanation: '',
});

export const newChoice = (text = ''): ChoiceDraft => ({ id: newId(), text });

export function lessonsOf(course: Course | null): LessonDraft[] {
  return course ? course.lessons.map((l) => newLesson(l.title, l.markdown)) : [newLesson()];
}

export function questionsOf(course: Course | null): QuestionDraft[] {
  if (!course) return [newQuestion()];
  return course.quiz.map((q) => ({
    id: newId(),
    question: q.question,
    choices: q.choices.map((c) => newChoice(c)),
    answer: q.answer,
    explanation: q.explanation,
  }));
}

export function toInput(
  basics: { title: string; summary: string; minutes: number | string; pass_mark: number | string },
  lessons: LessonDraft[],
  questions: QuestionDraft[],
): CourseInput {
  return {
    title: basics.title.trim(),
    summary: basics.summary.trim(),
    minutes: Number(basics.minutes),
    pass_mark: Number(basics.pass_mark),
    lessons: lessons.map((l) => ({ title: l.title.trim(), markdown: l.markdown })),
    quiz: questions.map((q) => ({
      question: q.question.trim(),
      choices: q.choices.map((c) => c.text.trim()),
      answer: q.answer,
      explanation: q.explanation.trim(),
    })),
  };
}

/** The list with one item changed. */
export function patchAt<T>(items: T[], index: number, patch: Partial<T>): T[] {
  return items.map((item, i) => (i === index ? { ...item, ...patch } : item));
}

/** Moves the item at `from` one step up (-1) or down (+1). */
export function move<T>(items: T[], from: number, step: -1 | 1): T[] {
  const to = from + step;
  if (to < 0 || to >= items.length) return items;
  const copy = [...items];
  [copy[from], copy[to]] = [copy[to] as T, copy[from] as T];
  return copy;
}

/** A nested field's name as the server writes it: ('quiz', 2, 'choices', 1) → `quiz[2].choices[1]`. */
export function fieldPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The messages for a nested field of a `400 Validation failed`, e.g. ('lessons', 0, 'title'). */
export function nestedError(error: unknown, ...path: (string | number)[]): string | undefined {
  return error instanceof ApiError ? error.fieldError(fieldPath(path)) : undefined;
}
