import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, signedInPage, startVigil, type Vigil } from './harness.js';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
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
    await confirm.getByRole('button', { name: 'Delete' }).click();
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
    const { page, context } = await signedInPage(vigil, { accountId });
    await page.goto(`/admin/a/${accountId}/employees`);
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
