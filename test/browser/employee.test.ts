import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { addGroupMembers } from '../../src/modules/directory/index.js';
import { createRemedialCampaign, enrollNewMembers } from '../../src/modules/training/index.js';
import { builtIn, learnerToken, makeEnrollment, quizForm, type TestEnrollment } from '../helpers/learner.js';
import { insertPhishingCampaign } from '../helpers/phishing-fixtures.js';
import { accessibilityProblems, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

// An employee's page: their training (enrollments with figures, remedial ones marked), editing
// them and deleting them, on desktop and phone. Enrollments are written into the server's
// database as a launch leaves them; progress is made through the learner pages themselves.

const OUT = 'docs/screenshots';
const DUE = '2031-03-31T17:00:00.000Z';
const phishing = builtIn('phishing');
const passwords = builtIn('passwords-and-mfa');

let vigil: Vigil;
let accountId: number;

beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme')).id as number;
});

/** A learner's form post, as their browser makes it. */
async function learn(path: string, form: Record<string, string> = {}) {
  const res = await fetch(`${vigil.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
}

async function readLessons(e: TestEnrollment, course: typeof phishing, count = course.lessons.length) {
  for (let n = 1; n <= count; n++) await learn(`${e.path}/courses/${course.key}/lessons/${n}`);
}

/**
 * Someone with three enrollments: "Security basics" (two courses, the first passed, a lesson of
 * the second read, due 31 March 2031), "Onboarding" (completed with one answer wrong) and the
 * remedial training of the phishing simulation "Q4 invoice simulation"; in the group Finance.
 */
async function personWithTraining(first: string, last: string) {
  const email = `${first}.${last}@acme.example`.toLowerCase();
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  try {
    const db = database.db;
    const basics = await makeEnrollment(db, {
      accountId,
      campaignName: `Security basics (${first})`,
      courseKeys: ['phishing', 'passwords-and-mfa'],
      dueAt: Date.parse(DUE),
      employee: { first_name: first, last_name: last, email },
    });
    const employeeId = basics.employeeId;
    const simulation = await insertPhishingCampaign(db, accountId, {
      name: `Q4 invoice simulation (${first})`,
      recipients: [],
      groupNames: [`Finance (${first})`],
    });
    await addGroupMembers(db, accountId, simulation.groupIds[0] as number, [employeeId]);
    const onboarding = await db
      .insertInto('training_campaigns')
      .values({
        account_id: accountId,
        name: `Onboarding (${first})`,
        status: 'active',
        start_at: Date.now() - 86_400_000,
        launched_at: Date.now() - 86_400_000,
        created_at: Date.now() - 86_400_000,
        updated_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('campaign_courses')
      .values({ campaign_id: onboarding.id, course_key: 'phishing', position: 0 })
      .execute();
    await db.transaction().execute(async (trx) => {
      const remedialId = await createRemedialCampaign(trx, accountId, {
        name: `Q4 invoice simulation (${first}): remedial training`,
        description: '',
        courseKeys: ['passwords-and-mfa'],
        now: Date.now(),
      });
      await trx
        .updateTable('phishing_campaigns')
        .set({ remedial_campaign_id: remedialId })
        .where('id', '=', simulation.campaignId)
        .execute();
      await enrollNewMembers(trx, {
        accountId,
        campaignIds: [Number(onboarding.id), remedialId],
        employeeIds: [employeeId],
      });
    });
    const onboardingEnrollment = await db
      .selectFrom('enrollments')
      .select('id')
      .where('campaign_id', '=', Number(onboarding.id))
      .executeTakeFirstOrThrow();

    // Security basics: the phishing course passed (one failed attempt first), one lesson of the second read.
    await readLessons(basics, phishing);
    await learn(`${basics.path}/courses/phishing/quiz`, quizForm(phishing, 3));
    await learn(`${basics.path}/courses/phishing/quiz`, quizForm(phishing));
    await readLessons(basics, passwords, 1);
    // Onboarding: completed, one answer wrong.
    const onboardingPath = `/learn/${await learnerToken(db, onboardingEnrollment.id)}`;
    await readLessons({ ...basics, path: onboardingPath }, phishing);
    await learn(`${onboardingPath}/courses/phishing/quiz`, quizForm(phishing, 1));
    const done = await db
      .selectFrom('enrollments')
      .select(['score', 'completed_at'])
      .where('id', '=', onboardingEnrollment.id)
      .executeTakeFirstOrThrow();
    expect(done.completed_at).not.toBeNull();
    return { employeeId, email, basics, simulation, onboardingScore: done.score as number };
  } finally {
    await database.close();
  }
}

/** The whole page in one picture: the viewport made as tall as the page. */
async function shoot(page: Page, path: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  await page.setViewportSize({ width: size.width, height: Math.min(4000, Math.max(size.height, height)) });
  await page.waitForTimeout(300);
  await page.screenshot({ path });
  await page.setViewportSize(size);
}

/** The value a card's fact shows ("Progress", "Score", …). */
async function fact(card: ReturnType<Page['getByRole']>, label: string) {
  return (
    (await card
      .locator('dt', { hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]')
      .innerText()) ?? ''
  ).replace(/\s+/g, ' ');
}

async function checkTraining(page: Page, first: string, onboardingScore: number) {
  const training = page.getByRole('region', { name: 'Training' });
  const basics = training.getByRole('article', {
    name: `${phishing.title}, ${passwords.title}`,
    exact: true,
  });
  await basics.getByRole('link', { name: `Security basics (${first})` }).waitFor();
  await basics.getByText('In progress').waitFor();
  expect(await fact(basics, 'Progress')).toBe(
    `1 of 2 courses passed ${phishing.lessons.length + 1} of ${phishing.lessons.length + passwords.lessons.length} lessons read`,
  );
  expect(await fact(basics, 'Score')).toBe('—');
  expect(await basics.locator(`time[datetime="${DUE}"]`).count()).toBe(1);
  expect(await fact(basics, 'Completed')).toBe('Not yet');
  await basics.getByText(`${phishing.title}: passed, best 100 %`, { exact: false }).waitFor();

  const onboarding = training
    .getByRole('article')
    .filter({ has: page.getByRole('link', { name: `Onboarding (${first})` }) });
  await onboarding.getByText('Completed', { exact: true }).first().waitFor();
  expect(await fact(onboarding, 'Score')).toBe(`${onboardingScore} %`);
  expect(await fact(onboarding, 'Progress')).toMatch(/^1 of 1 course passed/);
  expect(await fact(onboarding, 'Due')).toBe('No due date');
  expect(await fact(onboarding, 'Completed')).not.toBe('Not yet');

  const remedial = training.getByRole('article', { name: passwords.title, exact: true });
  await remedial.getByText('Remedial', { exact: true }).waitFor();
  await remedial.getByRole('link', { name: `Q4 invoice simulation (${first})`, exact: true }).waitFor();
  await remedial.getByText('Not started').waitFor();
  expect(await fact(remedial, 'Progress')).toBe(
    `0 of 1 course passed 0 of ${passwords.lessons.length} lessons read`,
  );
}

describe('an employee’s page', () => {
  it('shows their training with its figures, edits them and deletes them after the consequences are confirmed (desktop)', async () => {
    const ann = await personWithTraining('Ann', 'Lee');
    expect(ann.onboardingScore).toBeGreaterThan(0);
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/employees/${ann.employeeId}` },
    );
    await page.getByRole('heading', { name: 'Ann Lee' }).waitFor();
    await checkTraining(page, 'Ann', ann.onboardingScore);
    expect(await accessibilityProblems(page, 'employee')).toEqual([]);
    await shoot(page, `${OUT}/employee-training-desktop.png`);

    // Edit: the same form and validation as the list's.
    await page.getByRole('button', { name: 'Edit employee' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit employee' });
    await edit.getByLabel('Email').fill('not-an-address');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('must be a valid email address').waitFor();
    await edit.getByLabel('Email').fill(ann.email);
    await edit.getByLabel('Last name').fill('Lee-Smith');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Ann Lee-Smith' }).waitFor();

    // Delete: what happens, said plainly; the address typed to confirm.
    await page.getByRole('button', { name: 'Delete employee' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete employee?' });
    const text = (await dialog.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(`Ann Lee-Smith (${ann.email}) will be deleted. This cannot be undone.`);
    expect(text).toContain('They leave 1 group: Finance (Ann).');
    expect(text).toContain(
      `Their 3 training enrollments stay, with progress, scores and completion dates, shown as “Deleted employee #${ann.employeeId}”`,
    );
    expect(text).toContain('Their phishing simulation results stay');
    expect(text).toContain('Every message to them, queued or sent, is removed from the Outbox.');
    expect(text).toContain('employee.deleted and group.membership_changed for each group');
    const confirm = dialog.getByRole('button', { name: 'Delete employee' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type ${ann.email} to confirm`).fill('ann@acme.example');
    expect(await confirm.isDisabled()).toBe(true);
    await shoot(page, `${OUT}/employee-delete-desktop.png`);
    await dialog.getByLabel(`Type ${ann.email} to confirm`).fill(ann.email.toUpperCase());
    await confirm.click();
    await page.waitForURL((url) => url.pathname === `/admin/a/${accountId}/employees`);
    await page.getByText('Deleted Ann Lee-Smith').waitFor();
    await page.getByRole('table', { name: 'Employees' }).getByText(ann.email).waitFor({ state: 'detached' });

    // What the dialog said: the training record stays, anonymised; the page is gone.
    const database = openDatabase(vigil.env.DATABASE_URL as string);
    try {
      const kept = await database.db
        .selectFrom('enrollments')
        .select(['score', 'completed_at', 'employee_deleted_at'])
        .where('employee_id', '=', ann.employeeId)
        .execute();
      expect(kept).toHaveLength(3);
      expect(kept.every((e) => e.employee_deleted_at !== null)).toBe(true);
      expect(kept.map((e) => e.score)).toContain(ann.onboardingScore);
      const tombstones = await database.db
        .selectFrom('tombstones')
        .select('resource_id')
        .where('account_id', '=', accountId)
        .where('resource', '=', 'employee')
        .execute();
      expect(tombstones.map((t) => Number(t.resource_id))).toContain(ann.employeeId);
    } finally {
      await database.close();
    }
    await page.goto(`/admin/a/${accountId}/employees/${ann.employeeId}`);
    await page.getByRole('heading', { name: 'Employee not found' }).waitFor();
  });

  it('shows their training, edits and deletes them on a phone', async () => {
    const bo = await personWithTraining('Bo', 'Chen');
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/employees/${bo.employeeId}` },
    );
    await page.getByRole('heading', { name: 'Bo Chen' }).waitFor();
    await checkTraining(page, 'Bo', bo.onboardingScore);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, `${OUT}/employee-training-phone.png`);

    await page.getByRole('button', { name: 'Edit employee' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit employee' });
    await edit.getByLabel('First name').fill('Bob');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Bob Chen' }).waitFor();

    await page.getByRole('button', { name: 'Delete employee' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete employee?' });
    await dialog.getByText('Their 3 training enrollments stay', { exact: false }).waitFor();
    await dialog.getByLabel(`Type ${bo.email} to confirm`).fill(bo.email);
    await shoot(page, `${OUT}/employee-delete-phone.png`);
    await dialog.getByRole('button', { name: 'Delete employee' }).click();
    await page.waitForURL((url) => url.pathname === `/admin/a/${accountId}/employees`);
    await page.getByText('Deleted Bob Chen').waitFor();
  });
});
