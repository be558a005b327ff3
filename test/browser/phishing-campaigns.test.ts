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
  it('offers the account’s own templates in the form and takes the window in the campaign’s time zone', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Acme Pool');
    const accountId = account.id as number;
    const api = await customerApi(vigil, accountId);
    const ann = (
      await api.post('employees/', { first_name: 'Ann', last_name: 'Pool', email: 'ann@pool.example' })
    ).body.id;
    const group = await vigil.vigil(
      'group',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Pool people',
    );
    await api.put(`groups/${group.id}/`, { employee_ids: [ann] });
    const { page } = await signedInPage(vigil, { accountId }, { at: `/admin/a/${accountId}/phishing` });
    // The account's own template: a clone of a built-in one, through the admin API.
    const cloned = await page.evaluate(async (id) => {
      const session = (await (await fetch('/admin/api/session')).json()) as { csrf_token: string };
      const res = await fetch(
        `/admin/api/accounts/${id}/phishing/templates/builtin:invoice-final-notice/clone`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf_token },
          body: JSON.stringify({ name: 'Acme own invoice' }),
        },
      );
      return (await res.json()) as { key: string };
    }, accountId);
    expect(cloned.key).toMatch(/^custom:/);
    // A zone other than the browser's.
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const zone = browserZone === 'America/New_York' ? 'Europe/Berlin' : 'America/New_York';

    await page.goto(`/admin/a/${accountId}/phishing/campaigns/new`);
    await page.getByLabel('Name', { exact: true }).fill('Pool test');
    await page.getByRole('combobox', { name: 'Target groups', exact: true }).click();
    await page.getByRole('option', { name: /Pool people/ }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Templates', exact: true }).click();
    const own = page.getByRole('option', { name: /Acme own invoice/ });
    await own.waitFor();
    expect(await own.textContent()).toMatch(/Difficulty \d · \w+ · Invoice/);
    // The built-in library is offered too (16 templates).
    expect(await page.getByRole('option').count()).toBeGreaterThan(10);
    await page.screenshot({ path: `${OUT}/phishing-campaign-form-templates-desktop.png` });
    await own.click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Time zone', exact: true }).fill(zone);
    await page.getByRole('option', { name: zone, exact: true }).click();
    await page.getByText(`In ${zone}`).first().waitFor();
    await page.getByLabel('Window starts').fill('2031-03-03T09:00');
    await page.getByLabel('Window ends').fill('2031-03-14T17:30');
    await page.screenshot({ path: `${OUT}/phishing-campaign-form-new-desktop.png`, fullPage: true });
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('link', { name: 'Edit' }).waitFor();
    const id = Number(/campaigns\/(\d+)/.exec(page.url())?.[1]);
    const listed = (await vigil.vigil('phishing', 'list', '--account', String(accountId))) as {
      results: Record<string, unknown>[];
    };
    const saved = listed.results.find((c) => c.id === id) as Record<string, unknown>;
    // New York: EST (−5) on 3 March 2031, EDT (−4) from 9 March; Berlin: CET (+1) throughout.
    const [startOffset, endOffset] = zone === 'America/New_York' ? [-5, -4] : [1, 1];
    expect(saved.template_keys).toEqual([cloned.key]);
    expect(saved.time_zone).toBe(zone);
    expect(saved.window_start_at).toBe(
      new Date(Date.UTC(2031, 2, 3, 9, 0) - startOffset * 3_600_000).toISOString(),
    );
    expect(saved.window_end_at).toBe(
      new Date(Date.UTC(2031, 2, 14, 17, 30) - endOffset * 3_600_000).toISOString(),
    );
    // The campaign page shows the window in the campaign's zone, and the form reads it back so.
    await page.getByText(`in ${zone}`).waitFor();
    await page
      .getByText(/9:00|09:00/)
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Window starts').waitFor();
    expect(await page.getByLabel('Window starts').inputValue()).toBe('2031-03-03T09:00');
    expect(await page.getByLabel('Window ends').inputValue()).toBe('2031-03-14T17:30');
  });

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
      const { page, context } = await signedInPage(
        vigil,
        { accountId },
        { viewport, at: `/admin/a/${accountId}/phishing` },
      );
      await page.getByRole('link', { name: 'Invoice test' }).first().waitFor();
      await page.getByText('Parcel test').first().waitFor();
      await page.screenshot({ path: `${OUT}/phishing-campaigns-${size}.png`, fullPage: true });

      await page.goto(`/admin/a/${accountId}/phishing/campaigns/${running.id}`);
      await page.getByText('Recipients').first().waitFor();
      expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(1);
      await page.getByText('Phish-prone').waitFor();
      await page.getByRole('link', { name: 'Results' }).waitFor();
      await page.screenshot({ path: `${OUT}/phishing-campaign-${size}.png`, fullPage: true });

      await page.goto(`/admin/a/${accountId}/phishing/campaigns/${draft.id}/edit`);
      await page.getByLabel('Name').first().waitFor();
      expect(await page.getByLabel('Name').first().inputValue()).toBe('Parcel test');
      await page.screenshot({ path: `${OUT}/phishing-campaign-form-${size}.png`, fullPage: true });
      await context.close();
    }

    // Launch the draft from its page, through the confirmation.
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/campaigns/${draft.id}` },
    );
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
