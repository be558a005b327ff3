import { mkdirSync } from 'node:fs';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
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
import { takeTraining } from './training-data.js';

/**
 * Opens every main page of the web interface with realistic data, fails on any script error
 * or serious accessibility violation (axe-core, WCAG 2 A/AA), and takes a screenshot of each. `npm run screenshots` (SCREENSHOTS=1) writes them to
 * docs/screenshots/ for the README; otherwise they go to an ignored folder.
 */
const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';

let vigil: Vigil;
let accountId: number;
let groupId: number;
let campaignId: number;
let activeCampaignId: number;

const FIRST = ['Ann', 'Bo', 'Carla', 'Dev', 'Elif', 'Femi', 'Greta', 'Hiro', 'Ines', 'Jon', 'Kai', 'Lena'];
const LAST = ['Lee', 'Chen', 'Rossi', 'Patel', 'Yilmaz', 'Okafor', 'Berg', 'Tanaka', 'Silva', 'Meyer'];

beforeAll(async () => {
  vigil = await startVigil();
  mkdirSync(OUT, { recursive: true });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme Corporation')).id as number;
  await vigil.vigil('account', 'create', '--name', 'Globex');
  await vigil.vigil('account', 'create', '--name', 'Initech');
  const api = await customerApi(vigil, accountId, ['employees:rw', 'groups:rw'], 'Workday sync');
  await vigil.vigil(
    'key',
    'create',
    '--account',
    String(accountId),
    '--name',
    'Okta provisioning',
    '--grant',
    'groups:r',
  );
  const ids: number[] = [];
  for (let i = 0; i < 120; i++) {
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[(i * 7) % LAST.length] as string;
    const created = await api.post('employees/', {
      first_name: first,
      last_name: last,
      email: `${first}.${last}${i}@acme.example`.toLowerCase(),
    });
    ids.push(created.body.id);
  }
  const groups: [string, string, number[]][] = [
    ['Finance', 'Approves payments and invoices', ids.slice(0, 14)],
    ['Engineering', 'Developers and SREs with production access', ids.slice(14, 70)],
    ['Sales', 'Account executives and SDRs', ids.slice(70, 101)],
    ['New hires 2026', '', ids.slice(101)],
  ];
  const groupIds: number[] = [];
  for (const [name, description, members] of groups) {
    const group = await vigil.vigil(
      'group',
      'create',
      '--account',
      String(accountId),
      '--name',
      name,
      ...(description ? ['--description', description] : []),
    );
    await api.put(`groups/${group.id}/`, { employee_ids: members });
    groupIds.push(group.id as number);
  }
  groupId = groupIds[0] as number;
  // A campaign launched twelve days ago that most people have finished, and a draft.
  const dueDate = new Date(Date.now() + 16 * 86_400_000).toISOString();
  activeCampaignId = (
    await vigil.vigil(
      'campaign',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Annual security awareness 2026',
      '--description',
      'Every employee, once a year: phishing and passwords.',
      '--group',
      String(groupIds[1]),
      '--group',
      String(groupIds[2]),
      '--course',
      'phishing',
      '--course',
      'passwords-and-mfa',
      '--due-date',
      dueDate,
    )
  ).id as number;
  await vigil.vigil('campaign', 'launch', '--account', String(accountId), '--id', String(activeCampaignId));
  await takeTraining(vigil, {
    accountId,
    campaignId: activeCampaignId,
    launchedDaysAgo: 12,
    complete: 52,
    start: 14,
  });
  campaignId = (
    await vigil.vigil(
      'campaign',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Finance: invoice fraud',
      '--group',
      String(groupId),
      '--course',
      'social-engineering',
    )
  ).id as number;
});

/** Plain MIME for the triage screenshots: HTML with links, optionally an attachment. */
function reportedMail(
  from: string,
  subject: string,
  html: string,
  attachment?: { name: string; type: string },
) {
  const parts = [
    `From: ${from}`,
    'To: staff@acme.example',
    `Subject: ${subject}`,
    'Date: Tue, 12 May 2026 08:14:03 +0000',
    `Message-ID: <${subject.length}.${from.length}@mail.example>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
  ];
  if (attachment) {
    parts.push(
      '--b',
      `Content-Type: ${attachment.type}; name="${attachment.name}"`,
      `Content-Disposition: attachment; filename="${attachment.name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(`${attachment.name} ${'x'.repeat(48_000)}`).toString('base64'),
    );
  }
  parts.push('--b--', '');
  return parts.join('\r\n');
}

/** What employees reported: a phish many caught, an invoice lure, a newsletter, spam, a fresh one. */
const REPORTED: { eml: string; reporters: number; verdict?: 'malicious' | 'spam' | 'safe'; note?: string }[] =
  [
    {
      eml: reportedMail(
        'IT Service Desk <it-support@micros0ft-login.example>',
        'Action required: your Microsoft 365 password expires today',
        '<p>Dear user,</p><p>Your password expires <b>today</b>. To keep your mailbox, confirm your password within 24 hours:</p><p><a href="https://login.micros0ft-login.example/reset?u=staff">Keep my password</a></p><p>If you ignore this message your account will be suspended.</p><p>IT Service Desk</p><img src="https://track.micros0ft-login.example/o.gif?id=8812">',
      ),
      reporters: 5,
    },
    {
      eml: reportedMail(
        'Accounts Receivable <billing@fastpay-invoices.example>',
        'Invoice INV-22917 overdue: final notice',
        '<p>Please find the overdue invoice attached. Pay today at <a href="https://pay.fastpay-invoices.example/inv/22917">our portal</a> to avoid a late fee.</p>',
        { name: 'INV-22917.pdf.html', type: 'text/html' },
      ),
      reporters: 3,
      verdict: 'malicious',
      note: 'Invoice fraud; the attachment is a fake sign-in page.',
    },
    {
      eml: reportedMail(
        'Acme Partner News <news@partner-news.example>',
        'Your weekly digest from Acme Partner News',
        '<p>This week: new partner tiers and the summer summit. <a href="https://partner-news.example/digest/19">Read online</a></p>',
      ),
      reporters: 2,
      verdict: 'safe',
      note: 'Our partner programme’s newsletter.',
    },
    {
      eml: reportedMail(
        'Office Deals <deals@chairs-outlet.example>',
        'Exclusive offer: 70% off ergonomic office chairs',
        '<p>Only this week! <a href="https://chairs-outlet.example/sale">Shop now</a></p>',
      ),
      reporters: 1,
      verdict: 'spam',
    },
    {
      eml: reportedMail(
        'SharePoint <sharepoint-notify@docs-share.example>',
        'Greta Berg shared “Q3 bonus plan.docx” with you',
        '<p>Greta Berg shared a file with you.</p><p><a href="https://docs-share.example/s/q3-bonus">Open</a></p>',
      ),
      reporters: 1,
    },
  ];

/** Creates a custom course through the admin API, as the signed-in page would. */
async function createCourse(page: Page): Promise<string> {
  const session = await (await page.request.get('/admin/api/session')).json();
  const res = await page.request.post(`/admin/api/accounts/${accountId}/courses`, {
    headers: { 'X-CSRF-Token': session.csrf_token },
    data: {
      title: 'Invoice fraud for finance teams',
      summary: 'Spot a fake supplier invoice or a changed bank account before money leaves.',
      minutes: 12,
      pass_mark: 75,
      lessons: [
        {
          title: 'Changed bank details',
          markdown:
            "## Why it works\n\nAttackers copy a real supplier's invoice and change **only the bank details**.\n\n- Call the supplier on a number you already had\n- Never use the number in the email\n\n**Remember:** a changed account is a reason to call.",
        },
        {
          title: 'Urgent payment requests',
          markdown: "Urgency is the attacker's friend. Slow down and check.",
        },
      ],
      quiz: [
        {
          question: 'A supplier emails new bank details. What do you do first?',
          choices: [
            'Pay the next invoice as asked',
            'Call the supplier on a number you already had',
            'Reply to the email to confirm',
          ],
          answer: 1,
          explanation: 'Only a number you already had proves who you are talking to.',
        },
      ],
    },
  });
  if (res.status() !== 201) throw new Error(`course not created: ${res.status()} ${await res.text()}`);
  return (await res.json()).key as string;
}

describe('every main page renders without script errors or serious accessibility problems', () => {
  it('as an operator, on a laptop screen and on a phone', async () => {
    const operator = await signedInPage(vigil, { operator: true });
    const errors: string[] = [];
    const problems: string[] = [];
    operator.page.on('pageerror', (err) => errors.push(err.message));
    operator.page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    const a = `/admin/a/${accountId}`;
    const courseKey = await createCourse(operator.page);
    const pages: [string, string, string][] = [
      ['accounts', '/admin/accounts', 'Accounts'],
      ['overview', a, 'Acme Corporation'],
      ['employees', `${a}/employees`, 'Employees'],
      ['groups', `${a}/groups`, 'Groups'],
      ['group', `${a}/groups/${groupId}`, 'Finance'],
      ['campaigns', `${a}/campaigns`, 'Campaigns'],
      ['campaign-draft', `${a}/campaigns/${campaignId}`, 'Finance: invoice fraud'],
      ['campaign-edit', `${a}/campaigns/${activeCampaignId}/edit`, 'Edit Annual security awareness 2026'],
      ['courses', `${a}/courses`, 'Courses'],
      ['course', `${a}/courses/phishing`, 'Spotting phishing'],
      ['course-editor', `${a}/courses/${courseKey}/edit`, 'Edit Invoice fraud for finance teams'],
      ['outbox', `${a}/outbox`, 'Outbox'],
      ['integration', `${a}/integration`, 'Integration'],
      ['administrators', `${a}/admins`, 'Administrators'],
      ['audit-log', `${a}/audit-log`, 'Audit log'],
    ];
    for (const [name, path, heading] of pages) {
      await operator.page.goto(path);
      await operator.page.getByRole('heading', { name: heading }).first().waitFor();
      await operator.page.waitForLoadState('networkidle');
      await operator.page.screenshot({ path: `${OUT}/${name}.png` });
      problems.push(...(await accessibilityProblems(operator.page, name)));
    }
    // The campaign's progress view: a tall window shows the charts and the people.
    await operator.page.setViewportSize({ width: DESKTOP.width, height: 1500 });
    await operator.page.goto(`${a}/campaigns/${activeCampaignId}`);
    await operator.page
      .getByRole('table', { name: 'People in this campaign' })
      .getByRole('row')
      .nth(3)
      .waitFor();
    await operator.page.waitForLoadState('networkidle');
    await operator.page.screenshot({ path: `${OUT}/campaign.png` });
    problems.push(...(await accessibilityProblems(operator.page, 'campaign')));
    await operator.page.setViewportSize(DESKTOP);

    // A new campaign with its pickers filled in.
    await operator.page.goto(`${a}/campaigns/new`);
    await operator.page.getByLabel('Name', { exact: true }).fill('Phishing refresher for Sales');
    for (const [label, option] of [
      ['Courses', 'Spotting phishing'],
      ['Courses', 'Recognizing social engineering'],
      ['Target groups', 'Sales'],
    ] as const) {
      await operator.page.getByRole('combobox', { name: label, exact: true }).click();
      await operator.page.getByRole('option', { name: option }).click();
    }
    await operator.page.keyboard.press('Escape');
    await operator.page.setViewportSize({ width: DESKTOP.width, height: 1200 });
    await operator.page.screenshot({ path: `${OUT}/campaign-new.png` });
    problems.push(...(await accessibilityProblems(operator.page, 'campaign-new')));
    await operator.page.setViewportSize(DESKTOP);

    // One message of the outbox: headers, and the HTML body in its sandboxed frame.
    await operator.page.goto(`${a}/outbox`);
    await operator.page.getByRole('table', { name: 'Messages' }).getByRole('button').first().click();
    await operator.page.getByRole('dialog').locator('iframe').waitFor();
    // The message's body, drawn in its frame. Not "network idle": the Outbox asks again every few
    // seconds while invitations are still being sent, which on a busy machine lasts the whole test.
    await operator.page.frameLocator('[role="dialog"] iframe').locator('body *').first().waitFor();
    await operator.page.screenshot({ path: `${OUT}/outbox-message.png` });
    problems.push(...(await accessibilityProblems(operator.page, 'outbox-message')));

    // The import page with a checked file: preview, counts and the rows with problems.
    await operator.page.goto(`${a}/employees/import`);
    const rows = [
      'First name,Last name,E-mail',
      'Mia,Novak,mia.novak@acme.example',
      'Sam,Ortiz,sam.ortiz@acme.example',
    ];
    rows.push(
      'Ann,Berg,ann.berg48@acme.example',
      'Tom,,tom@acme.example',
      'Liv,Moe,liv.moe@',
      'Mia,Novak,MIA.NOVAK@acme.example',
    );
    await operator.page.locator('input[type=file]').setInputFiles({
      name: 'new-hires.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(rows.join('\n')),
    });
    await operator.page.getByRole('button', { name: 'Check rows' }).click();
    await operator.page.getByRole('table', { name: 'Rows with problems' }).waitFor();
    // A tall window rather than a full-page capture, which would paint the fixed header mid-page.
    await operator.page.setViewportSize({ width: DESKTOP.width, height: 1700 });
    await operator.page.evaluate('window.scrollTo(0, 0)');
    await operator.page.screenshot({ path: `${OUT}/employees-import.png` });
    await operator.page.setViewportSize(DESKTOP);
    problems.push(...(await accessibilityProblems(operator.page, 'employees-import')));

    await operator.page.goto(`${a}/integration`);
    await operator.page.getByRole('button', { name: 'New API Key' }).click();
    await operator.page.getByRole('dialog').getByLabel('Name').fill('Payroll export');
    // The switch itself, wherever the opening dialog's transition has it on a busy machine (a
    // forced click at its coordinates landed beside it once).
    const employeesRead = operator.page.getByRole('dialog').getByLabel('employees read');
    await employeesRead.dispatchEvent('click');
    await expect.poll(() => employeesRead.isChecked()).toBe(true);
    await operator.page.screenshot({ path: `${OUT}/integration-new-key.png` });
    problems.push(...(await accessibilityProblems(operator.page, 'integration-new-key')));
    await operator.context.close();

    const phone = await signedInPage(vigil, { accountId }, { viewport: PHONE });
    phone.page.on('pageerror', (err) => errors.push(err.message));
    for (const [name, path, heading] of [
      ['phone-employees', `${a}/employees`, 'Employees'],
      ['phone-group', `${a}/groups/${groupId}`, 'Finance'],
      ['phone-campaigns', `${a}/campaigns`, 'Training campaigns'],
      ['phone-course', `${a}/courses/phishing`, 'Spotting phishing'],
      ['phone-outbox', `${a}/outbox`, 'Outbox'],
      ['phone-audit-log', `${a}/audit-log`, 'Audit log'],
    ] as const) {
      await phone.page.goto(path);
      await phone.page.getByRole('heading', { name: heading }).first().waitFor();
      await phone.page.waitForLoadState('networkidle');
      await phone.page.screenshot({ path: `${OUT}/${name}.png` });
      problems.push(...(await accessibilityProblems(phone.page, name)));
    }
    // The campaign's progress on a phone, in a tall window (see the import page above).
    await phone.page.setViewportSize({ width: PHONE.width, height: 2300 });
    await phone.page.goto(`${a}/campaigns/${activeCampaignId}`);
    await phone.page
      .getByRole('table', { name: 'People in this campaign' })
      .getByRole('row')
      .nth(3)
      .waitFor();
    await phone.page.waitForLoadState('networkidle');
    await phone.page.screenshot({ path: `${OUT}/phone-campaign.png` });
    problems.push(...(await accessibilityProblems(phone.page, 'phone-campaign')));
    await phone.context.close();

    const signIn = await vigil.newPage(DESKTOP);
    await signIn.page.goto('/admin/sign-in');
    await signIn.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn.page.screenshot({ path: `${OUT}/sign-in.png` });
    problems.push(...(await accessibilityProblems(signIn.page, 'sign-in')));
    await signIn.context.close();
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
  }, 360_000); // every main page in two viewports, each scanned: minutes on a busy CI machine

  it('the triage inbox, a report and the verdict dialog, on a laptop screen and on a phone', async () => {
    const reports = await customerApi(vigil, accountId, ['reports:w'], 'Outlook report button');
    // The employees of beforeAll: `first.lastN@acme.example`.
    const person = (i: number) =>
      `${FIRST[i % FIRST.length]}.${LAST[(i * 7) % LAST.length]}${i}@acme.example`.toLowerCase();
    const report = async (reporter: string, eml: string) => {
      const res = await reports.post('reports/', { reporter, eml: Buffer.from(eml).toString('base64') });
      if (res.status !== 202) throw new Error(`report refused: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.report_id as number;
    };
    const ids: number[] = [];
    for (const [n, message] of REPORTED.entries()) {
      let id = 0;
      for (let r = 0; r < message.reporters; r++) id = await report(person(n * 9 + r), message.eml);
      ids.push(id);
    }
    const page = (await signedInPage(vigil, { accountId })).page;
    const errors: string[] = [];
    const problems: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const session = await (await page.request.get('/admin/api/session')).json();
    for (const [n, message] of REPORTED.entries()) {
      if (!message.verdict) continue;
      const res = await page.request.post(`/admin/api/accounts/${accountId}/reports/${ids[n]}/verdict`, {
        headers: { 'X-CSRF-Token': session.csrf_token },
        data: { verdict: message.verdict, note: message.note },
      });
      if (res.status() !== 200) throw new Error(`verdict refused: ${res.status()} ${await res.text()}`);
    }
    const a = `/admin/a/${accountId}`;
    const phishId = ids[0] as number;
    for (const [prefix, viewport] of [
      ['', DESKTOP],
      ['phone-', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`${a}/reports`);
      await page.getByRole('table', { name: 'Reports' }).getByRole('row').nth(REPORTED.length).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${OUT}/${prefix}reports.png` });
      problems.push(...(await accessibilityProblems(page, `${prefix}reports`)));

      // The report, its links defanged (a tall window: reporters, verdict and the safe view).
      await page.setViewportSize({ width: viewport.width, height: prefix ? 1700 : 1080 });
      await page.goto(`${a}/reports/${phishId}`);
      await page.getByRole('tab', { name: /^URLs/ }).click();
      await page.getByRole('list', { name: 'URLs' }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${OUT}/${prefix}report.png` });
      problems.push(...(await accessibilityProblems(page, `${prefix}report`)));

      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: 'Give verdict' }).click();
      const dialog = page.getByRole('dialog', { name: 'Give verdict' });
      await dialog.getByRole('radio', { name: 'Malicious' }).check();
      await dialog
        .getByLabel('Note')
        .fill('Credential phishing: the sign-in page is not Microsoft’s. Blocked at the gateway.');
      await dialog.getByText('will be mailed').waitFor();
      await page.screenshot({ path: `${OUT}/${prefix}report-verdict.png` });
      problems.push(...(await accessibilityProblems(page, `${prefix}report-verdict`)));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    // The settings: retention, a rule, the feedback mail of a verdict.
    await page.setViewportSize({ width: DESKTOP.width, height: 1250 });
    const added = await page.request.post(`/admin/api/accounts/${accountId}/report-rules`, {
      headers: { 'X-CSRF-Token': session.csrf_token },
      data: {
        kind: 'sender_domain',
        value: 'partner-news.example',
        verdict: 'safe',
        note: 'Partner newsletter',
      },
    });
    if (added.status() !== 201) throw new Error(`rule refused: ${added.status()} ${await added.text()}`);
    await page.goto(`${a}/reports/settings`);
    await page.getByRole('table', { name: 'Rules' }).getByText('partner-news.example').waitFor();
    await page.getByRole('tabpanel', { name: 'Malicious' }).getByLabel('Subject').waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${OUT}/reporting-settings.png` });
    problems.push(...(await accessibilityProblems(page, 'reporting-settings')));
    if (!process.env.SCREENSHOTS) {
      // The message's HTML in its frame and the attachments, for a look (not in the docs).
      await page.setViewportSize({ width: DESKTOP.width, height: 1200 });
      await page.goto(`${a}/reports/${ids[1]}`);
      await page.getByRole('tab', { name: 'HTML view' }).click();
      await page.frameLocator('iframe[sandbox]').getByText('overdue invoice').waitFor();
      await page.screenshot({ path: `${OUT}/report-html.png` });
      await page.getByRole('tab', { name: /^Attachments/ }).click();
      await page.screenshot({ path: `${OUT}/report-attachments.png` });
    }
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
  }, 240_000);
  it('the pages of two-step sign-in, on a laptop screen and on a phone', async () => {
    const errors: string[] = [];
    const problems: string[] = [];
    const watch = (page: Page) => page.on('pageerror', (err) => errors.push(err.message));
    const shoot = async (page: Page, name: string) => {
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${OUT}/${name}.png` });
      problems.push(...(await accessibilityProblems(page, name)));
    };
    const code = (secret: string, steps: number) =>
      generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
    for (const [suffix, viewport] of [
      ['', DESKTOP],
      ['-phone', PHONE],
    ] as const) {
      const admin = await signedInPage(
        vigil,
        { accountId },
        { newAdmin: true, viewport, at: '/admin/security' },
      );
      const { page } = admin;
      watch(page);
      await page.getByRole('heading', { name: 'Sign-in security' }).waitFor();
      await page.getByRole('button', { name: 'Add an authenticator app' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
      await dialog.getByRole('img', { name: /QR code/ }).waitFor();
      await shoot(page, `mfa-add-app${suffix}`);
      const secret = await dialog.getByLabel('Key').inputValue();
      await dialog.getByLabel('Code from the app').fill(await code(secret, -1));
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
      await codes.locator('code').nth(9).waitFor();
      // The app's dialog fades out as the codes' fades in: the picture waits for both to settle.
      await dialog.waitFor({ state: 'hidden' });
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await shoot(page, `mfa-recovery-codes${suffix}`);
      await codes.getByRole('button', { name: 'I have saved them' }).click();
      await codes.waitFor({ state: 'hidden' });
      await page.getByText('10 of 10 left').waitFor();
      await shoot(page, `sign-in-security${suffix}`);
      await page.getByRole('button', { name: 'User menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL('**/admin/sign-in');
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password', { exact: true }).fill('a long browser password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
      await shoot(page, `sign-in-verify${suffix}`);
      await admin.context.close();
    }
    // The account's requirement (an operator may set it, as an owner): then an administrator
    // without a factor enrols one at sign-in.
    const operator = await signedInPage(vigil, { operator: true }, { at: `/admin/a/${accountId}/settings` });
    watch(operator.page);
    const session = await (await operator.page.request.get('/admin/api/session')).json();
    const set = await operator.page.request.put(`/admin/api/accounts/${accountId}/security/mfa`, {
      headers: { 'X-CSRF-Token': session.csrf_token },
      data: { require_mfa: true },
    });
    expect(set.status()).toBe(200);
    await operator.page.setViewportSize({ width: DESKTOP.width, height: 1300 });
    await operator.page.reload();
    await operator.page.getByRole('table', { name: 'Administrators and their second factors' }).waitFor();
    await shoot(operator.page, 'account-settings-mfa');
    for (const [suffix, viewport] of [
      ['', DESKTOP],
      ['-phone', PHONE],
    ] as const) {
      const admin = await signedInPage(vigil, { accountId }, { newAdmin: true, viewport });
      watch(admin.page);
      await admin.page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
      await shoot(admin.page, `mfa-enrol${suffix}`);
      await admin.context.close();
    }
    const unset = await operator.page.request.put(`/admin/api/accounts/${accountId}/security/mfa`, {
      headers: { 'X-CSRF-Token': session.csrf_token },
      data: { require_mfa: false },
    });
    expect(unset.status()).toBe(200);
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
  }, 240_000);
});
