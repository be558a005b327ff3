import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, DESKTOP, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

// Issue 21, items 1 and 2 in the browser: the sender set in Phishing settings and the campaign
// form; the form's warning when nothing goes out within a day; the launch confirmation naming how
// many people and the first and last send; the page's next send and sent / planned.

const OUT = 'docs/screenshots';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
});

/** An account with three people in a group, and a way to make a draft whose window opens on a Saturday. */
async function world() {
  const account = await vigil.vigil('account', 'create', '--name', 'Acme Sending');
  const accountId = account.id as number;
  const api = await customerApi(vigil, accountId);
  const ids: number[] = [];
  for (const name of ['Ann', 'Bob', 'Cy']) {
    ids.push(
      (await api.post('employees/', { first_name: name, last_name: 'Lee', email: `${name}@sending.example` }))
        .body.id,
    );
  }
  const group = await vigil.vigil('group', 'create', '--account', String(accountId), '--name', 'Everyone');
  await api.put(`groups/${group.id}/`, { employee_ids: ids });
  // A window that opens on Saturday 5 January 2030, Monday to Friday 9–17 in Berlin.
  const draft = (name: string) =>
    vigil.vigil(
      'phishing',
      'create',
      '--account',
      String(accountId),
      '--name',
      name,
      '--group',
      String(group.id),
      '--template',
      'builtin:invoice-final-notice',
      '--window-start',
      '2030-01-05T08:00:00+01:00',
      '--window-end',
      '2030-01-12T00:00:00+01:00',
      '--weekdays',
      'mon,tue,wed,thu,fri',
      '--hours',
      '9-17',
      '--time-zone',
      'Europe/Berlin',
    );

  return { accountId, draft };
}

describe('predictable sending and the sender, in the web interface', () => {
  for (const [viewport, size] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    it(`sets the sender, warns of a window closed for a day, and shows the plan before and after launch (${size})`, async () => {
      const { accountId, draft } = await world();
      const campaign = await draft(`Weekend launch ${size}`);
      const { page, context } = await signedInPage(
        vigil,
        { accountId },
        { viewport, at: `/admin/a/${accountId}/phishing/settings` },
      );

      // The account's default sender.
      await page.getByText('Default sender').waitFor();
      await page.getByLabel('Sender name').fill('IT Service Desk');
      await page.getByLabel('Sender address').fill('it-desk');
      await page
        .getByRole('textbox', { name: 'Sender domain', exact: true })
        .fill('mail.acme-notices.example');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Saved the phishing settings').waitFor();
      await page.screenshot({ path: `${OUT}/phishing-settings-sender-${size}.png`, fullPage: true });

      // The form: the warning, and a sender name of the campaign's own.
      await page.goto(`/admin/a/${accountId}/phishing/campaigns/${campaign.id}/edit`);
      await page.getByText('Nothing goes out in the next 24 hours').waitFor();
      await page.getByText(/first simulation on .*09:00 \(Europe\/Berlin\)/).waitFor();
      await page.getByLabel('Sender name').fill('Accounts Payable');
      await page.screenshot({ path: `${OUT}/phishing-campaign-form-sender-${size}.png`, fullPage: true });
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: 'Launch now' }).waitFor();
      // The From it will carry: its own name, the account's address and domain.
      await page.getByText('Accounts Payable <it-desk@mail.acme-notices.example>').waitFor();
      await page.getByText('The address and domain from the account’s defaults').waitFor();

      // The launch confirmation: who, and the first and last send.
      await page.getByRole('button', { name: 'Launch now' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('people get one simulation each').waitFor();
      expect(await dialog.getByLabel('Launch plan').innerText()).toMatch(/3\s+people get one/);
      const plan = await dialog.getByLabel('Launch plan').innerText();
      expect(plan).toMatch(/First send\s+Mon.*2030.*09:00 \(Europe\/Berlin\)/is);
      expect(plan).toMatch(/Last send\s+Fri.*2030.*16:59 \(Europe\/Berlin\)/is);
      expect(plan).toContain('mail.acme-notices.example');
      await page.screenshot({ path: `${OUT}/phishing-launch-confirmation-${size}.png`, fullPage: true });
      await dialog.getByRole('button', { name: 'Launch now' }).click();
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      await dialog.waitFor({ state: 'detached' });

      // The page: sent / planned and next send, not just "Running, 0 delivered".
      await page.getByText('Sent / planned').waitFor();
      expect(await page.getByText('0 / 3').count()).toBe(1);
      await page.getByText('Next send').waitFor();
      // Everyone's moment is drawn at random inside the window: the next is the earliest of them,
      // on a weekday between 9:00 and 17:00 in Berlin (the confirmation above named Monday 09:00 as
      // the first possible one).
      expect(await page.locator('body').innerText()).toMatch(
        /Next send\s+(Mon|Tue|Wed|Thu|Fri), Jan \d+, 2030, (09|1[0-6]):\d\d \(Europe\/Berlin\)/i,
      );
      await page.screenshot({ path: `${OUT}/phishing-campaign-next-send-${size}.png`, fullPage: true });

      // Each person's row says when theirs goes.
      await page.goto(`/admin/a/${accountId}/phishing/campaigns/${campaign.id}/results`);
      await page
        .getByText(/^planned /)
        .first()
        .waitFor();
      expect(await page.getByText(/^planned .*2030/).count()).toBe(3);
      await context.close();
    });
  }
});
