import { beforeAll, describe, expect, it } from 'vitest';
import { startVigil, type Vigil } from './harness.js';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
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
});
