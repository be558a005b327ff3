import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  customerApi,
  DESKTOP,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

// The Audit log page: what an API key, an administrator and the `vigil` command changed, who and
// through what, the changed fields; filtered by person, action and object; its CSV export holds
// the filtered view. Screenshots desktop and phone.

const OUT = 'docs/screenshots';

let vigil: Vigil;
let accountId: number;
beforeAll(async () => {
  vigil = await startVigil();
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme')).id as number;
  const api = await customerApi(vigil, accountId, ['employees:rw', 'groups:rw'], 'Workday sync');
  for (const [first, last] of [
    ['Ann', 'Lee'],
    ['Bo', 'Chen'],
  ]) {
    await api.post('employees/', {
      first_name: first,
      last_name: last,
      email: `${first}.${last}@acme.example`.toLowerCase(),
    });
  }
  const group = await api.post('groups/', { name: 'Finance' });
  const renamed = await fetch(`${vigil.baseUrl}/api/api_gateway/customer/groups/${group.body.id}/`, {
    method: 'PATCH',
    headers: { apiKey: api.key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Finance EMEA' }),
  });
  expect(renamed.status).toBe(200);
  await vigil.vigil('group', 'create', '--account', String(accountId), '--name', 'Everyone');
}, 300_000);

describe('the Audit log page', () => {
  it('shows who changed what, through what, and filters by person, action and object', async () => {
    const { page, context, email } = await signedInPage(
      vigil,
      { accountId },
      { viewport: DESKTOP, at: `/admin/a/${accountId}/audit-log` },
    );
    const table = page.getByRole('table', { name: 'Audit log' });
    const rows = table.locator('tbody tr');
    // The administrator's own sign-in is the newest row.
    await rows.first().getByText(email).first().waitFor();
    await expect.poll(() => rows.first().textContent()).toContain('admin.signed_in');
    const renamed = rows.filter({ hasText: 'group.updated' });
    await renamed.waitFor();
    expect(await renamed.textContent()).toContain('Workday sync');
    expect(await renamed.textContent()).toContain('API key');
    expect(await renamed.textContent()).toContain('name: Finance → Finance EMEA');
    expect(await rows.filter({ hasText: 'vigil command' }).filter({ hasText: 'group.created' }).count()).toBe(
      1,
    );
    await page.screenshot({ path: `${OUT}/audit-log.png` });
    expect(await accessibilityProblems(page, 'audit-log')).toEqual([]);

    // By person: the key's rows only.
    await page.getByLabel('Person').fill('workday');
    await expect.poll(() => rows.filter({ hasText: email }).count()).toBe(0);
    await expect.poll(() => rows.count()).toBe(4); // two employees, a group made and renamed
    // And by action: `group` is every action on groups.
    await page.getByLabel('Action').fill('group');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Action').fill('employee.created');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Action').fill('');
    await page.getByLabel('Person').fill('');
    await expect.poll(() => rows.count()).toBeGreaterThan(4);
    // By object.
    await page.getByLabel('Object').fill('employee');
    const exportLink = page.getByRole('link', { name: 'Export CSV' });
    await expect.poll(() => exportLink.getAttribute('href')).toContain('object_type=employee');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => rows.filter({ hasText: 'ann.lee@acme.example' }).count()).toBe(1);

    // The export holds the view as filtered.
    const href = (await exportLink.getAttribute('href')) as string;
    const csv = await page.request.get(href);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'at,actor_kind,actor_id,actor,address,action,object_type,object_id,object,changes,request_id,seq',
    );
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['employee.created', 'employee.created']);
    await context.close();
  });

  it('reads on a phone', async () => {
    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { viewport: PHONE, at: `/admin/a/${accountId}/audit-log` },
    );
    const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
    await rows.filter({ hasText: 'group.updated' }).waitFor();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.screenshot({ path: `${OUT}/phone-audit-log.png`, fullPage: true });
    expect(await accessibilityProblems(page, 'phone-audit-log')).toEqual([]);
    await context.close();
  });
});
