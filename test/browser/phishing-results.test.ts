import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { insertPhishingCampaign, type PhishingFixture } from '../helpers/phishing-fixtures.js';
import { accessibilityProblems, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

// The phishing results page and an employee's page, on fixture data written straight into the
// server's database (what a launch and the tracking routes would have left).

const OUT = 'docs/screenshots';

let vigil: Vigil;
let accountId: number;
let fixture: PhishingFixture;

beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Phish Co')).id as number;
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  try {
    fixture = await insertPhishingCampaign(database.db, accountId, {
      name: 'Q4 invoice simulation',
      groupNames: ['Finance', 'Sales'],
      recipients: [
        {
          status: 'clicked',
          first_name: 'Ann',
          last_name: 'Lee',
          email: 'ann.lee@phish.example',
          training: true,
        },
        {
          status: 'submitted',
          first_name: 'Bo',
          last_name: 'Chen',
          email: 'bo.chen@phish.example',
          training: true,
        },
        { status: 'opened', first_name: 'Cy', last_name: 'Diaz', reported: true },
        { status: 'sent', first_name: 'Dee', last_name: 'Evans', reported: true },
        { status: 'sent', first_name: 'Emil', last_name: 'Fox' },
        { status: 'opened', first_name: 'Fay', last_name: 'Gold' },
        { status: 'clicked', first_name: 'Gus', last_name: 'Hart', reported: true },
        { status: 'failed', first_name: 'Hal', last_name: 'Ito' },
        { status: 'scheduled', first_name: 'Ivy', last_name: 'Jones' },
        { status: 'sent', first_name: 'Jo', last_name: 'King', reported: true },
        { status: 'clicked', deleted: true },
        { status: 'sent', first_name: 'Kim', last_name: 'Lund' },
      ],
    });
  } finally {
    await database.close();
  }
});

/** The whole page in one picture: the viewport made as tall as the page (a full-page capture repeats the fixed header). */
async function shoot(page: Page, path: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  await page.setViewportSize({ width: size.width, height: Math.min(4000, Math.max(size.height, height)) });
  await page.waitForTimeout(300);
  await page.screenshot({ path });
  await page.setViewportSize(size);
}

describe('phishing results in the web interface', () => {
  it('shows the funnel, rates, activity, breakdowns and people, a person’s timeline, and the CSV', async () => {
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/${fixture.campaignId}/results` },
    );
    await page.getByRole('heading', { name: 'Results: Q4 invoice simulation' }).waitFor();
    // 11 delivered (one failed, one scheduled); 4 clicked or submitted; 4 reported.
    const stat = async (label: string) =>
      (await page
        .locator('dt', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]/span[1]')
        .textContent()) ?? '';
    expect(await stat('Phish-prone')).toMatch(/^40 %$/);
    expect(await stat('Report rate')).toMatch(/^40 %$/);
    await page.getByRole('table', { name: 'By group' }).getByText('Finance').waitFor();
    await page.getByRole('table', { name: 'By template' }).getByText('Overdue invoice').waitFor();
    await page.getByRole('img', { name: /From .* clicked/ }).waitFor();

    const people = page.getByRole('table', { name: 'People in this simulation' });
    await people.getByText('Lee, Ann').waitFor();
    expect(await people.getByText('Deleted employee #', { exact: false }).count()).toBe(1);
    await page.getByRole('button', { name: 'Events of Bo Chen' }).click();
    const timeline = page.getByRole('list', { name: 'Events of Bo Chen' });
    await timeline.getByText('Submitted the form').waitFor();
    await timeline.getByText('Automated').first().waitFor();
    await timeline.getByText(/Within seconds of delivery/).waitFor();
    expect(await accessibilityProblems(page, 'phishing results')).toEqual([]);
    await shoot(page, `${OUT}/phishing-results-desktop.png`);

    await page.getByRole('combobox', { name: 'Status' }).selectOption('reported');
    await people.getByText('Evans, Dee').waitFor();
    await people.getByText('Lee, Ann').waitFor({ state: 'detached' });
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`phishing-campaign-${fixture.campaignId}-results.csv`);

    const phone = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/phishing/campaigns/${fixture.campaignId}/results` },
    );
    await phone.page
      .getByRole('table', { name: 'People in this simulation' })
      .getByText('Lee, Ann')
      .waitFor();
    await shoot(phone.page, `${OUT}/phishing-results-phone.png`);
  });

  it('shows an employee with their groups and simulation history, reached from the employees list', async () => {
    const { page } = await signedInPage(vigil, { accountId }, { at: `/admin/a/${accountId}/employees` });
    await page.getByRole('link', { name: 'Lee' }).click();
    await page.getByRole('heading', { name: 'Ann Lee' }).waitFor();
    await page.getByText('ann.lee@phish.example').first().waitFor();
    const history = page.getByRole('table', { name: 'Phishing simulations' });
    await history.getByRole('link', { name: 'Q4 invoice simulation' }).waitFor();
    await history.getByText('Clicked').first().waitFor();
    expect(await accessibilityProblems(page, 'employee')).toEqual([]);
    await shoot(page, `${OUT}/employee-desktop.png`);

    const phone = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/employees/${fixture.recipients[0]?.employeeId}` },
    );
    await phone.page.getByRole('table', { name: 'Phishing simulations' }).getByRole('link').first().waitFor();
    await shoot(phone.page, `${OUT}/employee-phone.png`);
  });

  it('reclassifies a person’s click as automated, with why; the timeline and the figures follow', async () => {
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/${fixture.campaignId}/results` },
    );
    const stat = async (label: string) =>
      (await page
        .locator('dt', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]/span[1]')
        .textContent()) ?? '';
    await page.getByRole('heading', { name: 'Results: Q4 invoice simulation' }).waitFor();
    expect(await stat('Phish-prone')).toMatch(/^40 %$/);
    await page.getByRole('button', { name: 'Events of Gus Hart' }).click();
    const timeline = page.getByRole('list', { name: 'Events of Gus Hart' });
    await timeline.getByText('Clicked the link').waitFor();
    await timeline.getByRole('button', { name: /^Reclassify Clicked the link/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Reclassify the event' });
    await dialog.getByRole('radio', { name: 'Automated (a scanner)' }).waitFor();
    expect(await dialog.getByRole('radio', { name: 'Automated (a scanner)' }).isChecked()).toBe(true);
    // The reason is required and at most 500 characters.
    expect(await dialog.getByRole('button', { name: 'Reclassify' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Reason').fill('x'.repeat(600));
    expect((await dialog.getByLabel('Reason').inputValue()).length).toBe(500);
    await dialog.getByLabel('Reason').fill('The mail gateway’s sandbox, seen in its logs');
    await shoot(page, `${OUT}/phishing-reclassify-desktop.png`);
    await dialog.getByRole('button', { name: 'Reclassify' }).click();
    await dialog.waitFor({ state: 'detached' });
    await timeline
      .getByText(/Reclassified by .* \(was a person\): “The mail gateway’s sandbox, seen in its logs”/)
      .waitFor();
    // Gus no longer counts as phished: 3 of 10 delivered people.
    await expect.poll(() => stat('Phish-prone'), { timeout: 10_000 }).toMatch(/^30 %$/);
    expect(await accessibilityProblems(page, 'phishing results after a reclassification')).toEqual([]);

    const phone = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/phishing/campaigns/${fixture.campaignId}/results` },
    );
    await phone.page.getByRole('button', { name: 'Events of Gus Hart' }).click();
    await phone.page
      .getByRole('list', { name: 'Events of Gus Hart' })
      .getByText(/Reclassified by/)
      .waitFor();
    await shoot(phone.page, `${OUT}/phishing-reclassified-phone.png`);
  });
});
