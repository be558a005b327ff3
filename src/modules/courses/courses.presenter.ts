import { isoOrNull } from '../../time.js';
import type { TrainingCourse } from './courses.lookup.js';
import { renderMarkdown } from './markdown.js';

export function presentCourseSummary(course: TrainingCourse) {
  return {
    key: course.key,
    title: course.title,
    summary: course.summary,
    minutes: course.minutes,
    pass_mark: course.pass_mark,
    lesson_count: course.lessons.length,
    question_count: course.quiz.length,
    built_in: course.built_in,
    created_at: isoOrNull(course.created_at),
    updated_at: isoOrNull(course.updated_at),
  };
}

/** A whole course for its editor and preview: each lesson also rendered, exactly as learners see it. */
export function presentCourse(course: TrainingCourse) {
  return {
    ...presentCourseSummary(course),
    lessons: course.lessons.map((lesson) => ({ ...lesson, html: renderMarkdown(lesson.markdown) })),
    quiz: course.quiz,
  };
}
