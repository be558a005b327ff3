import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { insertPhishingCampaign, type PhishingFixture } from '../helpers/phishing-fixtures.js';
import { accessibilityProblems, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

// Issue 21, items 3 and 14 on the pages: phish-prone "—" before any delivery (results page and
// campaign page alike), "failed by this campaign's rule" beside phish-prone when the campaign
// fails on submitting, an activity chart that shows one hour, names that open the timeline as
// links do (by keyboard too), "Reclassify" only where it means something, status badges never
// cut on a phone, and deleting a phishing draft from its page.

const OUT = 'docs/screenshots';

let vigil: Vigil;
let accountId: number;
let bySubmit: PhishingFixture;
let undelivered: PhishingFixture;
const HOUR = Math.floor((Date.now() - 2 * 86_400_000) / 3_600_000) * 3_600_000;

beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Figures Co')).id as number;
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  try {
    bySubmit = await insertPhishingCampaign(database.db, accountId, {
      name: 'Payroll portal (fails on submitting)',
      remedialOn: 'submit',
      groupNames: ['Finance'],
      launchedAt: HOUR,
      // Everything within one hour: the chart has a single bucket.
      minutesApart: 1,
      recipients: [
        {
          status: 'clicked',
          first_name: 'Maximiliane',
          last_name: 'Oberhauser-Wittgenstein',
          reported: true,
        },
        { status: 'clicked', first_name: 'Ann', last_name: 'Lee' },
        { status: 'submitted', first_name: 'Bo', last_name: 'Chen', training: true },
        { status: 'opened', first_name: 'Cy', last_name: 'Diaz' },
      ],
    });
    undelivered = await insertPhishingCampaign(database.db, accountId, {
      name: 'Not yet delivered',
      groupNames: ['Sales'],
      recipients: [
        { status: 'scheduled', first_name: 'Dee', last_name: 'Evans' },
        { status: 'scheduled', first_name: 'Emil', last_name: 'Fox' },
      ],
    });
  } finally {
    await database.close();
  }
});

async function shoot(page: Page, path: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  await page.setViewportSize({ width: size.width, height: Math.min(4000, Math.max(size.height, height)) });
  await page.waitForTimeout(300);
  await page.screenshot({ path });
  await page.setViewportSize(size);
}

/** The value of a figure of the results page (a `dt` and its `dd`). */
async function stat(page: Page, label: string): Promise<string> {
  return (
    (await page
      .locator('dt', { hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]/span[1]')
      .textContent()) ?? ''
  );
}

/** A fact of the campaign page: its label and the value below it. */
async function fact(page: Page, label: string): Promise<string> {
  const el = page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');
  return ((await el.textContent()) ?? '').trim();
}

/** Badges inside tables whose words do not fit (the label cut with "…"), by their text. */
async function cutBadges(page: Page): Promise<string[]> {
  // A string: the test files are type-checked without the DOM's names.
  return (await page.evaluate(
    `[...document.querySelectorAll('table .mantine-Badge-label')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent ?? '')`,
  )) as string[];
}

/** How many badges the page's tables hold (so a check of none cut cannot pass on an empty page). */
const tableBadges = (page: Page) => page.locator('table .mantine-Badge-label').count();

describe('phishing figures on the results and campaign pages', () => {
  it('shows "—" for phish-prone until something is delivered, on both pages', async () => {
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/${undelivered.campaignId}/results` },
    );
    await page.getByRole('heading', { name: 'Results: Not yet delivered' }).waitFor();
    expect(await stat(page, 'Phish-prone')).toBe('—');
    expect(await page.getByText('Failed by this campaign’s rule').count()).toBe(0);
    await page.getByRole('table', { name: 'By group' }).getByText('Sales').waitFor();
    const groupRow = page.getByRole('table', { name: 'By group' }).getByRole('row', { name: /Sales/ });
    expect(await groupRow.textContent()).toContain('—');
    expect(await groupRow.textContent()).not.toContain('0 %');

    await page.goto(`/admin/a/${accountId}/phishing/campaigns/${undelivered.campaignId}`);
    await page.getByRole('heading', { name: 'Not yet delivered' }).waitFor();
    await page.getByText('Phish-prone', { exact: true }).waitFor();
    await expect.poll(() => fact(page, 'Phish-prone')).toBe('—');
  });

  it('shows phish-prone and, beside it, failed by the campaign’s rule; one hour of activity as bars', async () => {
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}/results` },
    );
    await page.getByRole('heading', { name: /^Results: Payroll portal/ }).waitFor();
    // 4 delivered; 3 clicked or submitted; 1 submitted (the rule).
    expect(await stat(page, 'Phish-prone')).toBe('75 %');
    expect(await stat(page, 'Failed by this campaign’s rule')).toBe('25 %');
    await page.getByText('1 by submitting the form').waitFor();
    const finance = page.getByRole('table', { name: 'By group' }).getByRole('row', { name: /Finance/ });
    expect(await finance.textContent()).toMatch(/75 %.*25 %/);

    // One hour of activity: one group of bars, each step's bar as tall as its people.
    const chart = page.getByRole('img', {
      name: /From .* to .*: 4 opened, 3 clicked, 1 submitted, 1 reported\./,
    });
    await chart.waitFor();
    const heights = await chart.evaluate((svg) =>
      Object.fromEntries(
        [...svg.querySelectorAll('rect')].map((r) => [
          r.getAttribute('data-series'),
          r.getBoundingClientRect().height,
        ]),
      ),
    );
    expect(Object.keys(heights).sort()).toEqual(['clicked', 'opened', 'reported', 'submitted']);
    // 4 opened, 3 clicked, 1 submitted, 1 reported: bars in those proportions.
    const o = heights.opened as number;
    expect(o).toBeGreaterThan(100);
    expect((heights.clicked as number) / o).toBeCloseTo(3 / 4, 1);
    expect((heights.submitted as number) / o).toBeCloseTo(1 / 4, 1);
    expect(heights.reported).toBeCloseTo(heights.submitted as number, 0);
    expect(await accessibilityProblems(page, 'phishing results by the campaign’s rule')).toEqual([]);
    await shoot(page, `${OUT}/phishing-results-rule-desktop.png`);

    await page.goto(`/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}`);
    await page.getByText('Phish-prone', { exact: true }).waitFor();
    await expect.poll(() => fact(page, 'Phish-prone')).toBe('75 %');
    expect(await fact(page, 'Failed by this campaign’s rule')).toBe('25 %');
    await shoot(page, `${OUT}/phishing-campaign-rule-desktop.png`);

    const phone = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}/results` },
    );
    await phone.page
      .getByRole('table', { name: 'People in this simulation' })
      .getByText('Lee, Ann')
      .waitFor();
    expect(await stat(phone.page, 'Failed by this campaign’s rule')).toBe('25 %');
    expect(await phone.page.locator('svg[role="img"] rect').count()).toBe(4);
    await shoot(phone.page, `${OUT}/phishing-results-rule-phone.png`);
  });
});

describe('the people of a simulation', () => {
  it('opens a timeline from a name that looks and works like a link, by keyboard too; Reclassify only on a person’s steps', async () => {
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}/results` },
    );
    const name = page.getByRole('button', { name: 'Events of Bo Chen' });
    await name.waitFor();
    const look = (await page.evaluate(`(() => {
      const style = getComputedStyle(document.querySelector('[aria-label="Events of Bo Chen"]'));
      return { color: style.color, bodyColor: getComputedStyle(document.body).color, cursor: style.cursor };
    })()`)) as { color: string; bodyColor: string; cursor: string };
    const focused = () => page.evaluate("document.activeElement?.getAttribute('aria-label')");
    expect(look.cursor).toBe('pointer');
    expect(look.color).not.toBe(look.bodyColor);
    // In the tab order: Tab from the search field reaches the first name; Enter opens its timeline.
    await page.getByLabel('Search people').focus();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if ((await focused()) === 'Events of Bo Chen') break;
    }
    expect(await focused()).toBe('Events of Bo Chen');
    await page.keyboard.press('Enter');
    const timeline = page.getByRole('list', { name: 'Events of Bo Chen' });
    await timeline.getByText('Submitted the form').waitFor();
    expect(await name.getAttribute('aria-expanded')).toBe('true');
    await timeline.getByText('Training assigned').waitFor();
    await timeline.getByText('Delivered').waitFor();
    // Delivery and training assigned are the system's own records: nothing to reclassify.
    const offered = await timeline.getByRole('button', { name: /^Reclassify / }).allTextContents();
    const labels = await timeline
      .getByRole('button', { name: /^Reclassify / })
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
    expect(offered.length).toBeGreaterThanOrEqual(3);
    expect(labels.some((l) => l.startsWith('Reclassify Delivered'))).toBe(false);
    expect(labels.some((l) => l.startsWith('Reclassify Training assigned'))).toBe(false);
    expect(labels.some((l) => l.startsWith('Reclassify Clicked the link'))).toBe(true);
    expect(labels.some((l) => l.startsWith('Reclassify Submitted the form'))).toBe(true);
    expect(await accessibilityProblems(page, 'phishing results with a timeline')).toEqual([]);
    await shoot(page, `${OUT}/phishing-timeline-desktop.png`);
    await page.keyboard.press('Enter');
    await expect.poll(() => name.getAttribute('aria-expanded')).toBe('false');

    const phone = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}/results` },
    );
    await phone.page.getByRole('button', { name: 'Events of Bo Chen' }).click();
    await phone.page
      .getByRole('list', { name: 'Events of Bo Chen' })
      .getByText('Training assigned')
      .waitFor();
    await shoot(phone.page, `${OUT}/phishing-timeline-phone.png`);
  });

  it('never cuts a status badge on a phone: results, the phishing list, an employee and the API keys', async () => {
    await vigil.vigil(
      'key',
      'create',
      '--account',
      String(accountId),
      '--name',
      'HR sync',
      '--grant',
      'employees:rw',
    );
    const phone = await signedInPage(vigil, { accountId }, { viewport: PHONE });
    const pages: [string, string][] = [
      [`/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}/results`, 'Lee, Ann'],
      [`/admin/a/${accountId}/phishing`, 'Payroll portal (fails on submitting)'],
      [
        `/admin/a/${accountId}/employees/${bySubmit.recipients[0]?.employeeId}`,
        'Payroll portal (fails on submitting)',
      ],
      [`/admin/a/${accountId}/integration`, 'HR sync'],
    ];
    for (const [path, text] of pages) {
      await phone.page.goto(path);
      await phone.page.locator('table').getByText(text).first().waitFor();
      expect(await tableBadges(phone.page), path).toBeGreaterThan(0);
      expect(await cutBadges(phone.page), path).toEqual([]);
    }
    await phone.page.goto(`/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}/results`);
    const row = phone.page.getByRole('row', { name: /Oberhauser-Wittgenstein/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Clicked');
    expect(await row.textContent()).toContain('Reported');
    expect(await cutBadges(phone.page)).toEqual([]);
  });
});

describe('deleting a phishing draft', () => {
  it('offers Delete draft on a draft only, asks first, and deletes it', async () => {
    const draft = await vigil.vigil(
      'phishing',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Unused draft',
    );
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/${bySubmit.campaignId}` },
    );
    // Not on a launched campaign.
    await page.getByRole('heading', { name: /^Payroll portal/ }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete draft' }).count()).toBe(0);

    await page.goto(`/admin/a/${accountId}/phishing/campaigns/${draft.id}`);
    await page.getByRole('heading', { name: 'Unused draft' }).waitFor();
    await page.getByRole('button', { name: 'Delete draft' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the draft?' });
    await dialog.getByText('Nothing has been sent for it').waitFor();
    expect(await accessibilityProblems(page, 'delete a phishing draft')).toEqual([]);
    await shoot(page, `${OUT}/phishing-campaign-delete-desktop.png`);
    // Cancel keeps it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete draft' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the draft?' })
      .getByRole('button', { name: 'Delete draft' })
      .click();
    await page.waitForURL((url) => url.pathname === `/admin/a/${accountId}/phishing`);
    await page.getByText('Deleted phishing campaign "Unused draft"').waitFor();
    await page.getByRole('link', { name: 'Payroll portal (fails on submitting)' }).waitFor();
    expect(await page.getByRole('link', { name: 'Unused draft' }).count()).toBe(0);
    const gone = await page.request.get(`/admin/api/accounts/${accountId}/phishing/campaigns/${draft.id}`);
    expect(gone.status()).toBe(404);

    const another = await vigil.vigil(
      'phishing',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Another draft',
    );
    const phone = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/phishing/campaigns/${another.id}` },
    );
    await phone.page.getByRole('button', { name: 'Delete draft' }).click();
    await phone.page.getByRole('dialog', { name: 'Delete the draft?' }).waitFor();
    await phone.page.waitForTimeout(300);
    await phone.page.screenshot({ path: `${OUT}/phishing-campaign-delete-phone.png` });
  });
});
