import { mkdirSync } from 'node:fs';
import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, DESKTOP, PHONE, startVigil, type Vigil } from './harness.js';

// Two-step sign-in in Chromium: an authenticator app (codes computed here with otplib, as the
// app would) and a passkey on Chromium's virtual authenticator (DevTools protocol). The browser
// reaches the server as `localhost`: WebAuthn takes a host name, not an address, as its party.

// The documentation's pictures of these pages come from screenshots.test.ts (`npm run
// screenshots`); this file's own go to the ignored folder, to look at.
const OUT = 'test/browser/.screens';
let vigil: Vigil;
let accountId: number;
const PASSWORD = 'a long browser password';

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  vigil = await startVigil({ SIGN_IN_LIMIT_PER_EMAIL: '50' });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Two Steps Ltd')).id as number;
});

async function newAdmin(
  account = accountId,
  email = `mfa-${Math.random().toString(36).slice(2, 10)}@example.com`,
): Promise<string> {
  await vigil.vigil(
    'admin',
    'create',
    '--email',
    email,
    '--password',
    PASSWORD,
    '--account',
    String(account),
  );
  return email;
}

async function localhostPage(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await vigil.browser.newContext({
    viewport,
    baseURL: vigil.baseUrl.replace('127.0.0.1', 'localhost'),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/admin/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL('**/admin/sign-in');
}

const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

describe('two-step sign-in', () => {
  it('enrols an authenticator app from its QR code page, then signs in with a code, and with a recovery code', async () => {
    const email = await newAdmin();
    const { context, page } = await localhostPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await signInWithPassword(page, email);
    await page.waitForURL(`**/admin/a/${accountId}`);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign-in security' }).click();
    await page.getByRole('heading', { name: 'Sign-in security' }).waitFor();
    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
    await dialog.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = await dialog.getByLabel('Key').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await dialog.getByLabel('Name').fill('Work phone');
    await dialog.getByLabel('Code from the app').fill('000000');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('That is not the current code').waitFor();
    await dialog.getByLabel('Code from the app').fill(await codeAt(secret, -1));
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    const codesDialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await codesDialog.waitFor();
    const codes = (await codesDialog.locator('code').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Work phone').waitFor();
    await page.getByText('10 of 10 left').waitFor();

    // Signing in now asks for a code after the password.
    await signOut(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/admin/sign-in/verify**');
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    // Nothing else opens before it.
    await page.goto(`/admin/a/${accountId}/employees`);
    await page.waitForURL('**/admin/sign-in/verify**');
    await page.getByLabel('Code from your authenticator app').fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code or passkey did not work').waitFor();
    await page.getByLabel('Code from your authenticator app').fill(await codeAt(secret, 0));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`**/admin/a/${accountId}/employees`);

    // A recovery code works once.
    await signOut(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/admin/sign-in/verify**');
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`**/admin/a/${accountId}`);
    await page.goto('/admin/security');
    await page.getByText('9 of 10 left').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds a passkey on the virtual authenticator, then signs in with it', async () => {
    const email = await newAdmin();
    const { context, page } = await localhostPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await signInWithPassword(page, email);
    await page.waitForURL(`**/admin/a/${accountId}`);
    await page.goto('/admin/security');
    await page.getByRole('button', { name: 'Add a passkey or security key' }).click();
    const codesDialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await codesDialog.waitFor();
    await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Passkey or security key ·').waitFor();

    await signOut(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/admin/sign-in/verify**');
    await page.getByRole('button', { name: 'Use a passkey or security key' }).click();
    await page.waitForURL(`**/admin/a/${accountId}`);
    await page.getByRole('heading', { name: 'Two Steps Ltd' }).waitFor();
    await context.close();
  });
});

describe('MFA required by the account', () => {
  it('takes an administrator without a factor to enrolment, keeps them there, then into the app once enrolled', async () => {
    const strict = (await vigil.vigil('account', 'create', '--name', 'Strict Ltd')).id as number;
    const owner = await newAdmin(strict);
    // A fixed address: the screenshots stay the same from one run to the next.
    const colleague = await newAdmin(strict, 'dana@strict.example');

    // The owner requires a second factor of everyone on the account's settings page.
    const { context: ownerContext, page: ownerPage } = await localhostPage();
    await signInWithPassword(ownerPage, owner);
    await ownerPage.waitForURL(`**/admin/a/${strict}`);
    await ownerPage.goto(`/admin/a/${strict}/settings`);
    const requirement = ownerPage.getByRole('switch', {
      name: 'Require a second factor of every administrator',
    });
    await requirement.click();
    await expect.poll(() => requirement.isChecked()).toBe(true);
    // And invites someone, whose link will lead to enrolment too.
    await ownerPage.goto(`/admin/a/${strict}/admins`);
    await ownerPage.getByRole('button', { name: 'Invite administrator' }).click();
    const invite = ownerPage.getByRole('dialog', { name: 'Invite an administrator' });
    await invite.getByLabel('Email').fill('ivy@strict.example');
    await invite.getByRole('button', { name: 'Create invitation' }).click();
    const link = await ownerPage.getByLabel('Invitation link').inputValue();
    await ownerContext.close();

    // The colleague signs in with the password and is taken to enrolment.
    const { context, page } = await localhostPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await signInWithPassword(page, colleague);
    await page.waitForURL('**/admin/sign-in/enrol**');
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await page.getByText('Your organisation requires a second factor to sign in.').waitFor();
    await page.getByText(`Signed in as ${colleague}`).waitFor();
    expect(await accessibilityProblems(page, 'mfa-required-enrol')).toEqual([]);
    await page.screenshot({ path: `${OUT}/mfa-required-enrol.png` });

    // Anywhere else leads back to enrolment before a factor is added.
    for (const elsewhere of [
      `/admin/a/${strict}/employees`,
      '/admin/security',
      `/admin/a/${strict}/settings`,
    ]) {
      await page.goto(elsewhere);
      await page.waitForURL('**/admin/sign-in/enrol**');
      await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    }

    // The same page on a phone (another sign-in, also waiting for enrolment).
    const phone = await localhostPage(PHONE);
    await signInWithPassword(phone.page, colleague);
    await phone.page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await phone.page.getByRole('button', { name: 'Add an authenticator app' }).waitFor();
    expect(await accessibilityProblems(phone.page, 'mfa-required-enrol-phone')).toEqual([]);
    await phone.page.screenshot({ path: `${OUT}/mfa-required-enrol-phone.png` });
    await phone.context.close();

    // Enrol an authenticator app: its code computed here as the app would.
    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
    await dialog.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = await dialog.getByLabel('Key').inputValue();
    await dialog.getByLabel('Name').fill('Phone');
    await dialog.getByLabel('Code from the app').fill(await codeAt(secret, 0));
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    // Ten recovery codes, shown once; confirming them lands in the app.
    const codesDialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await codesDialog.waitFor();
    const codes = (await codesDialog.locator('code').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
    // Back where they were going before enrolment (the last page they tried), in the app itself.
    await page.waitForURL(`**/admin/a/${strict}/settings`);
    await page.getByRole('button', { name: 'User menu' }).waitFor();
    await page.goto(`/admin/a/${strict}/employees`);
    await page.getByRole('heading', { name: 'Employees' }).waitFor();
    expect(page.url()).not.toContain('/sign-in/');
    await page.goto('/admin/security');
    await page.getByText('10 of 10 left').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // The invited person chooses a password and is taken to enrolment before anything else.
    const invited = await localhostPage();
    // The link names the server's own address (no PUBLIC_URL here); this browser uses localhost.
    expect(link).toMatch(/\/admin\/invite\/[\w-]+$/);
    await invited.page.goto(new URL(link).pathname);
    await invited.page.getByLabel('Password').fill('a long invited password');
    await invited.page.getByRole('button', { name: 'Set password' }).click();
    await invited.page.waitForURL('**/admin/sign-in/enrol**');
    await invited.page.getByText('Signed in as ivy@strict.example').waitFor();
    await invited.page.goto(`/admin/a/${strict}/employees`);
    await invited.page.waitForURL('**/admin/sign-in/enrol**');
    await invited.page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await invited.context.close();
  });
});
