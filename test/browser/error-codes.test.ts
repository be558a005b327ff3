import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, signedInPage, startVigil, type Vigil } from './harness.js';

// The web interface reacts to the API's error codes: an email_taken on the Email input, an
// account_not_found as its own page, an invalid_csrf_token by fetching a new token and trying
// again, a too_many_sign_ins with the time to wait.

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil({ SIGN_IN_LIMIT_PER_EMAIL: '2' });
});

describe('errors by code in the web interface', () => {
  it('shows email_taken on the Email input and account_not_found as a page', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Codes Ltd')).id as number;
    const api = await customerApi(vigil, accountId);
    await api.post('employees/', { first_name: 'Ann', last_name: 'Lee', email: 'ann@codes.example' });

    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/employees` },
    );
    await page.getByRole('button', { name: 'Add employee' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add employee' });
    await dialog.getByLabel('First name').fill('Annie');
    await dialog.getByLabel('Last name').fill('Lee');
    await dialog.getByLabel('Email').fill('ANN@codes.example');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Check the highlighted field.').waitFor();
    const email = dialog.getByLabel('Email');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const described = (await email.getAttribute('aria-describedby')) ?? '';
    const messages = await Promise.all(
      described
        .split(' ')
        .filter(Boolean)
        .map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    expect(messages).toContain('Email already exists');

    await page.goto(`/admin/a/${accountId + 1000}/employees`);
    await page.getByRole('heading', { name: 'Account not found' }).waitFor();
    await page.getByText('This account does not exist or is not yours').waitFor();
    await context.close();
  });

  it('fetches a new CSRF token when the server says the one it sent is invalid, and saves', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Tokens Ltd')).id as number;
    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/groups` },
    );
    await page.getByText('No groups yet').waitFor();
    // Without its secret cookie the token the page holds is refused: 403 invalid_csrf_token.
    await context.clearCookies({ name: 'vigil_csrf' });
    const answers: number[] = [];
    page.on('response', (res) => {
      if (res.request().method() === 'POST' && res.url().endsWith('/groups')) answers.push(res.status());
    });
    await page.getByRole('button', { name: 'New group' }).first().click();
    const form = page.getByRole('dialog', { name: 'New group' });
    await form.getByLabel('Name').fill('After a new token');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page
      .getByRole('table', { name: 'Groups' })
      .getByRole('link', { name: 'After a new token' })
      .waitFor();
    expect(answers).toEqual([403, 201]);
    await context.close();
  });

  it('tells how long to wait after too_many_sign_ins, and says so only for that code', async () => {
    const { page, context } = await vigil.newPage();
    await page.goto('/admin/sign-in');
    await page.getByLabel('Email').fill('nobody@codes.example');
    for (let i = 0; i < 2; i++) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong password number ${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Invalid email or password.').waitFor();
    }
    await page.getByLabel('Password', { exact: true }).fill('wrong password number 3');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/^Too many sign-in attempts\. Try again in \d+ (seconds|minutes)\.$/).waitFor();
    expect(await page.getByText('Invalid email or password.').count()).toBe(0);
    await context.close();
  });
});
