import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  dismissNotices,
  type Json,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

/**
 * Roles scoped to groups in the web interface (issue 23, docs/roles.md): an owner invites a
 * campaign manager limited to one group, who then sees that group's people and campaigns only.
 */

const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
});

/** The owner's admin API call from the page (its session and a CSRF token of it). */
async function adminCall(page: Page, method: string, path: string, data?: unknown): Promise<Json> {
  const session = await page.request.get('/admin/api/session');
  const token = (await session.json()).csrf_token as string;
  const res = await page.request.fetch(`/admin/api${path}`, {
    method,
    headers: { 'x-csrf-token': token },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

describe('a campaign manager limited to one group', () => {
  it("sees that group's people and campaigns only, and none of the sections the role lacks", async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Scoped Ltd')).id as number;
    const base = `/accounts/${accountId}`;
    const owner = await signedInPage(vigil, { accountId }, { at: `/admin/a/${accountId}/admins` });
    const groups: Record<string, number> = {};
    for (const [group, person] of [
      ['Sales', 'Ana Alvarez'],
      ['Support', 'Bo Brown'],
    ] as const) {
      groups[group] = (await adminCall(owner.page, 'POST', `${base}/groups`, { name: group })).id;
      const [first, last] = person.split(' ');
      const employee = await adminCall(owner.page, 'POST', `${base}/employees`, {
        first_name: first,
        last_name: last,
        email: `${first?.toLowerCase()}@scoped.example`,
      });
      await adminCall(owner.page, 'POST', `${base}/groups/${groups[group]}/members`, {
        employee_ids: [employee.id],
      });
      await adminCall(owner.page, 'POST', `${base}/campaigns`, {
        name: `${group} training`,
        group_ids: [groups[group]],
      });
    }

    // A campaign launched to Sales (Ana and Dee); Dee leaves Sales afterwards: the campaign keeps
    // her, the manager limited to Sales no longer sees her results.
    const dee = await adminCall(owner.page, 'POST', `${base}/employees`, {
      first_name: 'Dee',
      last_name: 'Dunn',
      email: 'dee@scoped.example',
    });
    await adminCall(owner.page, 'POST', `${base}/groups/${groups.Sales}/members`, { employee_ids: [dee.id] });
    const launched = await adminCall(owner.page, 'POST', `${base}/campaigns`, {
      name: 'Sales quarterly',
      group_ids: [groups.Sales],
      course_keys: ['phishing'],
      due_date: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    });
    await adminCall(owner.page, 'POST', `${base}/campaigns/${launched.id}/launch`);
    await adminCall(owner.page, 'POST', `${base}/groups/${groups.Sales}/members/remove`, {
      employee_ids: [dee.id],
    });

    // The owner invites through the Administrators page, with a role and one group.
    await owner.page.reload();
    await owner.page.getByRole('button', { name: 'Invite administrator' }).click();
    const invite = owner.page.getByRole('dialog', { name: 'Invite an administrator' });
    await invite.getByLabel('Email').fill('manager@scoped.example');
    await invite.getByRole('combobox', { name: 'Role', exact: true }).click();
    await owner.page.getByRole('option', { name: 'Campaign manager' }).click();
    await invite.getByRole('combobox', { name: 'Groups', exact: true }).click();
    await owner.page.getByRole('option', { name: /Sales/ }).click();
    await invite.getByLabel('Email').click();
    await invite.getByRole('button', { name: 'Create invitation' }).click();
    const link = await owner.page.getByLabel('Invitation link').inputValue();
    await owner.page.getByRole('button', { name: 'Done' }).click();
    await owner.page
      .getByRole('table', { name: 'Pending invitations' })
      .getByText('Campaign manager')
      .waitFor();

    const { page } = await vigil.newPage(DESKTOP);
    await page.goto(link);
    await page.getByLabel('Password').fill('a long manager password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL((url) => !url.pathname.includes('/invite/'));

    const nav = page.getByRole('navigation');
    await nav.getByRole('link', { name: 'Campaigns' }).waitFor();
    for (const hidden of ['Integrations', 'Administrators', 'Reports', 'Settings', 'Audit log']) {
      expect(await nav.getByRole('link', { name: hidden }).count(), hidden).toBe(0);
    }
    expect(await page.getByRole('button', { name: 'Integration', exact: true }).count()).toBe(0);

    await page.goto(`/admin/a/${accountId}/campaigns`);
    await page.getByRole('link', { name: 'Sales training' }).waitFor();
    expect(await page.getByText('Support training').count()).toBe(0);

    // The launched campaign's results: Ana, not Dee (who left Sales after the launch); the owner sees both.
    await page.goto(`/admin/a/${accountId}/campaigns/${launched.id}`);
    const people = page.getByRole('table', { name: 'People in this campaign' });
    await people.getByText('ana@scoped.example').waitFor();
    expect(await people.getByText('dee@scoped.example').count()).toBe(0);
    await page.getByText('These figures count the people of your groups only.').waitFor();
    mkdirSync(OUT, { recursive: true });
    await dismissNotices(page);
    await page.screenshot({ path: `${OUT}/roles-scoped-results-desktop.png`, fullPage: true });
    await owner.page.goto(`/admin/a/${accountId}/campaigns/${launched.id}`);
    await owner.page
      .getByRole('table', { name: 'People in this campaign' })
      .getByText('dee@scoped.example')
      .waitFor();

    await page.goto(`/admin/a/${accountId}/employees`);
    await page.getByText('ana@scoped.example').waitFor();
    expect(await page.getByText('bo@scoped.example').count()).toBe(0);

    await page.goto(`/admin/a/${accountId}/groups`);
    await page.getByRole('link', { name: 'Sales' }).waitFor();
    expect(await page.getByRole('link', { name: 'Support' }).count()).toBe(0);

    // The owner's page shows the role and the scope, with the controls to change them.
    mkdirSync(OUT, { recursive: true });
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const shot = await signedInPage(vigil, { accountId }, { viewport, at: `/admin/a/${accountId}/admins` });
      const table = shot.page.getByRole('table', { name: 'Account administrators' });
      await table.getByText('manager@scoped.example').waitFor();
      await table.getByText('Campaign manager').waitFor();
      if (name === 'desktop') await table.getByText('Sales', { exact: true }).waitFor();
      await dismissNotices(shot.page);
      await shot.page.screenshot({ path: `${OUT}/roles-administrators-${name}.png`, fullPage: true });
      if (name === 'desktop') {
        await shot.page.getByRole('button', { name: 'Change the role of manager@scoped.example' }).click();
        const dialog = shot.page.getByRole('dialog', { name: 'Change role' });
        await dialog.getByRole('combobox', { name: 'Role', exact: true }).waitFor();
        await shot.page.screenshot({ path: `${OUT}/roles-change-role-${name}.png` });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
      }
      await shot.context.close();
    }
  });
});
