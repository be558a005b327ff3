import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

// The server's validation errors name the API's fields (`window_end_at`, `group_ids`); the web
// interface shows them under the form's labels, on a desktop and on a phone.

const OUT = 'docs/screenshots';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
});

/** Words of the API's field names, snake_case or with the underscores made spaces. */
const API_WORDS =
  /\b(?:window[_ ](?:start|end)[_ ]at|hour[_ ](?:start|end)|group[_ ]ids|template[_ ]keys)\b/i;

async function expectNoApiNames(page: Page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(API_WORDS);
}

describe('validation errors in the web interface', () => {
  for (const [viewport, size] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    it(`name the fields of a phishing campaign's form by its labels (${size})`, async () => {
      const account = await vigil.vigil('account', 'create', '--name', `Form labels ${size}`);
      const accountId = account.id as number;
      const { page, context } = await signedInPage(
        vigil,
        { accountId },
        { viewport, at: `/admin/a/${accountId}/phishing/campaigns/new` },
      );
      // A window that ends before it starts, hours that end before they begin.
      await page.getByLabel('Name', { exact: true }).fill('Backwards');
      await page.getByLabel('Window starts').fill('2031-03-14T09:00');
      await page.getByLabel('Window ends').fill('2031-03-03T17:00');
      await page.getByLabel('From hour').fill('17');
      await page.getByLabel('Until hour').fill('9');
      await page.getByRole('button', { name: 'Create draft' }).click();
      const problem = page.getByRole('alert').filter({ hasText: 'Could not save the campaign' });
      await problem.getByText('Window ends: must be after Window starts').waitFor();
      await problem.getByText('Until hour: must be after From hour').waitFor();
      await expectNoApiNames(page);
      await problem.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${OUT}/field-names-phishing-form-${size}.png` });
      await context.close();
    });

    it(`name what a launch of a phishing campaign misses by the form's labels (${size})`, async () => {
      const account = await vigil.vigil('account', 'create', '--name', `Launch labels ${size}`);
      const accountId = account.id as number;
      const draft = await vigil.vigil(
        'phishing',
        'create',
        '--account',
        String(accountId),
        '--name',
        'Nothing chosen',
      );
      const { page, context } = await signedInPage(
        vigil,
        { accountId },
        { viewport, at: `/admin/a/${accountId}/phishing/campaigns/${draft.id}` },
      );
      await page.getByRole('button', { name: 'Launch now' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Launch now' }).click();
      const problem = page.getByRole('alert').filter({ hasText: 'Could not change the campaign' });
      await problem.getByText('Templates: choose at least one template').waitFor();
      await problem.getByText('Target groups: choose at least one target group').waitFor();
      await problem.getByText('Window starts: is required').waitFor();
      await problem.getByText('Window ends: is required').waitFor();
      await expectNoApiNames(page);
      await page.screenshot({ path: `${OUT}/field-names-phishing-launch-${size}.png` });
      await context.close();
    });
  }
});
