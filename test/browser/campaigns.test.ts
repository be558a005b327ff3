import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, dismissNotices, signedInPage, startVigil, type Vigil } from './harness.js';

const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';

// No SMTP_URL: the server's mail worker delivers to the outbox, which the page shows.
let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
});

/** A `datetime-local` value `days` from now, in the time zone the browser shares with this process. */
function localInput(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:00`;
}

/** Waits (bounded) until `check` holds, reading the page again between tries. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Picks options of a Mantine multi-select by their visible names. */
async function choose(page: Page, label: string, options: string[], typed?: string) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  for (const option of options) {
    await input.click();
    if (typed) await input.fill(typed);
    await page.getByRole('option', { name: option }).click();
  }
  await page.keyboard.press('Escape');
}

/** The value of a stat card ("Enrolled" → "3") in the progress view. */
async function stat(page: Page, label: string): Promise<string> {
  const term = page.locator('dt', { hasText: new RegExp(`^${label}$`) });
  return (await term.locator('xpath=following-sibling::dd[1]/span[1]').textContent()) ?? '';
}

/** The campaign's status in the page header (a live region). */
async function status(page: Page): Promise<string> {
  const header = page.getByRole('main').getByRole('status').first();
  await header.waitFor();
  return (await header.textContent()) ?? '';
}

async function peopleIn(accountId: number, names: [string, string][], group: string) {
  const api = await customerApi(vigil, accountId);
  const ids: number[] = [];
  for (const [first, last] of names) {
    const created = await api.post('employees/', {
      first_name: first,
      last_name: last,
      email: `${first.toLowerCase()}@training.example`,
    });
    ids.push(created.body.id);
  }
  const g = await vigil.vigil('group', 'create', '--account', String(accountId), '--name', group);
  await api.put(`groups/${g.id}/`, { employee_ids: ids });
  return { api, groupId: g.id as number };
}

describe('training campaigns in the web interface', () => {
  it('creates, validates, schedules, launches, follows, exports, stops and archives a campaign', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Training Ltd')).id as number;
    const { api } = await peopleIn(
      accountId,
      [
        ['Ann', 'Lee'],
        ['Bo', 'Chen'],
        ['Cy', 'Diaz'],
      ],
      'Finance',
    );
    const { page, context } = await signedInPage(vigil, { accountId });
    await page.getByRole('navigation').getByRole('link', { name: 'Campaigns' }).click();
    await page.getByText('No training campaigns yet').waitFor();

    // Create: two courses, one group found by searching.
    await page.getByRole('button', { name: 'New campaign', exact: true }).click();
    await page.getByRole('heading', { name: 'New campaign' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Phishing basics');
    await choose(page, 'Courses', ['Spotting phishing', 'Passwords and multi-factor authentication']);
    await choose(page, 'Target groups', ['Finance'], 'Fin');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Phishing basics' }).waitFor();
    await dismissNotices(page);
    const campaignId = Number(page.url().split('/').pop());
    expect(campaignId).toBeGreaterThan(0);
    expect(await status(page)).toBe('Draft');
    await page.getByRole('link', { name: 'Spotting phishing' }).waitFor();
    await page.getByRole('link', { name: 'Finance' }).waitFor();

    // Launching without a due date: the server's reason shows in the dialog.
    await page.getByRole('button', { name: 'Launch now' }).click();
    let dialog = page.getByRole('dialog', { name: 'Launch the campaign now?' });
    await dialog.getByText('3 people in Finance will be enrolled and sent an invitation.').waitFor();
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    await dialog.getByText('Due date: is required to launch').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A field the server refuses shows its message on the input.
    await page.getByRole('button', { name: 'Edit campaign' }).click();
    await page.getByRole('heading', { name: 'Edit Phishing basics' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('must not be empty').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Phishing basics');
    await page.getByLabel('Start date').fill(localInput(2));
    await page.getByLabel('Due date').fill(localInput(14));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Phishing basics', exact: true }).waitFor();
    await dismissNotices(page);

    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByRole('button', { name: 'Unschedule' }).waitFor();
    expect(await status(page)).toBe('Scheduled');
    await page.getByRole('button', { name: 'Unschedule' }).click();
    await page.getByRole('button', { name: 'Schedule', exact: true }).waitFor();
    expect(await status(page)).toBe('Draft');

    await page.getByRole('button', { name: 'Launch now' }).click();
    dialog = page.getByRole('dialog', { name: 'Launch the campaign now?' });
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Stop campaign' }).waitFor();
    expect(await status(page)).toBe('Active');
    await page.getByRole('heading', { name: 'Progress' }).waitFor();
    expect(await stat(page, 'Enrolled')).toBe('3');
    expect(await stat(page, 'Completed')).toBe('0 / 3');
    expect(await stat(page, 'Not started')).toBe('3');
    // The page's figures are the API's.
    const seen = await (await customerApi(vigil, accountId, ['campaigns:r'])).get(
      `campaigns/training/${campaignId}/`,
    );
    expect(seen.body).toMatchObject({ enrolled_count: 3, completed_count: 0, completion_rate: 0 });

    // The people table: filtered by status on the server.
    const people = page.getByRole('table', { name: 'People in this campaign' });
    await people.getByText('ann@training.example').waitFor();
    expect(await people.locator('tbody tr').count()).toBe(3);
    await page.getByLabel('Status', { exact: true }).selectOption('completed');
    await page.getByText('Nobody matches').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('not_started');
    await people.getByText('cy@training.example').waitFor();
    await page.getByLabel('Search people').fill('bo@');
    await people.getByText('ann@training.example').waitFor({ state: 'detached' });
    expect(await people.locator('tbody tr').count()).toBe(1);

    // The CSV export is a plain link, downloaded with the session.
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const csv = await page.request.get(href ?? '');
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(4);
    for (const who of ['ann', 'bo', 'cy'])
      expect(lines.some((l) => l.includes(`${who}@training.example`))).toBe(true);

    // The invitations in the outbox: sent by the server's worker, kept here without SMTP.
    await page.getByRole('navigation').getByRole('link', { name: 'Outbox' }).click();
    await page.getByText('No SMTP server configured: messages are kept here').waitFor();
    const messages = page.getByRole('table', { name: 'Messages' });
    await eventually(
      async () => (await messages.locator('tbody tr').filter({ hasText: /Sent/ }).count()) === 3,
      'three invitations are sent',
    );
    const row = messages.locator('tbody tr').filter({ hasText: 'ann@training.example' });
    // Named for employees by its courses, never by the campaign's name.
    await row
      .getByRole('button', {
        name: 'Your security training: Spotting phishing and Passwords and multi-factor authentication',
      })
      .click();
    dialog = page.getByRole('dialog', {
      name: 'Your security training: Spotting phishing and Passwords and multi-factor authentication',
    });
    await dialog.getByText('Ann Lee <ann@training.example>').waitFor();
    // The HTML body: a frame without scripts, whose learner link opens in a new, ordinary tab.
    const frame = dialog.locator('iframe[title="HTML body of the message"]');
    expect(((await frame.getAttribute('sandbox')) ?? '').split(/\s+/).sort()).toEqual([
      'allow-popups',
      'allow-popups-to-escape-sandbox',
    ]);
    const start = dialog
      .frameLocator('iframe[title="HTML body of the message"]')
      .getByRole('link', { name: 'Start the training' });
    // The dialog slides in: a click inside the frame lands where the link will be only once it has
    // stopped (Playwright sees the link still within its frame), so wait for the frame to be still.
    await frame.click({ trial: true });
    const [tab] = await Promise.all([context.waitForEvent('page'), start.click()]);
    await tab.getByRole('heading', { name: 'Your security training' }).waitFor();
    expect(new URL(tab.url()).pathname).toMatch(/^\/learn\/[^/]+$/);
    await tab.screenshot({ path: `${OUT}/outbox-link-new-tab.png` });
    await tab.close();
    await start.waitFor(); // the frame still shows the message
    await page.screenshot({ path: `${OUT}/outbox-message-preview.png` });
    await dialog.getByRole('tab', { name: 'Plain text' }).click();
    const text = (await dialog.locator('pre').textContent()) ?? '';
    expect(text).toMatch(/https?:\/\/\S+\/learn\/\S+/);
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });

    // Ann says she lost the mail: send her invitation again from the people table.
    await messages.getByRole('link', { name: 'Phishing basics' }).first().click();
    await page.getByRole('button', { name: 'Resend invitation to Ann Lee' }).click();
    await page.getByText('A new invitation to Ann Lee is on its way').waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Outbox' }).click();
    await eventually(
      async () =>
        (await messages
          .locator('tbody tr')
          .filter({ hasText: 'ann@training.example' })
          .filter({ hasText: /Sent/ })
          .count()) === 2,
      'Ann’s second invitation is sent',
    );

    // Stop, then archive: each button only while the status allows it.
    await messages.getByRole('link', { name: 'Phishing basics' }).first().click();
    await page.getByRole('button', { name: 'Stop campaign' }).click();
    dialog = page.getByRole('dialog', { name: 'Stop the campaign?' });
    await dialog.getByRole('button', { name: 'Stop campaign' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
    expect(await status(page)).toBe('Completed');
    expect(await page.getByRole('button', { name: 'Launch now' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor({ state: 'detached' });
    expect(await status(page)).toBe('Archived');

    // The list filters by status.
    await page.getByRole('link', { name: 'Training campaigns' }).click();
    const list = page.getByRole('table', { name: 'Training campaigns' });
    await list.getByRole('link', { name: 'Phishing basics' }).waitFor();
    // The status filter is a segmented control: its radios are hidden behind their labels.
    const filter = (name: string) => page.getByRole('main').getByText(name, { exact: true }).first();
    await filter('Active').click();
    expect(await page.getByRole('radio', { name: 'Active' }).isChecked()).toBe(true);
    await page.getByText('No active campaigns').waitFor();
    await filter('Archived').click();
    await list.getByRole('link', { name: 'Phishing basics' }).waitFor();
    await list.getByText('0 / 3').waitFor();
    expect((await api.get('employees/')).body.count).toBe(3);
    await context.close();
  });

  it('keeps Schedule and Launch of an empty draft disabled, saying why, and names fields by their labels', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Empty Drafts')).id as number;
    await peopleIn(accountId, [['Eve', 'Ng']], 'Operations');
    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/campaigns/new` },
    );
    await page.getByLabel('Name', { exact: true }).fill('Nothing yet');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Nothing yet' }).waitFor();
    await dismissNotices(page);
    const disabledWith = async (text: string) => {
      const reason = page.getByText(text, { exact: true });
      await reason.waitFor();
      for (const name of ['Schedule', 'Launch now']) {
        const button = page.getByRole('button', { name, exact: true });
        expect(await button.isDisabled(), name).toBe(true);
        expect(await button.getAttribute('aria-describedby')).toBe(await reason.getAttribute('id'));
      }
    };
    await disabledWith(
      'Choose at least one course and at least one target group to schedule or launch this campaign.',
    );
    await page.screenshot({ path: `${OUT}/campaign-empty-draft.png` });

    // A course, still no group: the reason names only what is missing.
    await page.getByRole('link', { name: 'Edit the campaign' }).click();
    await choose(page, 'Courses', ['Spotting phishing']);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Nothing yet', exact: true }).waitFor();
    await dismissNotices(page);
    await disabledWith('Choose at least one target group to schedule or launch this campaign.');

    // Ready but for its dates: Schedule is tried, and the server's reasons name the form's fields.
    await page.getByRole('link', { name: 'Edit the campaign' }).click();
    await choose(page, 'Target groups', ['Operations'], 'Oper');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Nothing yet', exact: true }).waitFor();
    await dismissNotices(page);
    expect(await page.getByText(/to schedule or launch this campaign/).count()).toBe(0);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'Could not schedule the campaign' });
    await problem.getByText('Start date: is required to schedule').waitFor();
    await problem.getByText('Due date: is required to schedule').waitFor();
    expect(await problem.textContent()).not.toMatch(/start date:|due date:|_/);
    await page.screenshot({ path: `${OUT}/campaign-schedule-errors.png` });
    await context.close();
  });

  it('creates, edits and deletes a custom course, and uses it in a campaign', async () => {
    const accountId = (await vigil.vigil('account', 'create', '--name', 'Course Makers')).id as number;
    await peopleIn(accountId, [['Dee', 'Ng']], 'Accounts payable');
    const { page, context } = await signedInPage(vigil, { accountId });
    await page.getByRole('navigation').getByRole('link', { name: 'Courses' }).click();
    const courses = page.getByRole('table', { name: 'Courses' });
    await courses.getByRole('link', { name: 'Spotting phishing' }).waitFor();
    expect(await courses.getByText('Built-in').count()).toBeGreaterThanOrEqual(6);

    await page.getByRole('button', { name: 'New course' }).click();
    await page.getByRole('heading', { name: 'New course' }).waitFor();
    await page.getByLabel('Title', { exact: true }).first().fill('Invoice fraud');
    await page.getByLabel('Summary').fill('Spot a fake supplier invoice before it is paid.');
    await page.getByLabel('Minutes').fill('12');
    await page.getByLabel('Pass mark').fill('75');
    const lesson1 = page.getByRole('group', { name: 'Lesson 1' });
    await lesson1.getByLabel('Title').fill('Changed bank details');
    await lesson1.getByLabel('Text (Markdown)').fill('## Call them back\n\n**Always** use a known number.');
    await lesson1.getByRole('tab', { name: 'Preview' }).click();
    await lesson1.getByRole('heading', { name: 'Call them back' }).waitFor();
    expect(await lesson1.locator('strong').textContent()).toBe('Always');
    await page.getByRole('button', { name: 'Add lesson' }).click();
    const lesson2 = page.getByRole('group', { name: 'Lesson 2' });
    await lesson2.getByLabel('Text (Markdown)').fill('Urgency is a warning sign.');
    const question = page.getByRole('group', { name: 'Question 1' });
    await question
      .getByLabel('Question', { exact: true })
      .fill('A supplier emails new bank details. What do you do?');
    await question.getByLabel('Choice 1', { exact: true }).fill('Pay as asked');
    await question.getByLabel('Choice 2', { exact: true }).fill('Call the supplier on a known number');
    await question.getByRole('button', { name: 'Add choice' }).click();
    await question.getByLabel('Choice 3', { exact: true }).fill('Reply to the email to check');
    await question.getByLabel('Choice 2 is the right answer').check({ force: true });
    await question.getByLabel('Explanation').fill('Only a number you already had proves who you talk to.');

    // The second lesson has no title: the server's message shows on that input.
    await page.getByRole('button', { name: 'Create course' }).click();
    await lesson2.getByText('must not be empty').waitFor();
    await lesson2.getByLabel('Title').fill('Urgency');
    await page.getByRole('button', { name: 'Move lesson 2 up' }).click();
    expect(await page.getByRole('group', { name: 'Lesson 1' }).getByLabel('Title').inputValue()).toBe(
      'Urgency',
    );
    await page.getByRole('button', { name: 'Create course' }).click();
    await page.getByRole('heading', { name: 'Invoice fraud', exact: true }).waitFor();
    await dismissNotices(page);
    const courseKey = decodeURIComponent(page.url().split('/').pop() ?? '');
    expect(courseKey).toMatch(/^custom-\d+$/);
    await page.getByText('1. Urgency').waitFor();
    await page.getByRole('heading', { name: 'Quiz', exact: true }).waitFor();
    const right = page.locator('li li', { hasText: 'Right answer' });
    expect(await right.textContent()).toContain('Call the supplier on a known number');

    await page.getByRole('button', { name: 'Edit course' }).click();
    await page.getByLabel('Title', { exact: true }).first().fill('Invoice fraud 101');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Invoice fraud 101', exact: true }).waitFor();

    // Used by a campaign: it can no longer be deleted.
    await page.getByRole('navigation').getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('button', { name: 'New campaign', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Payables drill');
    await choose(page, 'Courses', ['Invoice fraud 101']);
    await choose(page, 'Target groups', ['Accounts payable']);
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { name: 'Payables drill' }).waitFor();
    await page.getByRole('link', { name: 'Invoice fraud 101' }).waitFor();

    await page.getByRole('navigation').getByRole('link', { name: 'Courses' }).click();
    await courses.getByRole('button', { name: 'Delete Invoice fraud 101' }).click();
    let dialog = page.getByRole('dialog', { name: 'Delete course?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Once the draft is gone, so can the course be.
    await page.getByRole('navigation').getByRole('link', { name: 'Campaigns' }).click();
    await page
      .getByRole('table', { name: 'Training campaigns' })
      .getByRole('link', { name: 'Payables drill' })
      .click();
    await page.getByRole('button', { name: 'Delete draft' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete campaign?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No training campaigns yet').waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Courses' }).click();
    await courses.getByRole('button', { name: 'Delete Invoice fraud 101' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete course?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await courses.getByRole('link', { name: 'Invoice fraud 101' }).waitFor({ state: 'detached' });
    await context.close();
  });
});
