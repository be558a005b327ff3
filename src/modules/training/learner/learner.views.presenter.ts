import { trainingTitle } from '../../mail/index.js';
import { renderMarkdown } from '../courses/courses.markdown.presenter.js';
import { attemptsLeft } from '../courses/courses.quiz-rules.model.js';
import { html, SafeHtml } from './learner.html.presenter.js';
import { learnerPage, type PageBrand } from './learner.layout.presenter.js';
import type { LearnerPaths } from './learner.paths.model.js';
import { firstUnreadLesson, type Learner, type LearnerCourse } from './learner.progress.service.js';

/** The learner's own pages: the overview of their courses, a lesson, the completion page. */

const DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** A plain date in UTC, e.g. "14 March 2027". */
export function formatDate(ms: number): string {
  return DATE.format(new Date(ms));
}

export const backToCourses = (paths: LearnerPaths) =>
  html`<nav aria-label="Breadcrumb"><p><a href="${paths.overview}">← Your courses</a></p></nav>`;

function isPassed(entry: LearnerCourse): boolean {
  return entry.progress.passedAt !== null;
}

/** Where a course's button leads: the first unread lesson, else the quiz; a passed course from its start. */
export function courseEntry(paths: LearnerPaths, entry: LearnerCourse): { label: string; href: string } {
  const key = entry.course.key;
  if (isPassed(entry)) return { label: 'Review', href: paths.lesson(key, 1) };
  if (attemptsLeft(entry.rules, entry.progress.attempts) === 0)
    return { label: 'See result', href: paths.result(key) };
  const started = entry.progress.lessonsRead.length > 0 || entry.progress.attempts > 0;
  const unread = firstUnreadLesson(entry);
  return {
    label: started ? 'Continue' : 'Start',
    href: unread === null ? paths.quiz(key) : paths.lesson(key, unread + 1),
  };
}

function quizLine({ progress, rules }: LearnerCourse): string {
  if (progress.passedAt !== null) return `Quiz passed with ${progress.bestScore ?? 0}%`;
  const left = attemptsLeft(rules, progress.attempts);
  const allowance = left === null ? '' : ` · ${left} ${left === 1 ? 'attempt' : 'attempts'} left`;
  if (left === 0) return `Quiz not passed (best ${progress.bestScore ?? 0}%) · no attempts left`;
  if (progress.attempts > 0) return `Quiz not passed yet (best ${progress.bestScore ?? 0}%)${allowance}`;
  return `Quiz not taken yet${allowance}`;
}

function statusPill(entry: LearnerCourse): SafeHtml {
  if (isPassed(entry)) return html`<p class="status ok">Passed</p>`;
  if (attemptsLeft(entry.rules, entry.progress.attempts) === 0)
    return html`<p class="status bad">Not passed</p>`;
  const started = entry.progress.lessonsRead.length > 0 || entry.progress.attempts > 0;
  return started
    ? html`<p class="status todo">In progress</p>`
    : html`<p class="status todo">Not started</p>`;
}

/** Lessons read and quizzes passed, out of all of them, as a whole percent. */
function overallPercent(courses: LearnerCourse[]): number {
  const total = courses.reduce((sum, c) => sum + c.course.lessons.length + 1, 0);
  const done = courses.reduce(
    (sum, c) =>
      sum +
      c.progress.lessonsRead.filter((i) => i < c.course.lessons.length).length +
      (c.progress.passedAt === null ? 0 : 1),
    0,
  );
  return total === 0 ? 0 : Math.floor((done * 100) / total);
}

function dueNotice(learner: Learner, now: number): SafeHtml | null {
  const due = learner.campaign.dueAt;
  if (due === null) return null;
  if (learner.completedAt === null && now > due) {
    return html`<div class="notice warn"><p><strong>Overdue.</strong> This training was due on ${formatDate(due)}. Please finish it as soon as you can.</p></div>`;
  }
  return html`<p class="meta">Due by ${formatDate(due)}</p>`;
}

export function overviewPage(
  paths: LearnerPaths,
  learner: Learner,
  courses: LearnerCourse[],
  now: number,
): string {
  const percent = overallPercent(courses);
  const passed = courses.filter(isPassed).length;
  const body = html`
<p class="eyebrow">Hello, ${learner.firstName}</p>
<h1>Your security training</h1>
<p class="lead">${learner.brand.displayName} has asked you to complete ${
    courses.length === 1 ? 'this course' : `these ${courses.length} courses`
  }. Your progress is saved as you go.</p>
${dueNotice(learner, now)}
${
  learner.completedAt !== null &&
  html`<div class="notice ok"><p><strong>You have completed this training.</strong> <a href="${paths.done}">See your completion</a></p></div>`
}
<section aria-labelledby="progress-title">
<h2 id="progress-title">Your progress</h2>
<div class="bar"><progress max="100" value="${percent}" aria-labelledby="progress-title">${percent}%</progress><strong>${percent}%</strong></div>
<p class="muted">${passed} of ${courses.length} ${courses.length === 1 ? 'course' : 'courses'} passed</p>
</section>
<section aria-labelledby="courses-title">
<h2 id="courses-title">Your courses</h2>
<ol class="list">
${courses.map((entry) => {
  const { course, progress } = entry;
  const read = progress.lessonsRead.filter((i) => i < course.lessons.length).length;
  const action = courseEntry(paths, entry);
  return html`<li class="card">
${statusPill(entry)}
<h3>${course.title}</h3>
<p class="meta">${course.minutes} min · ${read} of ${course.lessons.length} lessons read · ${quizLine(entry)}</p>
<a class="button${isPassed(entry) ? ' secondary' : ''}" href="${action.href}">${action.label}<span class="sr-only"> ${course.title}</span></a>
</li>`;
})}
</ol>
</section>`;
  return learnerPage('Your security training', body, learner.brand);
}

export function lessonPage(
  paths: LearnerPaths,
  entry: LearnerCourse,
  index: number,
  brand?: PageBrand,
): string {
  const { course, progress } = entry;
  const key = course.key;
  const count = course.lessons.length;
  const lesson = course.lessons[index];
  if (!lesson) throw new Error('lesson index out of range');
  const read = progress.lessonsRead.includes(index);
  const last = index === count - 1;
  const next = last ? paths.quiz(key) : paths.lesson(key, index + 2);
  const previousLesson = course.lessons[index - 1];
  const nextLesson = course.lessons[index + 1];
  const body = html`
${backToCourses(paths)}
<p class="eyebrow">${course.title} · Lesson ${index + 1} of ${count}</p>
<h1>${lesson.title}</h1>
${read && html`<p class="status ok">Read</p>`}
<article class="prose">
${new SafeHtml(renderMarkdown(lesson.markdown))}
</article>
<div class="actions">
${
  read
    ? html`<a class="button" href="${next}">${last ? 'Go to the quiz' : 'Next lesson'}</a>`
    : html`<form method="post" action="${paths.lesson(key, index + 1)}"><button class="button" type="submit">Mark as read and continue</button></form>`
}
</div>
<nav class="pager" aria-label="Lessons">
<span>${previousLesson && html`<a href="${paths.lesson(key, index)}" rel="prev">← Previous: ${previousLesson.title}</a>`}</span>
<span>${
    nextLesson
      ? html`<a href="${paths.lesson(key, index + 2)}" rel="next">Next: ${nextLesson.title} →</a>`
      : html`<a href="${paths.quiz(key)}">Quiz →</a>`
  }</span>
</nav>`;
  return learnerPage(`${lesson.title} · ${course.title}`, body, brand);
}

const CHECK = html`<svg width="36" height="36" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z"/></svg>`;

export function completionPage(
  paths: LearnerPaths,
  learner: Learner & { completedAt: number },
  courses: LearnerCourse[],
): string {
  const body = html`
<div class="done-mark">${CHECK}</div>
<h1>Congratulations, ${learner.firstName}!</h1>
<p class="lead">You completed <strong>${trainingTitle(courses.map(({ course }) => course))}</strong> on ${formatDate(learner.completedAt)}.</p>
<div class="card">
<p class="eyebrow">Your score</p>
<p class="score">${learner.score ?? 0}%</p>
<p class="muted">The average of your best quiz score in each course.</p>
</div>
<h2>Your courses</h2>
<ul class="list">
${courses.map(
  ({ course, progress }) =>
    html`<li class="card"><h3>${course.title}</h3><p class="meta">${
      progress.passedAt === null
        ? 'Not passed'
        : `Passed on ${formatDate(progress.passedAt)} · best score ${progress.bestScore ?? 0}%`
    }</p></li>`,
)}
</ul>
<p>Thank you for taking the time. You can close this page now.</p>
${!learner.ended && html`<div class="actions"><a class="button secondary" href="${paths.overview}">Back to your courses</a></div>`}`;
  return learnerPage('Training completed', body, learner.brand);
}
