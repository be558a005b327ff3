import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { afterFile } from '../helpers/cleanup.js';
import { customerApi, DESKTOP, signedInPage, startVigil, type Vigil } from './harness.js';

// Issue 22, item 8 in the browser: the allow-listing sheet with the account's values, and a test
// send whose scanner and human hits show on the page as they come.

const OUT = 'docs/screenshots';
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let vigil: Vigil;
let db: Db;
beforeAll(async () => {
  vigil = await startVigil({ PHISHING_SENDING_IPS: '203.0.113.25,198.51.100.0/24' });
  mkdirSync(OUT, { recursive: true });
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  db = database.db;
  afterFile(() => database.close());
});

describe('delivery that lands, in the web interface', () => {
  it('shows the sheet with the account’s values and a test send’s scanner and human hits', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Acme Delivery');
    const accountId = account.id as number;
    const api = await customerApi(vigil, accountId);
    await api.post('employees/', { first_name: 'Ann', last_name: 'Lee', email: 'ann@delivery.example' });
    const { page } = await signedInPage(
      vigil,
      { accountId },
      { viewport: DESKTOP, at: `/admin/a/${accountId}/phishing/settings` },
    );
    const sheet = page.getByLabel('Allow-listing sheet');
    await sheet.getByText('Microsoft 365 (advanced delivery policy)').waitFor();
    await sheet.getByText('203.0.113.25').first().waitFor();
    await sheet.getByText('198.51.100.0/24').first().waitFor();
    await sheet.getByText('X-Vigil-Simulation').first().waitFor();
    expect(await sheet.getByRole('button', { name: /^Copy / }).count()).toBeGreaterThan(5);

    await page.getByLabel('Employee’s address').fill('ann@delivery.example');
    await page.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByLabel('Test send hits').waitFor();

    // The worker sends it to the Outbox; then a link checker and a person follow its link.
    let token = '';
    for (let i = 0; i < 60 && !token; i++) {
      const row = await db
        .selectFrom('phishing_test_sends')
        .select(['token', 'status'])
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (row?.status === 'sent') token = row.token;
      else await new Promise((r) => setTimeout(r, 500));
    }
    expect(token).toHaveLength(40);
    await fetch(`${vigil.baseUrl}/v/${token}`, { method: 'HEAD', headers: { 'user-agent': BROWSER_UA } });
    await db
      .updateTable('phishing_test_sends')
      .set({ delivered_at: Date.now() - 10 * 60_000 })
      .where('token', '=', token)
      .execute();
    await fetch(`${vigil.baseUrl}/v/${token}`, { headers: { 'user-agent': BROWSER_UA } });

    await page.getByText('It arrived and a person opened it').waitFor({ timeout: 30_000 });
    await page.getByRole('cell', { name: 'Scanner' }).waitFor();
    await page.getByRole('cell', { name: 'Human' }).waitFor();
    await page.getByText('A HEAD request').waitFor();
    await page.screenshot({ path: `${OUT}/phishing-delivery.png`, fullPage: true });
  });
});
