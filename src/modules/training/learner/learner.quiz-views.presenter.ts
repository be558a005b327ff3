import { scoreQuiz } from '../courses/courses.catalogue.service.js';
import { answersRevealed, attemptsLeft } from '../courses/courses.quiz-rules.model.js';
import { html, type SafeHtml } from './learner.html.presenter.js';
import { learnerPage, type PageBrand } from './learner.layout.presenter.js';
import type { LearnerPaths } from './learner.paths.model.js';
import { firstUnreadLesson, type LearnerCourse } from './learner.progress.service.js';
import { backToCourses, courseEntry } from './learner.views.presenter.js';

/** The quiz of a course, the page shown while its lessons are unread, and an attempt's result. */

const attemptsWord = (n: number) => (n === 1 ? 'attempt' : 'attempts');

/** How many attempts the learner has, as the quiz page states it. */
function allowanceLine({ rules, progress }: LearnerCourse): string {
  const left = attemptsLeft(rules, progress.attempts);
  if (left === null || rules.max_attempts === null) return 'you can try as often as you like';
  if (progress.attempts === 0) return `you have ${left} ${attemptsWord(left)}`;
  return `you have ${left} of ${rules.max_attempts} ${attemptsWord(rules.max_attempts)} left`;
}

/** When the right answers are shown, as the quiz page states it beforehand. */
function answersLine({ rules }: LearnerCourse): string {
  switch (rules.answers_shown) {
    case 'always':
      return 'After each attempt you see the right answers.';
    case 'never':
      return 'The right answers are not shown after an attempt; you see your score.';
    case 'passed_or_last':
      return rules.max_attempts === null
        ? 'The right answers are shown once you pass.'
        : 'The right answers are shown once you pass, or after your last attempt.';
  }
}

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
  brand?: PageBrand,
): string {
  const { course, progress } = entry;
  const missing = new Set(given?.missing ?? []);
  const count = course.quiz.length;
  const body = html`
${backToCourses(paths)}
<p class="eyebrow">${course.title}</p>
<h1>Quiz</h1>
<p>${count} ${count === 1 ? 'question' : 'questions'}. You need ${course.pass_mark}% to pass, and ${allowanceLine(entry)}.</p>
<p class="muted">${answersLine(entry)}</p>
${
  progress.passedAt !== null &&
  html`<div class="notice ok"><p>You have passed this quiz with ${progress.bestScore ?? 0}%. Taking it again can only raise your best score.</p></div>`
}
${
  entry.rules.max_attempts !== null &&
  attemptsLeft(entry.rules, progress.attempts) === 1 &&
  progress.passedAt === null &&
  html`<div class="notice warn"><p><strong>This is your last attempt.</strong> Take your time.</p></div>`
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
  return learnerPage(`Quiz · ${course.title}`, body, brand);
}

/** Shown instead of the quiz until every lesson of the course is read. */
export function quizLockedPage(paths: LearnerPaths, entry: LearnerCourse, brand?: PageBrand): string {
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
  return learnerPage(`Quiz · ${course.title}`, body, brand);
}

/**
 * Shown instead of the quiz once every attempt the course allows is used: the score that counts
 * and where to go from here. No form: another attempt would not be recorded.
 */
export function quizClosedPage(paths: LearnerPaths, entry: LearnerCourse, brand?: PageBrand): string {
  const { course, progress, rules } = entry;
  const passed = progress.passedAt !== null;
  const used = rules.max_attempts ?? progress.attempts;
  const body = html`
${backToCourses(paths)}
<p class="eyebrow">${course.title} · Quiz</p>
<h1>No attempts left</h1>
<div class="notice ${passed ? 'ok' : 'bad'}" role="status">
<p>You have used ${used === 1 ? 'your one attempt' : `all ${used} attempts`} at this quiz. ${
    passed
      ? `You passed it; your score is ${progress.bestScore ?? 0}%.`
      : `You did not reach the pass mark of ${course.pass_mark}%; your best score, ${progress.bestScore ?? 0}%, is recorded.`
  }</p>
${!passed && html`<p>If you need another try, ask the person who sent you this training.</p>`}
</div>
<div class="actions">
<a class="button" href="${paths.result(course.key)}">See your last result</a>
<a class="button secondary" href="${paths.overview}">Your courses</a>
</div>`;
  return learnerPage(`Quiz · ${course.title}`, body, brand);
}

/** The next course in the campaign (after this one, then from the start) that is not passed yet. */
function nextCourse(courses: LearnerCourse[], position: number): LearnerCourse | undefined {
  const ordered = [...courses.slice(position + 1), ...courses.slice(0, position)];
  return ordered.find((c) => c.progress.passedAt === null);
}

/** What the result page says about the right answers while they are withheld. */
function withheldNotice({ rules }: LearnerCourse, canRetry: boolean): SafeHtml {
  const when =
    rules.answers_shown === 'never'
      ? 'This course does not show the right answers.'
      : canRetry && rules.max_attempts !== null
        ? 'The right answers and explanations are shown once you pass, or after your last attempt.'
        : 'The right answers and explanations are shown once you pass.';
  return html`<p class="muted">${when}</p>`;
}

/**
 * The last attempt: score, pass mark, attempts left, and each question with the answer given,
 * the right one and why, only when the course's rules let the learner see them now (the page
 * then holds none of the right answers or explanations).
 */
export function resultPage(
  paths: LearnerPaths,
  courses: LearnerCourse[],
  position: number,
  answers: number[],
  brand?: PageBrand,
): string {
  const entry = courses[position];
  if (!entry) throw new Error('course position out of range');
  const { course, progress, rules } = entry;
  const result = scoreQuiz(course, answers);
  const next = nextCourse(courses, position);
  const coursePassed = progress.passedAt !== null;
  const left = attemptsLeft(rules, progress.attempts);
  const canRetry = left !== 0;
  const reveal = answersRevealed(rules, { passed: coursePassed, attempts: progress.attempts });
  const body = html`
${backToCourses(paths)}
<p class="eyebrow">${course.title} · Quiz result</p>
<h1>${result.passed ? 'You passed' : canRetry || coursePassed ? 'Not passed yet' : 'Not passed'}</h1>
<div class="card">
<p class="score">${result.score}%</p>
<p>${result.correct} of ${result.total} correct. The pass mark is ${course.pass_mark}%.</p>
${
  !result.passed &&
  (coursePassed
    ? html`<p class="muted">You passed this quiz before, with a best score of ${progress.bestScore ?? 0}%.</p>`
    : canRetry
      ? html`<p class="muted">${reveal ? 'Read the explanations below, then try again.' : 'Read the lessons again, then try again.'} Your best score counts.</p>`
      : html`<p class="muted">That was your last attempt. Your best score, ${progress.bestScore ?? 0}%, is recorded. If you need another try, ask the person who sent you this training.</p>`)
}
${
  left !== null &&
  canRetry &&
  html`<p class="attempts"><strong>${left} ${attemptsWord(left)} left</strong> of ${rules.max_attempts ?? 0}.</p>`
}
${!reveal && withheldNotice(entry, canRetry)}
<div class="actions">
${!result.passed && canRetry && html`<a class="button${coursePassed ? ' secondary' : ''}" href="${paths.quiz(course.key)}">Try again</a>`}
${
  coursePassed &&
  (next
    ? html`<a class="button" href="${courseEntry(paths, next).href}">Next course<span class="sr-only">: ${next.course.title}</span></a>`
    : html`<a class="button" href="${paths.done}">Finish</a>`)
}
${!coursePassed && !canRetry && html`<a class="button secondary" href="${paths.overview}">Your courses</a>`}
</div>
</div>
${reveal && answerReview(entry, answers)}`;
  return learnerPage(`Quiz result · ${course.title}`, body, brand);
}

/** Each question with the answer given, the right one and its explanation. */
function answerReview({ course }: LearnerCourse, answers: number[]): SafeHtml {
  return html`<h2>Your answers</h2>
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
}
