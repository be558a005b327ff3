import { isoOrNull } from '../../../core/time.js';
import { renderMarkdown } from './courses.markdown.presenter.js';
import type { QuizRules } from './courses.quiz-rules.model.js';
import type { RuledCourse } from './courses.service.js';

export function presentQuizRules(rules: QuizRules) {
  return { max_attempts: rules.max_attempts, answers_shown: rules.answers_shown };
}

export function presentCourseSummary(course: RuledCourse) {
  return {
    key: course.key,
    title: course.title,
    summary: course.summary,
    minutes: course.minutes,
    pass_mark: course.pass_mark,
    lesson_count: course.lessons.length,
    question_count: course.quiz.length,
    built_in: course.built_in,
    ...presentQuizRules(course.rules),
    created_at: isoOrNull(course.created_at),
    updated_at: isoOrNull(course.updated_at),
  };
}

/** A whole course for its editor and preview: each lesson also rendered, exactly as learners see it. */
export function presentCourse(course: RuledCourse) {
  return {
    ...presentCourseSummary(course),
    lessons: course.lessons.map((lesson) => ({ ...lesson, html: renderMarkdown(lesson.markdown) })),
    quiz: course.quiz,
  };
}
