import { beforeAll, describe, expect, it } from 'vitest';
import { signedInPage, startVigil, type Vigil } from './harness.js';

let vigil: Vigil;
beforeAll(async () => {
  // One administrator signs in a dozen times below.
  vigil = await startVigil({ SIGN_IN_LIMIT_PER_EMAIL: '50' });
});

describe('first run and sign-in', () => {
  it('sets up the first operator from the printed link, signs out, and signs in again', async () => {
    const { page, context } = await vigil.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    await page.goto(vigil.setupUrl);
    await page.getByRole('heading', { name: 'Set up Vigil' }).waitFor();
    await page.getByLabel('Email').fill('operator@example.com');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('must be at least 12 characters').waitFor();

    await page.getByLabel('Password', { exact: true }).fill('a long operator password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/admin/accounts');
    await page.getByRole('heading', { name: 'Accounts' }).waitFor();

    // The link was single-use.
    const again = await context.newPage();
    await again.goto(vigil.setupUrl);
    await again.getByText(/not valid or has expired/).waitFor();
    await again.close();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL('**/admin/sign-in');

    await page.goto('/admin/accounts');
    await page.waitForURL('**/admin/sign-in**');
    await page.getByLabel('Email').fill('operator@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong password entirely');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid email or password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('a long operator password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin/accounts');

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'vigil_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/admin' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('changes the password from the user menu, and an operator removes an administrator', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Keys & Locks')).id as number;
    const admin = await signedInPage(vigil, { accountId }, { newAdmin: true });
    await admin.page.getByRole('button', { name: 'User menu' }).click();
    await admin.page.getByRole('menuitem', { name: 'Change password' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel('Current password', { exact: true }).fill('not my password');
    await dialog.getByLabel('New password', { exact: true }).fill('my new long password');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByText('is not your current password').waitFor();
    await dialog.getByLabel('Current password', { exact: true }).fill('a long browser password');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.waitFor({ state: 'detached' });

    await admin.page.getByRole('button', { name: 'User menu' }).click();
    await admin.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await admin.page.waitForURL('**/admin/sign-in');
    await admin.page.getByLabel('Email').fill(admin.email);
    await admin.page.getByLabel('Password', { exact: true }).fill('my new long password');
    await admin.page.getByRole('button', { name: 'Sign in' }).click();
    await admin.page.waitForURL(`**/admin/a/${accountId}`);

    // Another owner first: an account keeps an enabled owner, so its last one cannot be removed.
    await vigil.vigil(
      'admin',
      'create',
      '--email',
      `second-owner-${accountId}@example.com`,
      '--password',
      'a long browser password',
      '--account',
      String(accountId),
    );
    const operator = await signedInPage(vigil, { operator: true }, { at: `/admin/a/${accountId}/admins` });
    await operator.page.getByRole('button', { name: `Remove ${admin.email}` }).click();
    await operator.page
      .getByRole('dialog', { name: 'Remove administrator?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await operator.page
      .getByRole('table', { name: 'Account administrators' })
      .getByText(admin.email)
      .waitFor({ state: 'detached' });

    // The removed administrator's open page finds its session gone at the next request.
    await admin.page.reload();
    await admin.page.waitForURL('**/admin/sign-in**');
    await operator.context.close();
    await admin.context.close();
  });

  it('goes home after sign-in when `next` points elsewhere, and follows a `next` to a page of the app', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Next Steps')).id as number;
    const email = 'next.steps@example.com';
    const password = 'a long browser password';
    await vigil.vigil(
      'admin',
      'create',
      '--email',
      email,
      '--password',
      password,
      '--account',
      String(accountId),
    );
    const { page, context } = await vigil.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const landing = async (next: string) => {
      await context.clearCookies();
      await page.goto(`/admin/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'), { timeout: 10_000 });
      await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
      const url = new URL(page.url());
      return `${url.origin === vigil.baseUrl ? '' : url.origin}${url.pathname}${url.search}`;
    };
    const home = `/admin/a/${accountId}`;
    for (const next of [
      'https://evil.example/admin/accounts',
      '//evil.example',
      '//evil.example/admin/',
      '/\\evil.example',
      'javascript:alert(document.domain)',
      '/learn/abc',
      '/api/api_gateway/docs',
      '/admin/api/session',
      '/sign-in',
      `/sign-in?next=${encodeURIComponent(`/a/${accountId}`)}`,
      '/setup/some-token',
      `/a/${accountId}/../../sign-in`,
    ]) {
      expect(await landing(next), next).toBe(home);
    }
    expect(await landing(`/a/${accountId}/employees?search=ann`)).toBe(`${home}/employees?search=ann`);
    expect(await landing(`/admin/a/${accountId}/groups`)).toBe(`${home}/groups`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
