import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { afterFile } from '../helpers/cleanup.js';
import { builtIn, makeEnrollment } from '../helpers/learner.js';
import { accessibilityProblems, PHONE, startVigil, type Vigil } from './harness.js';

/**
 * An employee takes their training on a phone from the personal link: every lesson, a failed
 * and then a passed quiz, the completion page. Each kind of page is checked with axe-core
 * (WCAG 2 A/AA, no serious or critical violations); `SCREENSHOTS=1` writes
 * docs/screenshots/learner-*.png.
 */
const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';
const phishing = builtIn('phishing');
const passwords = builtIn('passwords-and-mfa');

let vigil: Vigil;
let db: Db;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  db = database.db;
  afterFile(() => database.close());
});

/** Answers every question of the quiz on the page: right, except the first `wrong` ones. */
async function answerQuiz(page: Page, quiz: typeof phishing.quiz, wrong = 0): Promise<void> {
  for (const [i, question] of quiz.entries()) {
    const choice = i < wrong ? (question.answer + 1) % question.choices.length : question.answer;
    await page
      .getByRole('group', { name: new RegExp(`^Question ${i + 1} of`) })
      .getByRole('radio', { name: question.choices[choice], exact: true })
      .check();
  }
}

describe('the learner page on a phone', () => {
  it('takes an employee from the link through lessons and quizzes to the completion page', async () => {
    const enrollment = await makeEnrollment(db, {
      employee: { first_name: 'Maya', last_name: 'Okafor' },
      campaignName: 'Security awareness 2026',
      description: 'Two short courses that help keep our customers, colleagues and company safe.',
      courseKeys: ['phishing', 'passwords-and-mfa'],
      dueAt: Date.UTC(2030, 5, 30, 17),
    });
    const { page, context } = await vigil.newPage(PHONE);
    const errors: string[] = [];
    const problems: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      // The quiz sent back with questions unanswered answers 400, as it should.
      if (msg.type() === 'error' && !msg.text().includes('status of 400')) errors.push(msg.text());
    });
    const check = async (name: string) => {
      problems.push(...(await accessibilityProblems(page, name)));
    };

    await page.goto(enrollment.path);
    await page.getByRole('heading', { name: 'Your security training' }).waitFor();
    await page.getByText('Hello, Maya').waitFor();
    await check('learner-overview');

    // The first course: every lesson, one after the other.
    await page.getByRole('link', { name: `Start ${phishing.title}` }).click();
    await page.getByRole('heading', { name: phishing.lessons[0]?.title }).waitFor();
    await page.getByText(`Lesson 1 of ${phishing.lessons.length}`).waitFor();
    await page.screenshot({ path: `${OUT}/learner-lesson.png` });
    await check('learner-lesson');
    for (let n = 1; n <= phishing.lessons.length; n++) {
      await page.getByText(`Lesson ${n} of ${phishing.lessons.length}`).waitFor();
      await page.getByRole('button', { name: 'Mark as read and continue' }).click();
    }
    await page.waitForURL('**/courses/phishing/quiz');
    await page.getByRole('heading', { name: 'Quiz' }).waitFor();
    await check('learner-quiz');

    // Submitting with questions left open asks for them, keeping the answers given.
    await page
      .getByRole('group', { name: /^Question 1 of/ })
      .getByRole('radio', { name: phishing.quiz[0]?.choices[0], exact: true })
      .check();
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: `${OUT}/learner-quiz.png` });
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByRole('heading', { name: 'Please answer every question' }).waitFor();
    expect(
      await page
        .getByRole('group', { name: /^Question 1 of/ })
        .getByRole('radio', { name: phishing.quiz[0]?.choices[0], exact: true })
        .isChecked(),
    ).toBe(true);

    // Fail, read why, try again and pass.
    await answerQuiz(page, phishing.quiz, 4);
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByRole('heading', { name: 'Not passed yet' }).waitFor();
    // A failed attempt shows the score; the right answers only once passed (the default rules).
    await page.getByText('The right answers and explanations are shown once you pass.').waitFor();
    expect(await page.getByText(phishing.quiz[0]?.explanation as string).count()).toBe(0);
    await page.screenshot({ path: `${OUT}/learner-result-failed.png` });
    await check('learner-result');
    await page.getByRole('link', { name: 'Try again' }).click();
    await answerQuiz(page, phishing.quiz);
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByRole('heading', { name: 'You passed' }).waitFor();

    // Progress is kept between visits: the overview shows the first course passed.
    await page.goto(enrollment.path);
    await page.getByText('Quiz passed with 100%').waitFor();
    await page.getByText('1 of 2 courses passed').waitFor();
    await page.screenshot({ path: `${OUT}/learner-overview.png` });

    await page.getByRole('link', { name: `Start ${passwords.title}` }).click();
    for (let n = 1; n <= passwords.lessons.length; n++) {
      await page.getByText(`Lesson ${n} of ${passwords.lessons.length}`).waitFor();
      await page.getByRole('button', { name: 'Mark as read and continue' }).click();
    }
    await page.waitForURL('**/courses/passwords-and-mfa/quiz');
    await answerQuiz(page, passwords.quiz, 1);
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByRole('heading', { name: 'You passed' }).waitFor();
    await page.getByRole('link', { name: 'Finish' }).click();

    await page.getByRole('heading', { name: 'Congratulations, Maya!' }).waitFor();
    await page.getByText('93%').waitFor(); // floor((100 + 87) / 2)
    await page.screenshot({ path: `${OUT}/learner-done.png` });
    await check('learner-done');

    // The page is usable at 360 px wide: nothing is wider than the screen.
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of [
      enrollment.path,
      `${enrollment.path}/courses/phishing/quiz`,
      `${enrollment.path}/courses/phishing/lessons/2`,
    ]) {
      await page.goto(path);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    }

    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('offers a new link by email when the link has expired', async () => {
    const enrollment = await makeEnrollment(db, { linkExpiresAt: Date.now() - 60_000 });
    const { page, context } = await vigil.newPage(PHONE);
    await page.goto(enrollment.path);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await page.screenshot({ path: `${OUT}/learner-expired.png` });
    const problems = await accessibilityProblems(page, 'learner-expired');
    await page.getByRole('button', { name: 'Email me a new link' }).click();
    await page.getByText('A new link is on its way to your work email').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
