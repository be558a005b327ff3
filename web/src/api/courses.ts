// Built-in and custom training courses (docs/admin-api.md § Courses).
import { request } from './client';

export interface CourseSummary {
  /** A built-in slug ("phishing") or `custom-<id>`. */
  key: string;
  title: string;
  summary: string;
  minutes: number;
  /** Whole percent of right answers needed to pass. */
  pass_mark: number;
  lesson_count: number;
  question_count: number;
  built_in: boolean;
  created_at: string | null;
  updated_at: string | null;
}

export interface QuizQuestion {
  question: string;
  choices: string[];
  /** Index of the right choice. */
  answer: number;
  explanation: string;
}

export interface Lesson {
  title: string;
  /** The source, for editing a custom course. */
  markdown: string;
  /** Rendered (and made safe) by the server, exactly as the learner sees it. */
  html: string;
}

export interface Course extends CourseSummary {
  lessons: Lesson[];
  quiz: QuizQuestion[];
}

export interface CourseInput {
  title: string;
  summary: string;
  minutes: number;
  pass_mark: number;
  lessons: { title: string; markdown: string }[];
  quiz: QuizQuestion[];
}

const base = (accountId: number) => `/accounts/${accountId}/courses`;

export function listCourses(accountId: number): Promise<{ results: CourseSummary[] }> {
  return request(base(accountId));
}

export function getCourse(accountId: number, key: string): Promise<Course> {
  return request(`${base(accountId)}/${encodeURIComponent(key)}`);
}

export function createCourse(accountId: number, input: CourseInput): Promise<Course> {
  return request(base(accountId), { method: 'POST', body: input });
}

export function updateCourse(accountId: number, key: string, input: CourseInput): Promise<Course> {
  return request(`${base(accountId)}/${encodeURIComponent(key)}`, { method: 'PUT', body: input });
}

export function deleteCourse(accountId: number, key: string): Promise<void> {
  return request(`${base(accountId)}/${encodeURIComponent(key)}`, { method: 'DELETE' });
}
