import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, DESKTOP, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

const OUT = 'docs/screenshots';
const DAY = 86_400_000;

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
});

describe('phishing campaigns in the web interface', () => {
  it('lists, creates, shows and launches a campaign, on a desktop and a phone', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Acme Phishing');
    const accountId = account.id as number;
    const api = await customerApi(vigil, accountId);
    const ids: number[] = [];
    for (const name of ['Ann', 'Bob', 'Cy']) {
      ids.push(
        (await api.post('employees/', { first_name: name, last_name: 'Lee', email: `${name}@phish.example` }))
          .body.id,
      );
    }
    const group = await vigil.vigil('group', 'create', '--account', String(accountId), '--name', 'Everyone');
    await api.put(`groups/${group.id}/`, { employee_ids: ids });
    const window = [
      '--window-start',
      new Date(Date.now() + DAY).toISOString(),
      '--window-end',
      new Date(Date.now() + 14 * DAY).toISOString(),
      '--weekdays',
      'mon,tue,wed,thu,fri',
      '--hours',
      '9-17',
      '--time-zone',
      'Europe/Berlin',
    ];
    const running = await vigil.vigil(
      'phishing',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Invoice test',
      '--group',
      String(group.id),
      '--template',
      'builtin:invoice-final-notice',
      '--template',
      'builtin:mfa-deny-sign-in',
      '--course',
      'phishing',
      ...window,
    );
    await vigil.vigil('phishing', 'launch', '--account', String(accountId), '--id', String(running.id));
    const draft = await vigil.vigil(
      'phishing',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Parcel test',
      '--group',
      String(group.id),
      '--template',
      'builtin:parcel-redelivery-fee',
      ...window,
    );

    for (const [viewport, size] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { page, context } = await signedInPage(vigil, { accountId }, viewport);
      await page.goto(`/admin/a/${accountId}/phishing`);
      await page.getByRole('link', { name: 'Invoice test' }).first().waitFor();
      await page.getByText('Parcel test').first().waitFor();
      await page.screenshot({ path: `${OUT}/phishing-campaigns-${size}.png`, fullPage: true });

      await page.goto(`/admin/a/${accountId}/phishing/campaigns/${running.id}`);
      await page.getByText('Recipients').first().waitFor();
      expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(1);
      await page.screenshot({ path: `${OUT}/phishing-campaign-${size}.png`, fullPage: true });

      await page.goto(`/admin/a/${accountId}/phishing/campaigns/${draft.id}/edit`);
      await page.getByLabel('Name').first().waitFor();
      expect(await page.getByLabel('Name').first().inputValue()).toBe('Parcel test');
      await page.screenshot({ path: `${OUT}/phishing-campaign-form-${size}.png`, fullPage: true });
      await context.close();
    }

    // Launch the draft from its page, through the confirmation.
    const { page } = await signedInPage(vigil, { accountId });
    await page.goto(`/admin/a/${accountId}/phishing/campaigns/${draft.id}`);
    await page.getByRole('button', { name: 'Launch now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Launch now' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    const after = await vigil.vigil(
      'phishing',
      'list',
      '--account',
      String(accountId),
      '--status',
      'running',
    );
    expect((after as { count: number }).count).toBe(2);
  });
});
