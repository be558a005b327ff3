import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { afterFile } from '../helpers/cleanup.js';
import {
  accessibilityProblems,
  type CustomerApi,
  customerApi,
  dismissNotices,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

// The triage inbox in Chromium: reports sent through the real POST /customer/reports/ (a report
// key), listed, shown safely (defanged links, attachments by hash, the HTML only in a frame
// sandboxed with nothing allowed), judged, and the Reporting settings (rules, feedback mail,
// retention) and the simulation header of the Phishing settings; a 403 without the triage
// permission is a message, not a crash.

let vigil: Vigil;
let accountId: number;
let reports: CustomerApi;
let db: ReturnType<typeof openDatabase>['db'];
let phishId: number;
const ADA = 'ada.lovelace@acme.example';
const BOB = 'bob.marley@acme.example';
const PDF = '%PDF-1.4 not really';

/** A phish with a link, a tracking image, a script and a PDF (as triage.test.ts sends). */
function phish(
  subject: string,
  from = 'IT Desk <helpdesk@evil.example>',
  link = 'https://login.evil.example/x',
) {
  return [
    `From: ${from}`,
    'To: staff@acme.example',
    `Subject: ${subject}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Your password expires today. Log in <a href="${link}">here</a> to keep it.</p><img src="https://tracker.evil.example/p.gif"><script>document.title = 'scripted'</script>`,
    '--b',
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(PDF).toString('base64'),
    '--b--',
    '',
  ].join('\r\n');
}

async function report(reporter: string, message: string): Promise<number> {
  const res = await reports.post('reports/', { reporter, eml: Buffer.from(message).toString('base64') });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.report_id as number;
}

beforeAll(async () => {
  vigil = await startVigil();
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme')).id as number;
  const people = await customerApi(vigil, accountId, ['employees:rw'], 'HR sync');
  for (const email of [ADA, BOB]) {
    const [first, last] = email.split('@')[0]!.split('.') as [string, string];
    await people.post('employees/', { first_name: first, last_name: last, email });
  }
  reports = await customerApi(vigil, accountId, ['reports:w'], 'Outlook report button');
  phishId = await report(ADA, phish('Your password expires today'));
  expect(await report(BOB, phish('Your password expires today'))).toBe(phishId);
  await report(
    BOB,
    phish('Invoice 2291 overdue', 'Billing <billing@invoices.example>', 'https://pay.invoices.example/2291'),
  );
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  afterFile(() => database.close());
  db = database.db;
}, 180_000);

const inbox = () => `/admin/a/${accountId}/reports`;

/** Fails on a script error in the page. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

describe('the triage inbox', () => {
  it('lists the reports with their reporter counts and verdicts, filtered by verdict', async () => {
    const { page, context } = await signedInPage(vigil, { accountId }, { at: inbox() });
    const errors = watchErrors(page);
    // Reached from the account's navigation.
    await expect
      .poll(() => page.getByRole('link', { name: 'Reports' }).getAttribute('aria-current'))
      .toBe('page');
    const table = page.getByRole('table', { name: 'Reports' });
    const row = table.getByRole('row').filter({ hasText: 'Your password expires today' });
    await row.waitFor();
    await expect.poll(() => row.innerText()).toMatch(/helpdesk@evil\.example[\s\S]*2[\s\S]*Not judged/i);
    await table.getByRole('row').filter({ hasText: 'Invoice 2291 overdue' }).waitFor();
    await page.getByLabel('Verdict').selectOption({ label: 'Safe' });
    await page.getByText('No reports with this verdict').waitFor();
    await page.getByLabel('Verdict').selectOption({ label: 'Not judged' });
    await row.waitFor();
    expect(await accessibilityProblems(page, 'reports')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a report safely: defanged URLs to copy, attachments by SHA-256, the HTML in a sandboxed frame', async () => {
    const { page, context } = await signedInPage(vigil, { accountId }, { at: inbox() });
    const errors = watchErrors(page);
    await page.getByRole('link', { name: 'Your password expires today' }).click();
    await page.getByRole('heading', { name: 'Your password expires today', level: 1 }).waitFor();
    const reporters = page.getByRole('table', { name: 'Reporters' });
    await reporters.getByRole('row').filter({ hasText: ADA }).waitFor();
    // Sent as JSON ({reporter, eml}), as the add-in does.
    expect(await reporters.innerText()).toContain('Outlook button');
    expect(await reporters.innerText()).toContain('Not yet');
    // The text, as text.
    expect(await page.locator('pre').innerText()).toContain('Log in');

    await page.getByRole('tab', { name: /URLs/ }).click();
    const urls = page.getByRole('list', { name: 'URLs' });
    await urls.getByText('hxxps://login[.]evil[.]example/x').waitFor();
    await urls.getByText('hxxps://tracker[.]evil[.]example/p[.]gif').waitFor();
    // Never a link to what was reported, anywhere on the page.
    expect(await page.locator('a[href*="evil"]').count()).toBe(0);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await urls.getByRole('button', { name: 'Copy hxxps://login[.]evil[.]example/x' }).click();
    await urls
      .getByRole('button', { name: 'Copy hxxps://login[.]evil[.]example/x' })
      .getByText('Copied')
      .waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('hxxps://login[.]evil[.]example/x');

    await page.getByRole('tab', { name: /Attachments/ }).click();
    const attachments = page.getByRole('list', { name: 'Attachments' });
    await attachments.getByText('invoice.pdf').waitFor();
    const sha = createHash('sha256').update(PDF).digest('hex');
    expect(await attachments.innerText()).toContain(sha);
    expect(await attachments.innerText()).toContain('application/pdf');

    await page.getByRole('tab', { name: /^Headers/ }).click();
    await page.getByRole('table', { name: 'Headers' }).getByText('helpdesk@evil.example').waitFor();

    await page.getByRole('tab', { name: 'HTML view' }).click();
    const frame = page.locator('iframe[title="HTML of the reported message"]');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(await frame.getAttribute('src')).toBe(`/admin/api/accounts/${accountId}/reports/${phishId}/html`);
    await page.frameLocator('iframe[title="HTML of the reported message"]').getByText('Log in').waitFor();
    // The message's script never ran (it would have set the frame's title), its link is inert.
    const inner = page.frames().find((f) => f.url().endsWith(`/reports/${phishId}/html`));
    expect(inner).toBeDefined();
    expect(await inner!.title()).toBe('');
    expect(await accessibilityProblems(page, 'report')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('giving a verdict shows it, who judged it, and that each reporter was told', async () => {
    const { page, context, email } = await signedInPage(
      vigil,
      { accountId },
      { at: `${inbox()}/${phishId}` },
    );
    const errors = watchErrors(page);
    await page.getByRole('button', { name: 'Give verdict' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give verdict' });
    await dialog.getByText('Each reporter gets the feedback mail for the verdict you choose.').waitFor();
    await dialog.getByRole('radio', { name: 'Malicious' }).check();
    await dialog.getByText('2 people will be mailed').waitFor();
    await dialog.getByLabel('Note').fill('Credential phishing: the login page is not ours.');
    expect(await accessibilityProblems(page, 'verdict-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Save verdict' }).click();
    await dialog.waitFor({ state: 'detached' });
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByText('Malicious').waitFor();
    await verdict.getByText('Credential phishing: the login page is not ours.').waitFor();
    const admins = await (await page.request.get(`/admin/api/accounts/${accountId}/admins`)).json();
    const me = admins.results.find((a: { email: string }) => a.email === email);
    await verdict.getByText(me.name || me.email).waitFor();
    const reporters = page.getByRole('table', { name: 'Reporters' });
    await expect.poll(() => reporters.getByText('Told “malicious”').count()).toBe(2);
    await page.getByRole('button', { name: 'Change verdict' }).waitFor();
    // The inbox says so too.
    await page.getByRole('link', { name: 'Reports' }).first().click();
    await page
      .getByRole('table', { name: 'Reports' })
      .getByRole('row')
      .filter({ hasText: 'Your password expires today' })
      .getByText('Malicious')
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so when retention deleted the content, and keeps the rest', async () => {
    const id = await report(ADA, phish('Old news', 'Old <old@stale.example>', 'https://stale.example/'));
    await db
      .updateTable('reports')
      .set({ content: null, content_deleted_at: Date.now() })
      .where('id', '=', id)
      .execute();
    const { page, context } = await signedInPage(vigil, { accountId }, { at: `${inbox()}/${id}` });
    await page.getByText('The message’s content was deleted').waitFor();
    await page.getByRole('table', { name: 'Reporters' }).getByText(ADA).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    await context.close();
  });
});

describe('Reporting settings', () => {
  it('adds a rule that judges the next report, and deletes it', async () => {
    const { page, context } = await signedInPage(vigil, { accountId }, { at: inbox() });
    const errors = watchErrors(page);
    await page.getByRole('link', { name: 'Reporting settings' }).click();
    await page.getByRole('heading', { name: 'Reporting settings' }).waitFor();
    await page.getByText('No rules').waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Kind').selectOption({ label: 'Sender domain' });
    await page.getByLabel('Domain or host').fill('not a domain');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('must be a domain name such as newsletter.example.com').waitFor();
    await page.getByLabel('Domain or host').fill('News.Acme-Partner.example');
    await page.getByRole('combobox', { name: 'Verdict' }).selectOption({ label: 'Safe' });
    await page.getByRole('textbox', { name: 'Note' }).fill('Our partner’s newsletter');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rules = page.getByRole('table', { name: 'Rules' });
    const row = rules.getByRole('row').filter({ hasText: 'news.acme-partner.example' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Sender domain[\s\S]*Safe[\s\S]*Our partner’s newsletter/i);
    expect(await accessibilityProblems(page, 'reporting-settings')).toEqual([]);

    // A report from that domain is judged at once.
    const judged = await report(
      BOB,
      phish(
        'Partner news, May',
        'News <hello@news.acme-partner.example>',
        'https://acme-partner.example/may',
      ),
    );
    await page.goto(`${inbox()}/${judged}`);
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByText('Safe').waitFor();
    await verdict.getByText('news.acme-partner.example').waitFor();

    await page.goto(`${inbox()}/settings`);
    await dismissNotices(page).catch(() => {});
    await page.getByRole('button', { name: 'Delete the rule for news.acme-partner.example' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the rule?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No rules').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits a feedback mail, restores the default, and keeps content for the days chosen', async () => {
    const { page, context } = await signedInPage(vigil, { accountId }, { at: `${inbox()}/settings` });
    const errors = watchErrors(page);
    await page.getByRole('tab', { name: 'Spam' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Spam' });
    await panel.getByText('Default', { exact: true }).waitFor();
    await panel.locator('code', { hasText: '{{first_name}}' }).waitFor();
    await panel.getByLabel('Subject').fill('Thanks {{first_name}}: that was spam');
    await panel.getByLabel('Body').fill('Hello {{unknown}}');
    await panel.getByRole('button', { name: 'Save mail' }).click();
    await panel
      .getByText(/unknown/)
      .first()
      .waitFor();
    await panel.getByLabel('Body').fill('Hello {{first_name}}, “{{subject}}” was spam. {{note}}');
    await panel.getByRole('button', { name: 'Save mail' }).click();
    await panel.getByText('Your own').waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Spam' }).click();
    await expect
      .poll(() => panel.getByLabel('Subject').inputValue())
      .toBe('Thanks {{first_name}}: that was spam');
    await panel.getByRole('button', { name: 'Restore default' }).click();
    await panel.getByText('Default', { exact: true }).waitFor();
    expect(await panel.getByLabel('Subject').inputValue()).not.toBe('Thanks {{first_name}}: that was spam');

    const days = page.getByLabel('Days to keep reported content');
    await expect.poll(() => days.inputValue()).toBe('90');
    await days.fill('30');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await page.getByText('Reported content is now kept 30 days').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Days to keep reported content').inputValue()).toBe('30');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sets the simulation header in the Phishing settings, and empties it back to the default', async () => {
    const { page, context } = await signedInPage(
      vigil,
      { accountId },
      { at: `/admin/a/${accountId}/phishing/settings` },
    );
    const header = page.getByRole('textbox', { name: 'Simulation header', exact: true });
    await expect.poll(() => header.getAttribute('placeholder')).toBe('X-Vigil-Simulation');
    await header.fill('X-Acme-Check');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved the phishing settings').waitFor();
    const saved = await (await page.request.get(`/admin/api/accounts/${accountId}/phishing/settings`)).json();
    expect(saved).toMatchObject({ simulation_header: 'X-Acme-Check', simulation_header_is_default: false });
    await page.reload();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Simulation header', exact: true }).inputValue())
      .toBe('X-Acme-Check');
    await page.getByRole('textbox', { name: 'Simulation header', exact: true }).fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(async () => (await page.request.get(`/admin/api/accounts/${accountId}/phishing/settings`)).json())
      .toMatchObject({ simulation_header: 'X-Vigil-Simulation', simulation_header_is_default: true });
    await context.close();
  });
});

describe('without the triage permission', () => {
  it('a holder withdraws it on the Administrators page; the other then sees what is missing, on a phone too', async () => {
    const other = await signedInPage(vigil, { accountId }, { newAdmin: true, viewport: PHONE });
    const holder = await signedInPage(vigil, { accountId }, { at: `/admin/a/${accountId}/admins` });
    const permission = holder.page.getByRole('switch', { name: `Triage permission for ${other.email}` });
    await expect.poll(() => permission.isChecked()).toBe(true);
    await permission.dispatchEvent('click');
    await holder.page.getByText(`${other.email} can no longer read reported mail`).waitFor();
    await expect.poll(() => permission.isChecked()).toBe(false);
    await holder.context.close();

    const errors = watchErrors(other.page);
    for (const path of [inbox(), `${inbox()}/${phishId}`, `${inbox()}/settings`]) {
      await other.page.goto(path);
      await other.page.getByText('You do not have the triage permission').first().waitFor();
    }
    expect(errors).toEqual([]);
    await other.context.close();
  });
});
