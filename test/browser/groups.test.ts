import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, signedInPage, startVigil, type Vigil } from './harness.js';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
});

describe('groups', () => {
  it("changes a group's members in the page; the Customer API shows the change at once", async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Groups Ltd')).id as number;
    const api = await customerApi(vigil, accountId, ['employees:rw', 'groups:r']);
    const people = [
      ['Ann', 'Lee'],
      ['Bo', 'Chen'],
      ['Cy', 'Diaz'],
    ];
    for (const [first, last] of people) {
      await api.post('employees/', {
        first_name: first,
        last_name: last,
        email: `${first?.toLowerCase()}@groups.example`,
      });
    }

    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/groups` },
    );
    await page.getByText('No groups yet').waitFor();
    await page.getByRole('button', { name: 'New group' }).first().click();
    const form = page.getByRole('dialog', { name: 'New group' });
    await form.getByLabel('Name').fill('Finance');
    await form.getByLabel('Description').fill('Everyone who approves payments');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'Groups' }).getByRole('link', { name: 'Finance' }).click();
    await page.getByRole('heading', { name: 'Finance' }).waitFor();
    const groupId = Number(page.url().split('/').pop());
    expect(groupId).toBeGreaterThan(0);
    let seen = await api.get(`groups/${groupId}/`);
    expect(seen.body).toMatchObject({ name: 'Finance', employee_count: 0 });
    const emptyTag = seen.etag;

    await page.getByRole('button', { name: 'Add members' }).click();
    const add = page.getByRole('dialog', { name: 'Add members to Finance' });
    await add.getByLabel('Select Ann Lee').check();
    await add.getByLabel('Select Cy Diaz').check();
    await add.getByRole('button', { name: 'Add to group' }).click();
    await add.waitFor({ state: 'detached' });
    const members = page.getByRole('table', { name: 'Members' });
    await members.getByText('cy@groups.example').waitFor();

    seen = await api.get(`groups/${groupId}/`);
    expect(seen.body.employee_count).toBe(2);
    expect(seen.body.employees.map((e: { email: string }) => e.email).sort()).toEqual([
      'ann@groups.example',
      'cy@groups.example',
    ]);
    expect(seen.etag).not.toBe(emptyTag);

    await members.getByLabel('Select Ann Lee').check();
    await page.getByRole('button', { name: 'Remove selected' }).click();
    await page
      .getByRole('dialog', { name: 'Remove members?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await members.getByText('ann@groups.example').waitFor({ state: 'detached' });
    seen = await api.get(`groups/${groupId}/`);
    expect(seen.body.employees.map((e: { email: string }) => e.email)).toEqual(['cy@groups.example']);

    // Bulk add from a CSV of addresses: one new member, one already there, one unknown.
    await page.getByRole('button', { name: 'Add from CSV' }).click();
    const bulk = page.getByRole('dialog', { name: 'Add members to Finance by email' });
    await bulk.locator('input[type=file]').setInputFiles({
      name: 'members.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('email\nbo@groups.example\nCY@groups.example\nnobody@groups.example\n'),
    });
    await bulk.getByRole('button', { name: /^Add/ }).last().click();
    await bulk.getByRole('status').waitFor();
    await bulk.getByText('nobody@groups.example').waitFor();
    seen = await api.get(`groups/${groupId}/`);
    expect(seen.body.employee_count).toBe(2);
    await context.close();
  });
});
