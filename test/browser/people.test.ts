import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, signedInPage, startVigil, type Vigil } from './harness.js';

const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';
/** Saved by Excel on Windows ("CSV (semicolon delimited)"): Windows-1252, with ü, é, ß, á and ’. */
const WINDOWS_1252_CSV = 'test/browser/fixtures/employees-windows-1252.csv';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
});

describe('employees', () => {
  it('creates, edits and deletes an employee; a deleted employee leaves their groups', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'People Inc')).id as number;
    const group = await vigil.vigil('group', 'create', '--account', String(accountId), '--name', 'Sales');
    const api = await customerApi(vigil, accountId);
    const { page, context } = await signedInPage(vigil, { accountId });
    await page.getByRole('link', { name: 'Employees' }).first().click();
    await page.getByText('No employees yet').waitFor();

    await page.getByRole('button', { name: 'Add employee' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add employee' });
    await dialog.getByLabel('First name').fill('Ann');
    await dialog.getByLabel('Last name').fill('Lee');
    await dialog.getByLabel('Email').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('must be a valid email address').waitFor();
    await dialog.getByLabel('Email').fill('ann.lee@example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const table = page.getByRole('table', { name: 'Employees' });
    await table.getByText('ann.lee@example.com').waitFor();

    const created = await api.get('employees/?email=ann.lee@example.com');
    expect(created.body.results).toMatchObject([{ first_name: 'Ann', last_name: 'Lee' }]);
    const id = created.body.results[0].id;
    await fetch(`${vigil.baseUrl}/api/api_gateway/customer/groups/${group.id}/`, { method: 'GET' });
    const put = await fetch(`${vigil.baseUrl}/api/api_gateway/customer/groups/${group.id}/`, {
      method: 'PUT',
      headers: {
        apiKey: (
          await vigil.vigil(
            'key',
            'create',
            '--account',
            String(accountId),
            '--name',
            'w',
            '--grant',
            'groups:rw',
          )
        ).key as string,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ employee_ids: [id] }),
    });
    expect(put.status).toBe(200);

    await table.getByRole('button', { name: 'Edit Ann Lee' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit employee' });
    await dialog.getByLabel('Last name').fill('Lee-Smith');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await table.getByText('Lee-Smith').waitFor();
    expect((await api.get(`employees/${id}/`)).body.last_name).toBe('Lee-Smith');

    const before = await api.get(`groups/${group.id}/`);
    expect(before.body.employee_count).toBe(1);
    await table.getByRole('button', { name: 'Delete Ann Lee-Smith' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete employee?' });
    await confirm.getByLabel('Type ann.lee@example.com to confirm').fill('ann.lee@example.com');
    await confirm.getByRole('button', { name: 'Delete employee' }).click();
    await page.getByText('No employees yet').waitFor();
    expect((await api.get(`employees/${id}/`)).status).toBe(404);
    const after = await api.get(`groups/${group.id}/`);
    expect(after.body).toMatchObject({ employee_count: 0, employees: [] });
    expect(after.etag).not.toBe(before.etag);
    await context.close();
  });

  it('imports a 1,000-row CSV: preview, per-row errors, progress, and the rows arrive', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Import Co')).id as number;
    const api = await customerApi(vigil, accountId);
    const lines = ['First name,Last name,E-mail'];
    for (let i = 1; i <= 1000; i++) lines.push(`Person,Number ${i},person${i}@import.example`);
    lines.push('Broken,Row,not-an-address');
    lines.push('Again,Twice,PERSON7@import.example');
    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/employees` },
    );
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await page.getByRole('heading', { name: 'Import employees' }).waitFor();
    await page.locator('input[type=file]').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(lines.join('\r\n')),
    });
    const preview = page.getByRole('table', { name: 'Preview of the first rows' });
    await preview.getByText('person1@import.example').waitFor();

    await page.getByRole('button', { name: 'Check rows' }).click();
    const problems = page.getByRole('table', { name: 'Rows with problems' });
    await problems.getByText('must be a valid email address').waitFor();
    await problems.getByText(/earlier in the file|duplicate/i).waitFor();
    await page.getByText('1,000 new employees will be created.').waitFor();
    expect((await api.get('employees/')).body.count).toBe(0);

    await page.getByRole('button', { name: 'Import employees' }).click();
    await page.getByRole('status').getByText('Import finished').waitFor({ timeout: 60_000 });
    const list = await api.get('employees/?page_size=1000');
    expect(list.body.count).toBe(1000);
    expect((await api.get('employees/?email=person1000@import.example')).body.results).toMatchObject([
      { first_name: 'Person', last_name: 'Number 1000' },
    ]);
    await context.close();
  });

  it('reads a Windows-1252 CSV as Windows-1252, says so, and imports Müller, René and Weiß intact', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Umlaut GmbH')).id as number;
    const api = await customerApi(vigil, accountId);
    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/employees/import` },
    );
    await page.getByLabel('CSV file').setInputFiles(WINDOWS_1252_CSV);
    await page.getByText('This file is not UTF-8: it was read as Windows-1252 (Western European).').waitFor();
    const preview = page.getByRole('table', { name: 'Preview of the first rows' });
    for (const name of ['Jürgen', 'Müller', 'René', 'Weiß', 'Siobhán', 'O’Brien']) {
      await preview.getByText(name, { exact: true }).waitFor();
    }
    expect(await preview.getByText('\uFFFD').count()).toBe(0);
    // The German headers were recognised: each name sits in its column.
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      '2',
      'Jürgen',
      'Müller',
      'juergen.mueller@cp1252.example',
    ]);

    // Another encoding can be chosen, and the preview follows it.
    const encoding = page.getByLabel('File encoding');
    await encoding.selectOption('macintosh');
    await preview.getByText('M¸ller', { exact: true }).waitFor();
    await encoding.selectOption('windows-1252');
    await preview.getByText('Müller', { exact: true }).waitFor();
    await page.screenshot({ path: `${OUT}/employees-import-windows-1252.png`, fullPage: true });

    await page.getByRole('button', { name: 'Check rows' }).click();
    await page.getByText('3 new employees will be created.').waitFor();
    await page.getByRole('button', { name: 'Import employees' }).click();
    await page.getByRole('status').getByText('Import finished').waitFor();
    const imported = await api.get('employees/?page_size=10');
    const names = imported.body.results.map(
      (e: { first_name: string; last_name: string }) => `${e.first_name} ${e.last_name}`,
    );
    expect(names.sort()).toEqual(['Jürgen Müller', 'René Weiß', 'Siobhán O’Brien']);
    await context.close();
  });

  it('says nothing about the encoding of a UTF-8 file, and wraps long values in the problem table', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Long Values Ltd')).id as number;
    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/employees/import` },
    );
    const longEmail = `${'very.long.local.part.'.repeat(14)}x@example.com`;
    const longName = 'Maximilianus'.repeat(14);
    const csv = [
      'first_name,last_name,email',
      'Zoë,Brontë,zoe@long.example',
      `${longName},Lee,${longEmail}`,
      `Ann,${longName},ann@long.example`,
    ].join('\n');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'long.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf8'),
    });
    const preview = page.getByRole('table', { name: 'Preview of the first rows' });
    await preview.getByText('Brontë', { exact: true }).waitFor();
    expect(await page.getByText('This file is not UTF-8').count()).toBe(0);

    await page.getByRole('button', { name: 'Check rows' }).click();
    const problems = page.getByRole('table', { name: 'Rows with problems' });
    await problems.getByText('Email: must be at most 254 characters').waitFor();
    await problems.getByText(/^First name: must be at most \d+ characters$/).waitFor();
    // Nothing is wider than the page or the table's own box; a cut value is whole in its title.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    const section = await page.locator('section[aria-labelledby="failing-rows"]').boundingBox();
    const table = await problems.boundingBox();
    expect(table?.width ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(section?.width ?? 0);
    const email = problems.getByTitle(longEmail);
    expect(await email.textContent()).toBe(longEmail);
    expect((await email.boundingBox())?.width ?? 0).toBeLessThan(600);
    await page.screenshot({ path: `${OUT}/employees-import-long-values.png`, fullPage: true });
    await context.close();
  });

  it('renders names holding markup or script as plain text', async () => {
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const accountId = (await vigil.vigil('account', 'create', '--name', payload)).id as number;
    await vigil.vigil(
      'group',
      'create',
      '--account',
      String(accountId),
      '--name',
      payload,
      '--description',
      payload,
    );
    const { page, context } = await signedInPage(vigil, { operator: true });
    for (const path of ['/admin/accounts', `/admin/a/${accountId}`, `/admin/a/${accountId}/groups`]) {
      await page.goto(path);
      await page.getByText(payload).filter({ visible: true }).first().waitFor();
    }
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await context.close();
  });
});
