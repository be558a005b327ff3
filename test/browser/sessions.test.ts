import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  DESKTOP,
  dismissNotices,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

/**
 * Issue 23, item 5: each administrator sees where they are signed in and ends any session; an
 * owner ends a colleague's sessions and disables them, which signs them out at once and refuses
 * their next sign-in. Screenshots: sessions*.png, administrators-sessions.png.
 */
const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';

let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
});

describe('sessions', () => {
  it('lists your sessions and ends the one on your other device, which is signed out', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Sessions Ltd');
    const accountId = account.id as number;
    const laptop = await signedInPage(vigil, { accountId }, { newAdmin: true, viewport: DESKTOP });
    // The same administrator on a phone: a second browser profile signing in through the form.
    const phone = await vigil.newPage(PHONE);
    await phone.page.goto('/admin/sign-in');
    await phone.page.getByLabel('Email').fill(laptop.email);
    await phone.page.getByLabel('Password', { exact: true }).fill('a long browser password');
    await phone.page.getByRole('button', { name: 'Sign in' }).click();
    await phone.page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));

    await laptop.page.getByRole('button', { name: 'User menu' }).click();
    await laptop.page.getByRole('menuitem', { name: 'Your sessions' }).click();
    await laptop.page.getByRole('heading', { name: 'Your sessions' }).waitFor();
    const table = laptop.page.getByRole('table', { name: 'Your sessions' });
    await table.getByText('This browser').waitFor();
    expect(await table.getByRole('row').count()).toBe(3); // the header and two sessions
    expect(await table.getByText('Chrome').count()).toBe(2);
    await laptop.page.screenshot({ path: `${OUT}/sessions.png` });
    expect(await accessibilityProblems(laptop.page, 'sessions')).toEqual([]);

    await table.getByRole('button', { name: /^End the session on / }).click();
    await laptop.page.getByText(/The session on .* has ended/).waitFor();
    await dismissNotices(laptop.page);
    expect(await table.getByRole('row').count()).toBe(2);

    // The phone's next request finds no session: it is sent to the sign-in page.
    await phone.page.goto('/admin/sessions');
    await phone.page.waitForURL((url) => url.pathname.endsWith('/sign-in'));

    // On a phone, the page reads in one column.
    const small = await signedInPage(vigil, { accountId }, { viewport: PHONE, at: '/admin/sessions' });
    await small.page.getByRole('heading', { name: 'Your sessions' }).waitFor();
    await small.page.getByText('This browser').waitFor();
    await small.page.screenshot({ path: `${OUT}/sessions-phone.png` });
  });

  it('lets an owner end a colleague’s sessions and disable them: signed out now, refused at sign-in', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Disable Ltd');
    const accountId = account.id as number;
    const owner = await signedInPage(
      vigil,
      { accountId },
      { newAdmin: true, at: `/admin/a/${accountId}/admins` },
    );
    const colleague = await signedInPage(vigil, { accountId }, { newAdmin: true });

    await owner.page.reload();
    await owner.page.getByRole('button', { name: `Sessions of ${colleague.email}` }).click();
    const dialog = owner.page.getByRole('dialog', { name: `Sessions of ${colleague.email}` });
    await dialog.getByRole('table').getByText('Password').waitFor();
    await owner.page.screenshot({ path: `${OUT}/administrators-sessions.png`, animations: 'disabled' });
    await owner.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await owner.page.getByRole('button', { name: `Disable ${colleague.email}` }).click();
    await owner.page.getByText(`${colleague.email} is disabled and signed out everywhere`).waitFor();
    await owner.page.getByRole('button', { name: `Enable ${colleague.email}` }).waitFor();
    await owner.page.getByText('Disabled', { exact: true }).waitFor();

    await colleague.page.reload();
    await colleague.page.waitForURL((url) => url.pathname.endsWith('/sign-in'));
    await colleague.page.getByLabel('Email').fill(colleague.email);
    await colleague.page.getByLabel('Password', { exact: true }).fill('a long browser password');
    await colleague.page.getByRole('button', { name: 'Sign in' }).click();
    await colleague.page.getByText('This administrator is disabled').waitFor();
  });
});
