import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import {
  setAccountDisplayName,
  setAccountLogo,
} from '../../src/modules/access/accounts/accounts.branding.service.js';
import { afterFile } from '../helpers/cleanup.js';
import { pngLogo } from '../helpers/logos.js';
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import {
  accessibilityProblems,
  bannerLogoWidth,
  type CustomerApi,
  customerApi,
  DESKTOP,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

const OUT = 'docs/screenshots';

/**
 * A phishing simulation end to end, with nothing faked: the built server (its own process, its
 * own mail worker and scheduler) sends the simulations to a real SMTP server in this test, on a
 * PHISH_URL host name of their own. A mail scanner follows the link first and is classified
 * automated; then a person opens the email in Chromium, clicks, submits the landing page's form
 * and lands on the teachable page; they are enrolled in the remedial course and invited by mail,
 * and the teachable page then leads to the course by the link of that mail; the Customer API and
 * the campaign's results page show the same figures.
 */

let smtp: TestSmtpServer;
let vigil: Vigil;
let api: CustomerApi;
let accountId: number;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  smtp = await startSmtpServer();
  vigil = await startVigil({
    SMTP_URL: smtp.url,
    SCHEDULER_INTERVAL_SECONDS: '1',
    MAIL_FROM: 'Acme Security <security@acme.example>',
    // Simulations on a host name of their own: localhost, where the app is 127.0.0.1.
    PHISH_URL: 'http://localhost:{port}',
  });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme')).id as number;
  // The name and logo employees see (Account settings; its own browser test sets them through the
  // page): the teachable page shows them.
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  afterFile(() => database.close());
  await setAccountDisplayName(database.db, accountId, { display_name: 'Acme Holdings' });
  await setAccountLogo(database.db, accountId, pngLogo(180, 48, [29, 78, 216]));
  api = await customerApi(vigil, accountId, ['employees:rw', 'groups:rw', 'campaigns:rw', 'reports:w']);
});

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 60_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const PHONE_BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const header = (mail: ReceivedMail, name: string) =>
  new RegExp(`^${name}: *(.+)$`, 'mi').exec(mail.raw.replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim();

describe('a phishing simulation from launch to remedial training', () => {
  it('sends, tells scanners from people, teaches, enrols, and shows one set of figures everywhere', async () => {
    const phishBase = vigil.baseUrl.replace('127.0.0.1', 'localhost');
    expect(phishBase).not.toBe(vigil.baseUrl);

    const maya = (
      await api.post('employees/', { first_name: 'Maya', last_name: 'Okafor', email: 'maya@acme.example' })
    ).body;
    const tom = (
      await api.post('employees/', { first_name: 'Tom', last_name: 'Berg', email: 'tom@acme.example' })
    ).body;
    const group = await vigil.vigil('group', 'create', '--account', String(accountId), '--name', 'Everyone');
    expect((await api.put(`groups/${group.id}/`, { employee_ids: [maya.id, tom.id] })).status).toBe(200);

    // A window open now, every day and hour, for 20 seconds: each person's moment falls in it.
    const start = new Date(Date.now() + 1_000);
    const end = new Date(start.getTime() + 20_000);
    const draft = await vigil.vigil(
      'phishing',
      'create',
      '--account',
      String(accountId),
      '--name',
      'Mailbox quota',
      '--group',
      String(group.id),
      '--template',
      'builtin:mailbox-quota-exceeded',
      '--course',
      'phishing',
      '--window-start',
      start.toISOString(),
      '--window-end',
      end.toISOString(),
      '--weekdays',
      'mon,tue,wed,thu,fri,sat,sun',
      '--hours',
      '0-24',
      '--time-zone',
      'UTC',
      '--landing',
      'teach_on_submit',
      '--remedial-on',
      'submit',
      '--sender-domain',
      'mail-acme-support.example',
    );
    expect(draft).toMatchObject({ status: 'draft' });
    const launched = await vigil.vigil(
      'phishing',
      'launch',
      '--account',
      String(accountId),
      '--id',
      String(draft.id),
    );
    expect(launched).toMatchObject({ status: 'running' });

    // One simulation each, at its moment inside the window.
    await waitFor('two simulations', () => (smtp.accepted.length >= 2 ? true : undefined));
    const simulations = smtp.accepted.filter((m) => header(m, 'X-Vigil-Simulation'));
    expect(simulations.map((m) => m.recipients).sort()).toEqual([
      ['maya@acme.example'],
      ['tom@acme.example'],
    ]);
    const mail = simulations.find((m) => m.recipients.includes('maya@acme.example')) as ReceivedMail;
    const token = header(mail, 'X-Vigil-Simulation') as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(mail.subject).toBeTruthy();
    expect(header(mail, 'From')).toMatch(/@mail-acme-support\.example>?$/);
    expect(mail.text).toContain(`VALIDATE MAILBOX NOW`);
    const link = `${phishBase}/v/${token}`;
    expect(mail.html).toContain(link);
    expect(mail.html).toContain(`${phishBase}/t/${token}.png`);

    // A mail scanner follows the link seconds after delivery: recorded, classified automated, no figure moves.
    const scanned = await fetch(link, { headers: { 'user-agent': 'python-requests/2.32.3' } });
    expect(scanned.status).toBe(200);
    expect(scanned.headers.get('x-robots-tag')).toMatch(/noindex/);
    await fetch(link, { method: 'HEAD' });
    const afterScanner = (await api.get(`campaigns/phishing/${draft.id}/`)).body;
    expect(afterScanner).toMatchObject({ delivered: 2, clicked: 0, submitted: 0 });

    // Maya opens the email in her browser (the tracking image loads), clicks, and submits the form.
    // A phone's browser: headless Chromium's own user agent says "HeadlessChrome", which is a bot's.
    const context = await vigil.browser.newContext({ viewport: PHONE, userAgent: PHONE_BROWSER });
    const page = await context.newPage();
    // setContent waits for the page's load event: the tracking image has been fetched.
    await page.setContent(mail.html);
    await page.goto(link);
    await page.getByLabel('Password').waitFor();
    await page.screenshot({ path: `${OUT}/phishing-landing-phone.png`, fullPage: true });
    await page.getByLabel('Password').fill('hunter2-correct-horse');
    await page.getByRole('button', { name: 'Validate mailbox' }).click();
    await page.getByRole('heading', { name: 'This was a phishing simulation' }).waitFor();
    // Her form post proves a person: she is enrolled at once (a click alone waits until it settled).
    await page.getByText('A short course about spotting phishing was assigned to you').waitFor();
    // The organisation's name and logo, as on the learner pages.
    expect(await bannerLogoWidth(page, 'Acme Holdings')).toBe(180);
    await page.getByText('sent by the security team of Acme Holdings').waitFor();
    await page.screenshot({ path: `${OUT}/phishing-teachable-phone.png`, fullPage: true });
    expect(await accessibilityProblems(page, 'teachable page')).toEqual([]);

    // She is invited by mail, with her personal learner link: named by its course, never by the
    // campaign's internal name.
    const invitation = await waitFor('the remedial invitation', () =>
      smtp.accepted.find(
        (m) => m.recipients.includes('maya@acme.example') && m.subject.includes('Spotting phishing'),
      ),
    );
    expect(`${invitation.subject}\n${invitation.text}`).not.toContain('Mailbox quota');
    const mailed = /https?:\/\/[^\s]+\/learn\/[^\s]+/.exec(invitation.text)?.[0];
    expect(mailed).toBeDefined();
    // The teachable page then leads to her course by that very link: it never makes one of its own.
    await page.reload();
    const course = page.getByRole('link', { name: 'Start the course now' });
    expect(await course.getAttribute('href')).toBe(mailed);
    await course.click();
    await page.waitForURL(/\/learn\//);
    expect(new URL(page.url()).origin).toBe(new URL(vigil.baseUrl).origin);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.textContent('body')).toContain('Spotting phishing');
    expect(await page.textContent('body')).not.toContain('Mailbox quota');
    await context.close();

    // Tom reports his through the report endpoint (a report button would).
    const tomsToken = header(
      simulations.find((m) => m.recipients.includes('tom@acme.example')) as ReceivedMail,
      'X-Vigil-Simulation',
    );
    const report = await fetch(`${vigil.baseUrl}/api/api_gateway/customer/campaigns/phishing/reports/`, {
      method: 'POST',
      headers: { apiKey: api.key, 'content-type': 'application/json' },
      body: JSON.stringify({ token: tomsToken }),
    });
    expect(report.status).toBe(202);

    // The Customer API …
    const campaign = (await api.get(`campaigns/phishing/${draft.id}/`)).body;
    expect(campaign).toMatchObject({
      status: 'running',
      recipients: 2,
      delivered: 2,
      opened: 1,
      clicked: 1,
      submitted: 1,
      reported: 1,
      phish_prone_percent: 50,
      report_rate: 0.5,
    });
    const results = (await api.get(`campaigns/phishing/${draft.id}/results/`)).body;
    const byEmail = new Map(
      results.results.map(
        (r: { email: string; status: string; training_assigned: boolean; reported_at: unknown }) => [
          r.email,
          r,
        ],
      ),
    );
    expect(byEmail.get('maya@acme.example')).toMatchObject({ status: 'submitted', training_assigned: true });
    expect(byEmail.get('tom@acme.example')).toMatchObject({ status: 'sent', training_assigned: false });
    expect((byEmail.get('tom@acme.example') as { reported_at: unknown }).reported_at).not.toBeNull();

    // … and the campaign's results page show the same figures; the scanner's hit is in Maya's timeline.
    const admin = await signedInPage(
      vigil,
      { accountId },
      { viewport: DESKTOP, at: `/admin/a/${accountId}/phishing/campaigns/${draft.id}/results` },
    );
    await admin.page.getByRole('heading', { name: 'Results: Mailbox quota' }).waitFor();
    const funnel = async (label: string) =>
      (
        await admin.page
          .locator('figure', { hasText: 'Funnel' })
          .locator('dt', { hasText: new RegExp(`^${label}$`) })
          .locator('xpath=following-sibling::dd[1]//strong')
          .textContent()
      )?.trim();
    expect(await funnel('Delivered')).toBe('2');
    expect(await funnel('Opened')).toBe('1');
    expect(await funnel('Clicked')).toBe('1');
    expect(await funnel('Submitted')).toBe('1');
    expect(await funnel('Reported')).toBe('1');
    await admin.page.getByRole('button', { name: 'Events of Maya Okafor' }).click();
    const timeline = admin.page.getByRole('list', { name: 'Events of Maya Okafor' });
    await timeline.getByText('Automated').first().waitFor();
    await timeline
      .getByText(/HTTP librar/i)
      .first()
      .waitFor();
    await admin.context.close();
  });
});
