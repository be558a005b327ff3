import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { afterFile } from '../helpers/cleanup.js';
import { insertPhishingCampaign } from '../helpers/phishing-fixtures.js';
import { DESKTOP, PHONE, startVigil, type Vigil } from './harness.js';

/**
 * The Outlook add-in's task pane in Chromium, as Outlook on the web shows it, with Microsoft's
 * office-addin-mock standing in for Office.js: requests for Office.js on Microsoft's CDN are
 * answered with a bundle of office-addin-mock and a mailbox built from it (the message being
 * read, the employee, and EWS for the move to Deleted Items). The pane posts to the real server.
 * Screenshots of the pane (desktop and phone widths) go to docs/screenshots/ with SCREENSHOTS=1.
 */

const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';
const OFFICE_JS = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';

let vigil: Vigil;
let officeMock: string;
let accountId: number;
let reportKey: string;
let simulation: { token: string; email: string; recipientId: number };
let db: ReturnType<typeof openDatabase>['db'];

/** office-addin-mock for the browser: its one import of office-addin-manifest is the OfficeApp enum. */
async function bundleOfficeMock(): Promise<string> {
  const root = join(import.meta.dirname, '..', '..');
  const result = await esbuild.build({
    absWorkingDir: root,
    stdin: { contents: "export { OfficeMockObject } from 'office-addin-mock';", resolveDir: root },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'OfficeAddinMock',
    platform: 'browser',
    logLevel: 'silent',
    plugins: [
      {
        name: 'office-app-only',
        setup(build) {
          build.onResolve({ filter: /^office-addin-manifest$/ }, () => ({
            path: join(root, 'node_modules', 'office-addin-manifest', 'lib', 'officeApp.js'),
          }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

interface Mailbox {
  reporter: string;
  /** The whole message (getAsFileAsync answers it in base64); absent: a client without Mailbox 1.14. */
  eml?: string;
  headers: string;
  html: string;
  text: string;
}

/** Office.js as the pane sees it: office-addin-mock's object over this mailbox; calls are recorded. */
function officeScript(mailbox: Mailbox): string {
  return `${officeMock}
window.officeCalls = [];
(function (mailbox) {
  var ok = function (value) { return { status: 'succeeded', value: value }; };
  var record = function (name, arg) { window.officeCalls.push({ name: name, arg: arg }); };
  var item = {
    itemId: 'AAMkAD-vigil-test-item',
    attachments: [{ name: 'invoice.pdf', contentType: 'application/pdf', size: 48213, isInline: false }],
    body: {
      getAsync: function (type, callback) { record('body.getAsync', type); callback(ok(type === 'html' ? mailbox.html : mailbox.text)); },
    },
    getAllInternetHeadersAsync: function (callback) { record('getAllInternetHeadersAsync'); callback(ok(mailbox.headers)); },
  };
  if (mailbox.eml !== undefined) {
    item.getAsFileAsync = function (callback) { record('getAsFileAsync'); callback(ok(btoa(mailbox.eml))); };
  }
  window.Office = new OfficeAddinMock.OfficeMockObject({
    context: {
      mailbox: {
        item: item,
        userProfile: { emailAddress: mailbox.reporter, displayName: 'Ann Lee' },
        makeEwsRequestAsync: function (data, callback) {
          record('makeEwsRequestAsync', data);
          callback(ok('<m:MoveItemResponseMessage ResponseClass="Success"><m:ResponseCode>NoError</m:ResponseCode></m:MoveItemResponseMessage>'));
        },
      },
    },
    onReady: function (callback) { if (callback) callback({ host: 'Outlook', platform: 'OfficeOnline' }); return Promise.resolve(); },
  }, 'outlook');
})(${JSON.stringify(mailbox)});
`;
}

async function openPane(
  mailbox: Mailbox,
  { key = reportKey, viewport = DESKTOP }: { key?: string; viewport?: typeof DESKTOP } = {},
) {
  const { context, page } = await vigil.newPage(viewport);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  // Office.js never comes from Microsoft here: the mock stands in for it.
  await page.route(OFFICE_JS, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: officeScript(mailbox) }),
  );
  return { context, page, errors, open: () => page.goto(`/addins/outlook/taskpane.html?key=${key}`) };
}

const officeCalls = (page: Page) =>
  page.evaluate('window.officeCalls') as Promise<{ name: string; arg?: string }[]>;

const eml = (headers: string, body: string) =>
  `${headers.trim().replaceAll('\n', '\r\n')}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`;

beforeAll(async () => {
  [vigil, officeMock] = await Promise.all([
    startVigil({ PUBLIC_URL: 'http://127.0.0.1:{port}' }),
    bundleOfficeMock(),
  ]);
  mkdirSync(OUT, { recursive: true });
  accountId = (await vigil.vigil('account', 'create', '--name', 'Acme')).id as number;
  const created = await vigil.vigil(
    'key',
    'create',
    '--account',
    String(accountId),
    '--name',
    'Outlook report button',
    '--grant',
    'reports:w',
  );
  reportKey = created.key as string;
  const database = openDatabase(vigil.env.DATABASE_URL as string);
  afterFile(() => database.close());
  db = database.db;
  const fixture = await insertPhishingCampaign(db, accountId, {
    recipients: [{ status: 'sent', first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@acme.example' }],
  });
  const recipient = fixture.recipients[0]!;
  simulation = { token: recipient.token, email: recipient.email as string, recipientId: recipient.id };
});

describe('the Outlook add-in’s task pane', () => {
  it('reports a simulation: the employee is credited, the pane says so and the message goes to Deleted Items', async () => {
    const message = eml(
      `From: IT Service Desk <it-desk@phish.example>\nTo: ${simulation.email}\nSubject: Your password expires today\nX-Vigil-Simulation: ${simulation.token}`,
      'Keep your password: https://phish.example/keep',
    );
    const { context, page, errors, open } = await openPane({
      reporter: simulation.email,
      eml: message,
      headers: '',
      html: '',
      text: '',
    });
    const answered = page.waitForResponse((r) => r.url().endsWith('/customer/reports/'));
    await open();
    const response = await answered;
    expect(response.status()).toBe(202);
    expect(response.request().headers().apikey).toBe(reportKey);
    expect(JSON.parse(response.request().postData() ?? '{}')).toEqual({
      reporter: simulation.email,
      eml: Buffer.from(message).toString('base64'),
    });
    const answer = await response.json();
    expect(answer).toMatchObject({ outcome: 'simulation', report_id: null });

    const status = page.getByRole('status');
    await expect
      .poll(() => status.textContent())
      .toBe(`${answer.message} It has been moved to Deleted Items.`);
    expect(await page.getByRole('alert').isHidden()).toBe(true);
    const calls = await officeCalls(page);
    const move = calls.find((c) => c.name === 'makeEwsRequestAsync');
    expect(move?.arg).toContain('<t:DistinguishedFolderId Id="deleteditems"/>');
    expect(move?.arg).toContain('<t:ItemId Id="AAMkAD-vigil-test-item"/>');
    const reported = await db
      .selectFrom('phishing_recipients')
      .select('reported_at')
      .where('id', '=', simulation.recipientId)
      .executeTakeFirstOrThrow();
    expect(reported.reported_at).not.toBeNull();
    expect(errors).toEqual([]);
    await page.screenshot({ path: `${OUT}/addin-simulation.png` });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${OUT}/addin-simulation-phone.png` });
    await context.close();
  });

  it('reports a real phish from its parts on a client without getAsFileAsync: a real report, nothing moved', async () => {
    const headers =
      'From: "Payroll" <payroll@evil.example>\r\nTo: ann.lee@acme.example\r\nSubject: Payslip correction\r\nMessage-ID: <p1@evil.example>\r\n';
    const { context, page, errors, open } = await openPane({
      reporter: simulation.email,
      headers,
      html: '<p>Sign in at <a href="https://evil.example/payslip">payroll</a></p>',
      text: 'Sign in at https://evil.example/payslip',
    });
    const answered = page.waitForResponse((r) => r.url().endsWith('/customer/reports/'));
    await open();
    const response = await answered;
    expect(JSON.parse(response.request().postData() ?? '{}')).toEqual({
      reporter: simulation.email,
      internet_headers: headers,
      html: '<p>Sign in at <a href="https://evil.example/payslip">payroll</a></p>',
      text: 'Sign in at https://evil.example/payslip',
      attachments: [{ name: 'invoice.pdf', content_type: 'application/pdf', size: 48213 }],
    });
    expect(response.status()).toBe(202);
    const answer = await response.json();
    expect(answer.outcome).toBe('real');
    expect(answer.report_id).toEqual(expect.any(Number));
    await expect.poll(() => page.getByRole('status').textContent()).toBe(answer.message);
    expect((await officeCalls(page)).map((c) => c.name)).not.toContain('makeEwsRequestAsync');
    // In the account's triage inbox, from this reporter through the add-in.
    const filed = await db
      .selectFrom('reports')
      .innerJoin('report_reporters', 'report_reporters.report_id', 'reports.id')
      .select([
        'reports.account_id',
        'reports.subject',
        'report_reporters.address',
        'report_reporters.channel',
      ])
      .where('reports.id', '=', answer.report_id)
      .executeTakeFirstOrThrow();
    expect(filed).toEqual({
      account_id: accountId,
      subject: 'Payslip correction',
      address: simulation.email,
      channel: 'addin',
    });
    expect(errors).toEqual([]);
    await page.screenshot({ path: `${OUT}/addin-real.png` });
    await context.close();
  });

  it('says plainly that Vigil could not be reached, and tries again on request', async () => {
    const { context, page, open } = await openPane({
      reporter: simulation.email,
      headers: 'Subject: hello\r\n',
      html: '',
      text: 'hello',
    });
    let down = true;
    await page.route('**/customer/reports/', (route) =>
      down ? route.abort('internetdisconnected') : route.continue(),
    );
    await open();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Vigil could not be reached');
    await page.screenshot({ path: `${OUT}/addin-unreachable.png` });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${OUT}/addin-unreachable-phone.png` });
    down = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/\S/);
    expect(await alert.isHidden()).toBe(true);
    await context.close();
  });

  it('says plainly that a revoked button no longer works', async () => {
    const revoked = await vigil.vigil(
      'key',
      'create',
      '--account',
      String(accountId),
      '--name',
      'old button',
      '--grant',
      'reports:w',
    );
    await vigil.vigil('key', 'revoke', '--id', String(revoked.id));
    const { context, page, open } = await openPane(
      { reporter: simulation.email, headers: 'Subject: x\r\n', html: '', text: 'x' },
      { key: revoked.key as string },
    );
    await open();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('This report button is no longer active; tell your IT team.');
    expect(await page.getByRole('button', { name: 'Try again' }).isHidden()).toBe(true);
    await page.screenshot({ path: `${OUT}/addin-revoked.png` });
    await context.close();
  });
});
