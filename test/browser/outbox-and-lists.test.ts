import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  type CustomerApi,
  customerApi,
  DESKTOP,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

// The Outbox shows a phishing simulation as it was sent: its campaign's name, its From and its
// X-Vigil-Simulation header. Lists sorted by name read as people read names (Ávila, João,
// Öztürk, Tester, Zoë), and a full table's "No … yet" text is neither shown nor read out.
// No SMTP_URL: the server's own mail worker would send to the outbox.

const OUT = 'docs/screenshots';
const PEOPLE = ['Tester', 'Öztürk', 'Zoë', 'João', 'Ávila'];
const READ_IN_ORDER = ['Ávila', 'João', 'Öztürk', 'Tester', 'Zoë'];

let vigil: Vigil;
let api: CustomerApi;
let accountId: number;
beforeAll(async () => {
  vigil = await startVigil({ SCHEDULER_INTERVAL_SECONDS: '1' });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme')).id as number;
  api = await customerApi(vigil, accountId, ['employees:rw', 'groups:rw', 'campaigns:rw']);
  const ids: number[] = [];
  for (const [i, last_name] of PEOPLE.entries()) {
    const res = await api.post('employees/', {
      first_name: 'Sam',
      last_name,
      email: `person${i}@acme.example`,
    });
    ids.push(res.body.id);
  }
  const group = await vigil.vigil('group', 'create', '--account', String(accountId), '--name', 'Everyone');
  await api.put(`groups/${group.id}/`, { employee_ids: ids });
  const day = 86_400_000;
  const campaign = await vigil.vigil(
    ...['phishing', 'create', '--account', String(accountId), '--name', 'Q1 invoices'],
    ...['--group', String(group.id), '--template', 'builtin:invoice-final-notice'],
    ...['--window-start', new Date(Date.now() - day).toISOString()],
    ...['--window-end', new Date(Date.now() + day).toISOString()],
    ...['--weekdays', 'mon,tue,wed,thu,fri,sat,sun', '--hours', '0-24', '--time-zone', 'UTC'],
    ...['--sender-domain', 'billing.acme.example'],
  );
  await vigil.vigil('phishing', 'launch', '--account', String(accountId), '--id', String(campaign.id));
  // Eight runs of the CLI, each a process of its own: a busy machine takes minutes.
}, 300_000);

describe('the Outbox', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])(
    "shows a simulation's campaign, From and header (%s)",
    async (name, viewport) => {
      const { page, context } = await signedInPage(
        vigil,
        { accountId },
        { viewport, at: `/admin/a/${accountId}/outbox` },
      );
      const table = page.getByRole('table', { name: 'Messages' });
      // Each waits for its moment in the window (the next 24 hours): what it will be sent as
      // is shown already.
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: 60_000 }).toBe(PEOPLE.length);
      const row = table.locator('tbody tr').filter({ hasText: 'person1@acme.example' });
      await row.getByText('Q1 invoices').filter({ visible: true }).first().waitFor();
      expect(await table.getByText('Phishing simulation', { exact: true }).count()).toBe(0);
      if (name === 'desktop') await page.screenshot({ path: `${OUT}/outbox-simulations-desktop.png` });

      await row.getByRole('button').first().click();
      const dialog = page.getByRole('dialog');
      await dialog
        .getByText('billing.acme.example', { exact: false })
        .filter({ visible: true })
        .first()
        .waitFor();
      const from = dialog.locator('dt', { hasText: /^From$/ }).locator('xpath=following-sibling::dd[1]');
      expect(await from.innerText()).toMatch(/<[^@\s]+@billing\.acme\.example>$/);
      const header = dialog.getByRole('list', { name: /Simulation header/ }).getByRole('listitem');
      expect(await header.innerText()).toMatch(/^X-Vigil-Simulation: [A-Za-z0-9_-]{32}$/);
      await expect.poll(() => dialog.getByRole('link', { name: 'Q1 invoices' }).count()).toBe(1);
      await page.screenshot({ path: `${OUT}/outbox-simulation-message-${name}.png` });
      expect(await accessibilityProblems(page, `outbox-simulation-message-${name}`)).toEqual([]);
      await context.close();
    },
    240_000,
  );
});

describe('lists sorted by name', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])(
    'lists employees by last name as people read them, and a full table reads no "No employees yet" (%s)',
    async (_name, viewport) => {
      const { page, context } = await signedInPage(
        vigil,
        { accountId },
        { viewport, at: `/admin/a/${accountId}/employees` },
      );
      const table = page.getByRole('table', { name: /Employees/ });
      await table.getByText('Zoë').first().waitFor();
      const rows = table.locator('tbody tr');
      const lastNames = (await rows.allInnerTexts()).map(
        (text) => READ_IN_ORDER.find((n) => text.includes(n)) ?? text,
      );
      expect(lastNames).toEqual(READ_IN_ORDER);
      // Nothing says the table is empty, to the eye or to a screen reader.
      expect(await page.locator('main').ariaSnapshot()).not.toContain('No employees yet');
      expect(await page.getByText('No employees yet').isVisible()).toBe(false);
      await context.close();
    },
  );

  it('shows the empty state of an empty table, and reads it out', async () => {
    const other = (await vigil.vigil('account', 'create', '--name', 'Empty Co')).id as number;
    const { page, context } = await signedInPage(
      vigil,
      { accountId: other },
      { at: `/admin/a/${other}/employees` },
    );
    await page.getByText('No employees yet').waitFor();
    expect(await page.locator('main').ariaSnapshot()).toContain('No employees yet');
    await context.close();
  });
});
