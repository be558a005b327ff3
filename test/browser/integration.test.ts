import { beforeAll, describe, expect, it } from 'vitest';
import { signedInPage, startVigil, type Vigil } from './harness.js';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
});

const customerGet = (key: string, path: string) =>
  fetch(`${vigil.baseUrl}/api/api_gateway/customer/${path}`, { headers: { apiKey: key } });

describe('the Integration area', () => {
  it('creates a key that is shown once, works against the Customer API, and stops working when revoked', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Acme');
    const { page, context } = await signedInPage(vigil, { accountId: account.id as number });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);

    await page.getByRole('button', { name: 'Integration' }).click();
    await page.getByRole('heading', { name: 'Integration' }).waitFor();
    await page.getByText('No API keys yet').waitFor();

    await page.getByRole('button', { name: 'New API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Name').fill('HR sync');
    await dialog.getByRole('button', { name: 'Generate Key' }).click();
    await dialog.getByText('Choose at least one permission').waitFor();
    await dialog.getByLabel('groups read').check();
    await dialog.getByLabel('employees read').check();
    await dialog.getByRole('button', { name: 'Generate Key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('It cannot be shown again').waitFor();
    const key = await shown.getByLabel('API key').inputValue();
    expect(key).toMatch(/^vgl_[0-9A-Za-z]{40}$/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    // The list shows the key by name and prefix, never the secret.
    const table = page.getByRole('table', { name: 'API keys' });
    await table.getByText('HR sync').waitFor();
    await table.getByText(key.slice(0, 12)).waitFor();
    expect(await page.content()).not.toContain(key);

    expect((await customerGet(key, 'groups/')).status).toBe(200);
    expect((await customerGet(key, 'campaigns/training/')).status).toBe(403);

    await table.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API key?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await table.getByText('Revoked').waitFor();
    const refused = await customerGet(key, 'groups/');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'Invalid API key', status: 401 });
    await context.close();
  });

  it('makes a report button’s key: Phishing reports written alone, and such a key reads nothing', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Report Co');
    const { page, context } = await signedInPage(vigil, { accountId: account.id as number });
    await page.getByRole('button', { name: 'Integration' }).click();
    await page.getByRole('button', { name: 'New API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel('Name').fill('Report button');
    await dialog.getByText('Phishing reports', { exact: true }).waitFor();
    // Read is the triage inbox's (a SIEM's key); a report button's key holds write alone.
    expect(await dialog.getByRole('switch', { name: 'reports read' }).isChecked()).toBe(false);
    await dialog.getByLabel('reports write').check();
    await dialog.getByRole('button', { name: 'Generate Key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const key = await shown.getByLabel('API key').inputValue();
    await shown.getByRole('button', { name: 'Done' }).click();
    const table = page.getByRole('table', { name: 'API keys' });
    await table.getByText('reports: write').waitFor();
    expect((await customerGet(key, 'groups/')).status).toBe(403);
    expect((await customerGet(key, 'campaigns/phishing/')).status).toBe(403);
    await context.close();
  });

  it('makes a report key for the Outlook add-in: shown once with its manifests to download and the steps to deploy them, listed, and revoked', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Button Co');
    const { page, context } = await signedInPage(vigil, { accountId: account.id as number });
    await page.getByRole('button', { name: 'Integration' }).click();
    const section = page.getByRole('region', { name: 'Report button' });
    await section.getByText('No report keys yet').waitFor();
    await section.getByRole('button', { name: 'Create Report Key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new report key' });
    const key = await shown.getByLabel('Report key').inputValue();
    expect(key).toMatch(/^vgl_[0-9A-Za-z]{40}$/);
    await shown.getByText('Integrated apps').waitFor();
    await shown.getByText('up to 24 hours').waitFor();
    const xmlLink = shown.getByRole('link', { name: 'Download XML manifest' });
    const zipLink = shown.getByRole('link', { name: 'Download unified manifest' });
    expect(await xmlLink.getAttribute('href')).toBe(`/addins/outlook/manifest.xml?key=${key}`);
    expect(await zipLink.getAttribute('href')).toBe(`/addins/outlook/package.zip?key=${key}`);
    const download = page.waitForEvent('download');
    await xmlLink.click();
    const manifest = await (await download).createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of manifest) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toContain(`/addins/outlook/taskpane.html?key=${key}`);
    await page.screenshot({ path: 'test/browser/.screens/report-key-created.png' });
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const table = page.getByRole('table', { name: 'Report keys' });
    await table.getByText(key.slice(0, 12)).waitFor();
    await table.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke report key?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await table.getByText('Revoked').waitFor();
    const refused = await fetch(`${vigil.baseUrl}/addins/outlook/manifest.xml?key=${key}`);
    expect(refused.status).toBe(404);
    await context.close();
  });

  it("lets an operator raise a key's rate budget; an account administrator has no such control", async () => {
    const account = (await vigil.vigil('account', 'create', '--name', 'Budget Co')).id as number;
    const created = await vigil.vigil(
      'key',
      'create',
      '--account',
      String(account),
      '--name',
      'Nightly',
      '--grant',
      'groups:r',
    );
    const admin = await signedInPage(
      vigil,
      { accountId: account },
      { at: `/admin/a/${account}/integration` },
    );
    await admin.page.getByRole('table', { name: 'API keys' }).getByText('Nightly').waitFor();
    expect(await admin.page.getByRole('button', { name: 'Change rate budget of Nightly' }).count()).toBe(0);
    await admin.context.close();

    const operator = await signedInPage(vigil, { operator: true }, { at: `/admin/a/${account}/integration` });
    await operator.page.getByRole('button', { name: 'Change rate budget of Nightly' }).click();
    const dialog = operator.page.getByRole('dialog', { name: 'Change rate budget' });
    await dialog.getByLabel('Requests per minute').fill('5000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await operator.page.getByRole('table', { name: 'API keys' }).getByText('5,000').waitFor();
    const res = await customerGet(created.key as string, 'groups/');
    expect(res.headers.get('ratelimit-limit')).toBe('5000');
    await operator.context.close();
  });

  it('makes a SCIM token shown once that provisions a user, shows the base URL, and stops working when revoked', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Okta Co');
    const { page, context } = await signedInPage(
      vigil,
      { accountId: account.id as number },
      { at: `/admin/a/${account.id}/integration` },
    );
    await page.getByRole('heading', { name: 'SCIM provisioning' }).waitFor();
    await page.getByText(`${vigil.baseUrl}/scim/v2`).waitFor();
    await page.getByText('No SCIM tokens yet').waitFor();

    await page.getByRole('button', { name: 'New SCIM Token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New SCIM token' });
    await dialog.getByLabel('Name').fill('Okta');
    await dialog.getByRole('button', { name: 'Generate Token' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new SCIM token' });
    const token = await shown.getByLabel('SCIM token').inputValue();
    expect(token).toMatch(/^vgs_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    const table = page.getByRole('table', { name: 'SCIM tokens' });
    await table.getByText('Okta').waitFor();
    expect(await page.content()).not.toContain(token);

    const scim = (method: string, path: string, body?: unknown) =>
      fetch(`${vigil.baseUrl}/scim/v2/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const created = await scim('POST', 'Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'ann.lee@example.com',
      name: { givenName: 'Ann', familyName: 'Lee' },
      emails: [{ type: 'work', value: 'ann.lee@example.com', primary: true }],
      active: true,
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { id: string };
    expect(
      (
        await scim('PATCH', `Users/${user.id}`, {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
        })
      ).status,
    ).toBe(200);
    // The administrator sees the provisioned, deactivated person.
    await page.goto(`/admin/a/${account.id}/employees`);
    await page.getByText('ann.lee@example.com').waitFor();
    await page.getByText('Inactive').first().waitFor();

    await page.goto(`/admin/a/${account.id}/integration`);
    await page.getByRole('table', { name: 'SCIM tokens' }).getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke SCIM token?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.getByRole('table', { name: 'SCIM tokens' }).getByText('Revoked').waitFor();
    expect((await scim('GET', 'Users')).status).toBe(401);
    await context.close();
  });
});
