import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { afterFile } from '../helpers/cleanup.js';
import { makeEnrollment } from '../helpers/learner.js';
import { pngLogo, SCRIPTED_SVG } from '../helpers/logos.js';
import {
  accessibilityProblems,
  bannerLogoWidth,
  DESKTOP,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

/**
 * Issue 21, item 5: an account administrator sets the name and logo employees see, on desktop and
 * on a phone, and the learner page shows them (never the campaign's name). `docs/screenshots/`
 * gets account-settings*.png and learner-branded*.png.
 */
const OUT = 'docs/screenshots';

/** Closes the notices at the top right, which cover the page's buttons for a few seconds. */
async function dismissNotices(page: Page) {
  const close = page.getByRole('button', { name: 'Close notification' });
  await close.first().waitFor();
  for (const button of await close.all()) await button.dispatchEvent('click');
  await close.first().waitFor({ state: 'detached' });
}

let vigil: Vigil;
let db: Db;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  db = database.db;
  afterFile(() => database.close());
});

describe('account settings', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`sets the name and logo employees see, and the learner page shows them (${device})`, async () => {
      const account = await vigil.vigil('account', 'create', '--name', `Acme Holdings Ltd ${device}`);
      const accountId = account.id as number;
      const { page } = await signedInPage(
        vigil,
        { accountId },
        { viewport, at: `/admin/a/${accountId}/settings` },
      );
      await page.getByRole('heading', { name: 'Account settings' }).waitFor();
      await page.getByText('No logo: employees see a shield').waitFor();

      await page.getByLabel('Name employees see').fill('Acme');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByText('Employees now see “Acme”').waitFor();
      await dismissNotices(page);

      // An SVG is refused before it is sent; the server would refuse it too.
      await page
        .getByLabel('Upload a logo')
        .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: SCRIPTED_SVG });
      await page.getByRole('alert').getByText('Choose a PNG, JPEG or WebP image.').waitFor();
      expect(await page.getByRole('button', { name: 'Upload logo' }).isDisabled()).toBe(true);

      await page
        .getByLabel('Upload a logo')
        .setInputFiles({ name: 'acme.png', mimeType: 'image/png', buffer: pngLogo(180, 48, [29, 78, 216]) });
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await page.getByText('The logo is saved').waitFor();
      await dismissNotices(page);
      const shown = page.getByRole('img', { name: 'The current logo' });
      await shown.waitFor();
      expect(
        await shown.evaluate(
          (img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth,
        ),
      ).toBe(180);
      expect(await accessibilityProblems(page, `account-settings-${device}`)).toEqual([]);
      await page.screenshot({
        path: `${OUT}/account-settings${device === 'phone' ? '-phone' : ''}.png`,
        fullPage: true,
      });

      // What an employee sees: the organisation's name and logo, not the campaign's name.
      const enrollment = await makeEnrollment(db, {
        accountId,
        campaignName: 'Smoke test now: remedial training',
        courseKeys: ['phishing'],
        employee: { first_name: 'Maya', last_name: 'Okafor' },
      });
      const learner = await vigil.newPage(viewport);
      await learner.page.goto(enrollment.path);
      await learner.page.getByRole('heading', { name: 'Your security training' }).waitFor();
      await learner.page.getByText('Acme has asked you to complete this course.').waitFor();
      expect(await bannerLogoWidth(learner.page, 'Acme')).toBe(180);
      expect(await learner.page.content()).not.toContain('Smoke test now');
      expect(await accessibilityProblems(learner.page, `learner-branded-${device}`)).toEqual([]);
      await learner.page.screenshot({
        path: `${OUT}/learner-branded${device === 'phone' ? '-phone' : ''}.png`,
      });
      await learner.context.close();
      // Two pages and two sign-ins: more than a test's usual time on a busy machine.
    }, 300_000);
  }

  it('sets how many days remedial training is due after a failure in the phishing campaign’s form', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Acme Remedial');
    const accountId = account.id as number;
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/new` },
    );
    const due = page.getByLabel('Training due after (days)');
    expect(await due.inputValue()).toBe('14');
    await page.getByLabel('Name', { exact: true }).fill('Autumn simulation');
    await due.fill('10');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page
      .getByText('(on click)')
      .or(page.getByText(/due 10 days after/))
      .first()
      .waitFor();
    await page.getByRole('heading', { name: 'Autumn simulation' }).waitFor();
    await page
      .getByRole('link', { name: 'Edit' })
      .or(page.getByRole('button', { name: 'Edit' }))
      .first()
      .click();
    expect(await page.getByLabel('Training due after (days)').inputValue()).toBe('10');
  });
});
