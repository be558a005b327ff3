import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { customerApi, DESKTOP, PHONE, signedInPage, startVigil, type Vigil } from './harness.js';

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
  await vigil.vigil(
    'campaign',
    'create',
    '--account',
    String(accountId),
    '--name',
    'Annual security awareness 2026',
    '--group',
    String(groupIds[1]),
    '--group',
    String(groupIds[2]),
  );
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
    )
  ).id as number;
});

/** Serious and critical WCAG 2 A/AA violations axe-core finds on the page, as readable lines. */
async function accessibilityProblems(page: Page, name: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
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
    const pages: [string, string, string][] = [
      ['accounts', '/admin/accounts', 'Accounts'],
      ['overview', a, 'Acme Corporation'],
      ['employees', `${a}/employees`, 'Employees'],
      ['groups', `${a}/groups`, 'Groups'],
      ['group', `${a}/groups/${groupId}`, 'Finance'],
      ['campaigns', `${a}/campaigns`, 'Campaigns'],
      ['campaign', `${a}/campaigns/${campaignId}`, 'Finance: invoice fraud'],
      ['integration', `${a}/integration`, 'Integration'],
      ['administrators', `${a}/admins`, 'Administrators'],
    ];
    for (const [name, path, heading] of pages) {
      await operator.page.goto(path);
      await operator.page.getByRole('heading', { name: heading }).first().waitFor();
      await operator.page.waitForLoadState('networkidle');
      await operator.page.screenshot({ path: `${OUT}/${name}.png` });
      problems.push(...(await accessibilityProblems(operator.page, name)));
    }
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
    await operator.page.getByRole('dialog').getByLabel('employees read').check({ force: true });
    await operator.page.screenshot({ path: `${OUT}/integration-new-key.png` });
    problems.push(...(await accessibilityProblems(operator.page, 'integration-new-key')));
    await operator.context.close();

    const phone = await signedInPage(vigil, { accountId }, PHONE);
    phone.page.on('pageerror', (err) => errors.push(err.message));
    for (const [name, path, heading] of [
      ['phone-employees', `${a}/employees`, 'Employees'],
      ['phone-group', `${a}/groups/${groupId}`, 'Finance'],
    ] as const) {
      await phone.page.goto(path);
      await phone.page.getByRole('heading', { name: heading }).first().waitFor();
      await phone.page.waitForLoadState('networkidle');
      await phone.page.screenshot({ path: `${OUT}/${name}.png` });
      problems.push(...(await accessibilityProblems(phone.page, name)));
    }
    await phone.context.close();

    const signIn = await vigil.newPage(DESKTOP);
    await signIn.page.goto('/admin/sign-in');
    await signIn.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn.page.screenshot({ path: `${OUT}/sign-in.png` });
    problems.push(...(await accessibilityProblems(signIn.page, 'sign-in')));
    await signIn.context.close();
    expect(errors).toEqual([]);
    expect(problems).toEqual([]);
  });
});
