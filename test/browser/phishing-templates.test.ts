import { mkdirSync } from 'node:fs';
import type { FrameLocator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  dismissNotices,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

// Run with SCREENSHOTS=1 to write the pictures into docs/screenshots (as `npm run screenshots`).
const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
});

const frame = (page: Page, title: string): FrameLocator => page.frameLocator(`iframe[title="${title}"]`);

/** The Chromium sandbox flags the preview frames carry: none at all. */
async function sandboxes(page: Page): Promise<(string | null)[]> {
  return page.locator('iframe').evaluateAll((frames) => frames.map((f) => f.getAttribute('sandbox')));
}

/**
 * A whole-page picture with the window as tall as the page: the sandboxed frames (an opaque
 * origin, painted by a process of their own) are left blank by a full-page capture below the fold.
 */
async function tallScreenshot(page: Page, path: string) {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const height = await page.evaluate<number>('document.documentElement.scrollHeight');
  await page.setViewportSize({ width: viewport.width, height: Math.min(height, 6000) });
  await new Promise((r) => setTimeout(r, 300));
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}

async function templateCards(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Templates' }).getByRole('link').allTextContents();
}

describe('phishing templates in the web interface', () => {
  it('browses, filters, previews, clones and edits a template with a live preview, and sets scanner networks', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Harbour Freight')).id as number;
    const { page } = await signedInPage(vigil, { accountId });
    const problems: string[] = [];

    // The library: every built-in template, then filtered.
    await page.getByRole('navigation').getByRole('link', { name: 'Phishing templates' }).click();
    await page.getByRole('heading', { name: 'Phishing templates' }).waitFor();
    await page.getByText(/^1\d templates$/).waitFor();
    expect((await templateCards(page)).length).toBeGreaterThanOrEqual(15);
    await tallScreenshot(page, `${OUT}/phishing-templates-desktop.png`);
    await page.mouse.move(1200, 780); // off the nav link just clicked (a hovered link is paler)
    problems.push(...(await accessibilityProblems(page, 'library')));

    await page.getByLabel('Difficulty', { exact: true }).selectOption('1');
    await page.getByText(/^\d+ templates?$/).waitFor();
    await expect.poll(() => templateCards(page)).toContain('Final notice: unpaid invoice');
    await page.getByLabel('Category', { exact: true }).selectOption('invoice');
    await expect.poll(() => templateCards(page)).toEqual(['Final notice: unpaid invoice']);
    await page.getByLabel('Source', { exact: true }).selectOption('custom');
    await page.getByText('No templates match').waitFor();
    await page.getByLabel('Source', { exact: true }).selectOption('');

    // One template: the email in a sandboxed frame, as desktop and phone, and its red flags.
    await page.getByRole('link', { name: 'Final notice: unpaid invoice' }).click();
    await page.getByRole('heading', { name: 'Final notice: unpaid invoice' }).waitFor();
    await frame(page, 'Email preview').getByText('View Invoice INV-20931').waitFor();
    expect(await sandboxes(page)).toEqual(['']);
    const flags = page.getByRole('list', { name: 'Red flags' });
    await expect.poll(() => flags.getByRole('listitem').count()).toBe(5);
    await expect.poll(() => page.getByText('Legal Action Pending').count()).toBeGreaterThan(0);
    const width = () =>
      page.locator('iframe[title="Email preview"]').evaluate((f) => f.getBoundingClientRect().width);
    expect(await width()).toBeGreaterThan(600);
    await page.getByText('Phone', { exact: true }).dispatchEvent('click');
    await expect.poll(width).toBeLessThanOrEqual(390);
    await page.getByText('Desktop', { exact: true }).dispatchEvent('click');
    await tallScreenshot(page, `${OUT}/phishing-template-desktop.png`);
    problems.push(...(await accessibilityProblems(page, 'template')));
    await page.getByRole('tab', { name: 'Landing page' }).click();
    await frame(page, 'Landing page preview').locator('form').waitFor();
    await page.getByRole('tab', { name: /Red flags/ }).click();
    await frame(page, 'Email with red flags marked').locator('mark[data-flag="1"]').waitFor();
    expect(await sandboxes(page)).toEqual(['']);
    // Built-in: no Edit or Delete, only Clone.
    expect(await page.getByRole('button', { name: 'Edit template' }).count()).toBe(0);

    // Clone: a copy of the account's own, opened in the editor.
    await page.getByRole('button', { name: 'Clone template' }).click();
    await page.getByRole('heading', { name: 'Edit Final notice: unpaid invoice (copy)' }).waitFor();
    await dismissNotices(page);
    await page.getByText('No problems found: this template can be saved.').waitFor();
    await frame(page, 'Email preview').getByText('View Invoice INV-20931').waitFor();

    // Live preview: a misspelt variable is named on the input and the subject cannot render.
    const subject = page.getByLabel('Subject', { exact: true });
    await subject.fill('URGENT {{frist_name}}: invoice INV-20931 - Legal Action Pending');
    await page.getByText('unknown variable {{frist_name}}').first().waitFor();
    expect(await subject.getAttribute('aria-invalid')).toBe('true');
    await tallScreenshot(page, `${OUT}/phishing-template-editor-desktop.png`);
    problems.push(...(await accessibilityProblems(page, 'editor')));

    // Corrected: the preview follows what is typed.
    await subject.fill('URGENT {{first_name}}: invoice INV-20931 - Legal Action Pending');
    await page.getByText('URGENT Alex: invoice INV-20931 - Legal Action Pending').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Unpaid invoice, first names');
    await page.getByText('No problems found: this template can be saved.').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Unpaid invoice, first names' }).waitFor();
    await dismissNotices(page);
    await page.getByRole('button', { name: 'Edit template' }).waitFor();
    await page.getByText('URGENT Alex: invoice INV-20931 - Legal Action Pending').waitFor();

    // Back in the library: the copy is there, as custom.
    await page.getByRole('link', { name: 'Phishing templates', exact: true }).first().click();
    await page.getByLabel('Source', { exact: true }).selectOption('custom');
    await expect.poll(() => templateCards(page)).toEqual(['Unpaid invoice, first names']);

    // Settings: a bad line is named; a good list is kept with its comment.
    await page.getByRole('main').getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Phishing settings' }).waitFor();
    const networks = page.getByLabel('Scanner networks');
    await networks.fill('# Mail gateway\n203.0.113.0/24\n10.0.0.1/8');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByText(/Line 3 \(10\.0\.0\.1\/8\): must start at its network's first address: 10\.0\.0\.0\/8/)
      .waitFor();
    await networks.fill('# Mail gateway\n203.0.113.0/24\n2001:db8::/32');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved the phishing settings').waitFor();
    await dismissNotices(page);
    await page.screenshot({ path: `${OUT}/phishing-settings-desktop.png`, fullPage: true });
    problems.push(...(await accessibilityProblems(page, 'settings')));
    expect(problems).toEqual([]);
  });

  it('fits a phone', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Phone Ltd')).id as number;
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/phishing/templates` },
    );
    await page.getByRole('heading', { name: 'Phishing templates' }).waitFor();
    await page.getByText(/^1\d templates$/).waitFor();
    await tallScreenshot(page, `${OUT}/phishing-templates-phone.png`);
    await page.goto(`/admin/a/${accountId}/phishing/templates/builtin:invoice-final-notice`);
    await frame(page, 'Email preview').getByText('View Invoice INV-20931').waitFor();
    await page.getByText('Phone', { exact: true }).dispatchEvent('click');
    await frame(page, 'Email preview').getByText('View Invoice INV-20931').waitFor();
    await tallScreenshot(page, `${OUT}/phishing-template-phone.png`);
    await page.getByRole('button', { name: 'Clone template' }).click();
    await page.getByRole('heading', { name: /^Edit .* \(copy\)$/ }).waitFor();
    await dismissNotices(page);
    await page.getByText('No problems found: this template can be saved.').waitFor();
    await tallScreenshot(page, `${OUT}/phishing-template-editor-phone.png`);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
