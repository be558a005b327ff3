import { scoreQuiz } from '../courses/catalogue.js';
import { html } from './learner.html.js';
import { learnerPage } from './learner.layout.js';
import type { LearnerPaths } from './learner.paths.js';
import { firstUnreadLesson, type LearnerCourse } from './learner.progress.js';
import { backToCourses, courseEntry } from './learner.views.js';

/** The quiz of a course, the page shown while its lessons are unread, and an attempt's result. */

function listOfQuestions(numbers: number[]): string {
  const names = numbers.map(String);
  if (names.length === 1) return `Question ${names[0]}`;
  return `Questions ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The quiz form. After a submission with unanswered questions, `given` holds the answers that
 * were given (kept checked) and `missing` the questions to answer, each marked.
 */
export function quizPage(
  paths: LearnerPaths,
  entry: LearnerCourse,
  given?: { answers: (number | null)[]; missing: number[] },
): string {
  const { course, progress } = entry;
  const missing = new Set(given?.missing ?? []);
  const count = course.quiz.length;
  const body = html`
${backToCourses(paths)}
<p class="eyebrow">${course.title}</p>
<h1>Quiz</h1>
<p>${count} ${count === 1 ? 'question' : 'questions'}. You need ${course.pass_mark}% to pass, and you can try as often as you like.</p>
${
  progress.passedAt !== null &&
  html`<div class="notice ok"><p>You have passed this quiz with ${progress.bestScore ?? 0}%. Taking it again can only raise your best score.</p></div>`
}
${
  missing.size > 0 &&
  html`<div class="notice bad" role="alert" aria-labelledby="error-title">
<h2 id="error-title">Please answer every question</h2>
<p>${listOfQuestions([...missing].map((i) => i + 1))} ${missing.size === 1 ? 'has' : 'have'} no answer yet.</p>
<ul>${[...missing].map((i) => html`<li><a href="#q${i + 1}">Question ${i + 1}</a></li>`)}</ul>
</div>`
}
<form method="post" action="${paths.quiz(course.key)}">
${course.quiz.map((question, i) => {
  const isMissing = missing.has(i);
  return html`<fieldset class="question${isMissing ? ' missing' : ''}" id="q${i + 1}"${
    isMissing ? html` aria-describedby="q${i + 1}-error"` : ''
  }>
<legend><span class="eyebrow">Question ${i + 1} of ${count}</span>${question.question}</legend>
${isMissing && html`<p class="field-error" id="q${i + 1}-error">Choose an answer</p>`}
${question.choices.map(
  (choice, c) =>
    html`<label class="choice"><input type="radio" name="q${i}" value="${c}"${
      given?.answers[i] === c ? html` checked` : ''
    }><span>${choice}</span></label>`,
)}
</fieldset>`;
})}
<div class="actions"><button class="button" type="submit">Submit answers</button></div>
</form>`;
  return learnerPage(`Quiz · ${course.title}`, body);
}

/** Shown instead of the quiz until every lesson of the course is read. */
export function quizLockedPage(paths: LearnerPaths, entry: LearnerCourse): string {
  const { course, progress } = entry;
  const unread = firstUnreadLesson(entry) ?? 0;
  const read = progress.lessonsRead.filter((i) => i < course.lessons.length).length;
  const body = html`
${backToCourses(paths)}
<p class="eyebrow">${course.title}</p>
<h1>Read the lessons first</h1>
<p>The quiz opens once you have read every lesson of this course. You have read ${read} of ${course.lessons.length}.</p>
<div class="actions"><a class="button" href="${paths.lesson(course.key, unread + 1)}">Go to lesson ${unread + 1}: ${
    course.lessons[unread]?.title ?? ''
  }</a></div>`;
  return learnerPage(`Quiz · ${course.title}`, body);
}

/** The next course in the campaign (after this one, then from the start) that is not passed yet. */
function nextCourse(courses: LearnerCourse[], position: number): LearnerCourse | undefined {
  const ordered = [...courses.slice(position + 1), ...courses.slice(0, position)];
  return ordered.find((c) => c.progress.passedAt === null);
}

/** The last attempt: score, pass mark, and each question with the answer given, the right one and why. */
export function resultPage(
  paths: LearnerPaths,
  courses: LearnerCourse[],
  position: number,
  answers: number[],
): string {
  const entry = courses[position];
  if (!entry) throw new Error('course position out of range');
  const { course, progress } = entry;
  const result = scoreQuiz(course, answers);
  const next = nextCourse(courses, position);
  const coursePassed = progress.passedAt !== null;
  const body = html`
${backToCourses(paths)}
<p class="eyebrow">${course.title} · Quiz result</p>
<h1>${result.passed ? 'You passed' : 'Not passed yet'}</h1>
<div class="card">
<p class="score">${result.score}%</p>
<p>${result.correct} of ${result.total} correct. The pass mark is ${course.pass_mark}%.</p>
${
  !result.passed &&
  (coursePassed
    ? html`<p class="muted">You passed this quiz before, with a best score of ${progress.bestScore ?? 0}%.</p>`
    : html`<p class="muted">Read the explanations below, then try again. Your best score counts.</p>`)
}
<div class="actions">
${!result.passed && html`<a class="button${coursePassed ? ' secondary' : ''}" href="${paths.quiz(course.key)}">Try again</a>`}
${
  coursePassed &&
  (next
    ? html`<a class="button" href="${courseEntry(paths, next).href}">Next course<span class="sr-only">: ${next.course.title}</span></a>`
    : html`<a class="button" href="${paths.done}">Finish</a>`)
}
</div>
</div>
<h2>Your answers</h2>
<ol class="list review">
${course.quiz.map((question, i) => {
  const given = answers[i];
  const right = given === question.answer;
  return html`<li class="card">
<p class="eyebrow">Question ${i + 1} of ${course.quiz.length} · ${right ? 'Correct' : 'Incorrect'}</p>
<h3>${question.question}</h3>
<p class="answer ${right ? 'right' : 'wrong'}"><span class="mark" aria-hidden="true">${right ? '✓' : '✗'}</span>Your answer: ${
    given === undefined ? 'none' : (question.choices[given] ?? 'none')
  }</p>
${!right && html`<p class="answer right"><span class="mark" aria-hidden="true">✓</span>Right answer: ${question.choices[question.answer]}</p>`}
<p class="explanation">${question.explanation}</p>
</li>`;
})}
</ol>`;
  return learnerPage(`Quiz result · ${course.title}`, body);
}
