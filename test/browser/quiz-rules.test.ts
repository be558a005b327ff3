import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { afterFile } from '../helpers/cleanup.js';
import { builtIn, makeEnrollment, setQuizRules } from '../helpers/learner.js';
import { DESKTOP, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

/**
 * Quiz rules (issue 21, item 7), on a desktop and a 390×844 phone: the learner sees how many
 * attempts remain, no right answer after a failed attempt, and a closed quiz once they are used;
 * the administrator sets a built-in course's rules from its page, an own course's in its form,
 * and sees each person's attempts in the campaign. `SCREENSHOTS=1` writes docs/screenshots/quiz-*.png.
 */
const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';
const phishing = builtIn('phishing');

let vigil: Vigil;
let db: Db;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  db = database.db;
  afterFile(() => database.close());
}, 180_000);

async function answerQuiz(page: Page, wrong: number): Promise<void> {
  for (const [i, question] of phishing.quiz.entries()) {
    const choice = i < wrong ? (question.answer + 1) % question.choices.length : question.answer;
    await page
      .getByRole('group', { name: new RegExp(`^Question ${i + 1} of`) })
      .getByRole('radio', { name: question.choices[choice], exact: true })
      .check();
  }
  await page.getByRole('button', { name: 'Submit answers' }).click();
}

/** Lessons read through the server (the learner pages are tested on their own in learner.test.ts). */
async function readLessons(path: string) {
  const { page, context } = await vigil.newPage();
  for (let n = 1; n <= phishing.lessons.length; n++) {
    await page.goto(`${path}/courses/phishing/lessons/${n}`);
    await page.getByRole('button', { name: 'Mark as read and continue' }).click();
    await page.waitForURL(n < phishing.lessons.length ? `**/lessons/${n + 1}` : '**/quiz');
  }
  await context.close();
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('quiz rules on a %s', (device, viewport) => {
  it('the learner sees the attempts left, no answers after failing, and a closed quiz at the end', async () => {
    const e = await makeEnrollment(db, {
      employee: { first_name: 'Maya' },
      campaignName: 'Security awareness 2026',
      courseKeys: ['phishing'],
    });
    await setQuizRules(db, e.accountId, 'phishing', { max_attempts: 2 });
    await readLessons(e.path);
    const { page, context } = await vigil.newPage(viewport);
    await page.goto(e.path);
    await page.getByText('Quiz not taken yet · 2 attempts left').waitFor();
    await page.goto(`${e.path}/courses/phishing/quiz`);
    await page.getByText('You need 80% to pass, and you have 2 attempts.').waitFor();
    await answerQuiz(page, 3);
    await page.getByRole('heading', { name: 'Not passed yet' }).waitFor();
    await page.getByText('1 attempt left').waitFor();
    expect(await page.getByText(/^✓?Right answer: /).count()).toBe(0);
    await page.screenshot({ path: `${OUT}/quiz-result-withheld-${device}.png`, fullPage: true });
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.getByText('This is your last attempt.').waitFor();
    await answerQuiz(page, 2);
    await page.getByRole('heading', { name: 'Not passed', exact: true }).waitFor();
    // After the last attempt the answers are shown.
    await page.getByRole('heading', { name: 'Your answers' }).waitFor();
    await page.goto(`${e.path}/courses/phishing/quiz`);
    await page.getByRole('heading', { name: 'No attempts left' }).waitFor();
    await page.getByText('You have used all 2 attempts at this quiz.').waitFor();
    expect(await page.getByRole('button', { name: 'Submit answers' }).count()).toBe(0);
    await page.screenshot({ path: `${OUT}/quiz-closed-${device}.png`, fullPage: true });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
    await context.close();
  });

  it("the administrator sets a built-in course's rules, an own course's in its form, and sees attempts", async () => {
    const e = await makeEnrollment(db, {
      employee: { first_name: 'Jonas', last_name: 'Berg' },
      courseKeys: ['phishing'],
    });
    await readLessons(e.path);
    const { page } = await signedInPage(
      vigil,
      { accountId: e.accountId },
      { viewport, at: `/admin/a/${e.accountId}/courses/phishing` },
    );

    await page.getByRole('heading', { name: 'Quiz rules' }).waitFor();
    await page.getByText('Unlimited').waitFor();
    await page.getByRole('button', { name: 'Edit quiz rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Quiz rules' });
    await dialog.getByLabel('Attempts allowed').fill('3');
    await dialog.getByRole('radio', { name: 'Never' }).check();
    await page.screenshot({ path: `${OUT}/quiz-rules-dialog-${device}.png` });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('3 attempts').waitFor();
    await page.getByRole('main').getByText('Never', { exact: true }).waitFor();

    await page.goto(`/admin/a/${e.accountId}/courses/new`);
    await page.getByRole('heading', { name: 'Quiz rules' }).waitFor();
    await page.getByLabel('Attempts allowed').fill('0');
    await page.getByRole('heading', { name: 'Quiz rules' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUT}/quiz-rules-course-form-${device}.png` });

    // Two attempts by the learner show in the campaign's people.
    const learner = await vigil.newPage(viewport);
    await learner.page.goto(`${e.path}/courses/phishing/quiz`);
    await answerQuiz(learner.page, 4);
    await learner.page.getByRole('heading', { name: 'Not passed yet' }).waitFor();
    // "Never": not even after passing.
    await learner.page.goto(`${e.path}/courses/phishing/quiz`);
    await answerQuiz(learner.page, 0);
    await learner.page.getByRole('heading', { name: 'You passed' }).waitFor();
    expect(await learner.page.getByText(/^✓?Right answer: /).count()).toBe(0);
    await learner.context.close();

    await page.goto(`/admin/a/${e.accountId}/campaigns/${e.campaignId}`);
    const attempts = page.getByRole('button', { name: '2 quiz attempts by Jonas Berg' });
    await attempts.click();
    const list = page.getByRole('dialog', { name: 'Quiz attempts by Jonas Berg' });
    await list.getByText('42% failed').waitFor();
    await list.getByText('100% passed').waitFor();
    // Nothing of it is cut: every badge and date is as wide as its words.
    for (const cell of await list.locator('td').all()) {
      expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    // Shown once it has finished fading in.
    const opacity = (el: unknown) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(el)
        .opacity;
    await expect.poll(() => list.evaluate(opacity)).toBe('1');
    await page.screenshot({ path: `${OUT}/quiz-attempts-${device}.png` });
  });
});
