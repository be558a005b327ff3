import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { testEnv } from '../helpers/app.js';
import { afterFile } from '../helpers/cleanup.js';
import { createTestDatabase } from '../helpers/database.js';
import { runCli, type ServerProcess, startServer } from '../helpers/server-process.js';

/**
 * Browser tests: the built server (`dist/server.js`) as a real process on a throwaway
 * database, driven by Debian's Chromium through playwright-core. Never downloads a browser.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where failed tests leave their screenshots (ignored by git). */
export const FAILURES = 'test/browser/.failures';

/** A JSON body as a test reads it (shapes are asserted with expect). */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON whose shape the assertions check
export type Json = any;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A browser profile's cookies and local storage, as Playwright saves and restores them. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface Vigil {
  server: ServerProcess;
  baseUrl: string;
  /** The environment the server runs with: pass it to `vigil(…)`. */
  env: NodeJS.ProcessEnv;
  /** The one-time link the server printed at its first start. */
  setupUrl: string;
  browser: Browser;
  /** A new browser profile (cookies of its own, or a copy of `storageState`'s). */
  newPage(
    viewport?: { width: number; height: number },
    storageState?: StorageState,
  ): Promise<{ context: BrowserContext; page: Page }>;
  /** Runs `vigil … --json` on the server's database and returns the object it printed. */
  vigil(...args: string[]): Promise<Record<string, unknown>>;
}

/**
 * Starts a server and a browser for one test file; both stop after the file. `browserArgs` adds
 * Chromium flags (e.g. `--host-resolver-rules` to reach the server by a name of the test's).
 */
export async function startVigil(
  extraEnv: NodeJS.ProcessEnv = {},
  { browserArgs = [] }: { browserArgs?: string[] } = {},
): Promise<Vigil> {
  const database = await createTestDatabase();
  const server = await startServer(testEnv(database.url, extraEnv));
  // The CLI sees what the server saw: `{port}` (server-process.ts) is the server's port.
  const port = new URL(server.baseUrl).port;
  const env = Object.fromEntries(
    Object.entries(testEnv(database.url, extraEnv)).map(([k, v]) => [k, v?.replaceAll('{port}', port)]),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...browserArgs] });
  afterFile(async () => {
    await browser.close();
    await server.stop();
    await database.drop();
  });
  const setupUrl = await waitForSetupUrl(server);
  return {
    server,
    baseUrl: server.baseUrl,
    env,
    setupUrl,
    browser,
    async newPage(viewport = DESKTOP, storageState?: StorageState) {
      const context = await browser.newContext({ viewport, baseURL: server.baseUrl, storageState });
      const page = await context.newPage();
      // Playwright's own default: a page on a busy 2-core machine may take seconds to settle.
      page.setDefaultTimeout(30_000);
      // A failed test leaves a picture of what the browser showed.
      onTestFailed(async ({ task }) => {
        mkdirSync(FAILURES, { recursive: true });
        const name = task.name.replace(/[^\w]+/g, '-').slice(0, 80);
        await page.screenshot({ path: `${FAILURES}/${name}.png`, fullPage: true }).catch(() => {});
      });
      return { context, page };
    },
    async vigil(...args: string[]) {
      const res = await runCli([...args, '--json'], env);
      if (res.code !== 0) throw new Error(`vigil ${args.join(' ')} failed: ${res.stderr}`);
      return JSON.parse(res.stdout);
    },
  };
}

async function waitForSetupUrl(server: ServerProcess): Promise<string> {
  for (let i = 0; i < 100; i++) {
    for (const line of server.output().split('\n')) {
      if (line.includes('"setup_url"')) return JSON.parse(line).setup_url;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server printed no setup link:\n${server.output()}`);
}

/**
 * A new browser profile signed in as an administrator of `as` (an account's, or an operator), on
 * the page `at` of the web interface (by default the administrator's home page). A test that goes
 * to a page first names it in `at`: the browser then loads the app once, not a second time.
 *
 * The first call for an `as` in a file creates the administrator with the `vigil` CLI and signs
 * in through the sign-in page, as a person would (its `next` leads to `at`). Later calls sign in
 * as that same administrator by copying the first profile's cookies (the session and its CSRF
 * secret) into a new profile: no CLI process and no sign-in form each time, which cost ~2
 * CPU-seconds a call. The copy is taken right after sign-in, so what a test does to its own
 * profile afterwards (clearing a cookie, say) never reaches another.
 *
 * A test that signs the administrator out, changes their password or removes them ends the
 * session the copies share: it asks for `newAdmin`, an administrator of its own that no other
 * call reuses.
 */
export async function signedInPage(
  vigil: Vigil,
  as: { operator: true } | { accountId: number },
  {
    viewport = DESKTOP,
    at,
    newAdmin = false,
  }: { viewport?: typeof DESKTOP; at?: string; newAdmin?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; email: string }> {
  const path = at ?? ('operator' in as ? '/admin/accounts' : `/admin/a/${as.accountId}`);
  if (newAdmin) return signInThroughForm(vigil, as, viewport, path);
  const key = 'operator' in as ? 'operator' : `account ${as.accountId}`;
  const known = signedInAdmins.get(vigil) ?? new Map<string, Promise<SignedInProfile>>();
  signedInAdmins.set(vigil, known);
  const admin = known.get(key);
  if (admin) {
    const { email, storageState } = await admin;
    const { context, page } = await vigil.newPage(viewport, storageState);
    await page.goto(path);
    return { context, page, email };
  }
  const first = signInThroughForm(vigil, as, viewport, path);
  known.set(key, first);
  // A failed sign-in is not remembered: the next call tries again.
  first.catch(() => known.delete(key));
  return first;
}

/** The administrators `signedInPage` signed in, for each server: by account (or operator). */
const signedInAdmins = new WeakMap<Vigil, Map<string, Promise<SignedInProfile>>>();

interface SignedInProfile {
  context: BrowserContext;
  page: Page;
  email: string;
  /** The profile's cookies and storage just after sign-in. */
  storageState: StorageState;
}

/** Creates an administrator with the CLI and signs them in through the sign-in page, which leads to `path`. */
async function signInThroughForm(
  vigil: Vigil,
  as: { operator: true } | { accountId: number },
  viewport: typeof DESKTOP,
  path: string,
): Promise<SignedInProfile> {
  const email = `admin-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = 'a long browser password';
  await vigil.vigil(
    'admin',
    'create',
    '--email',
    email,
    '--password',
    password,
    ...('operator' in as ? ['--operator'] : ['--account', String(as.accountId)]),
  );
  const { context, page } = await vigil.newPage(viewport);
  await page.goto(`/admin/sign-in?next=${encodeURIComponent(path)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  return { context, page, email, storageState: await context.storageState() };
}

export interface CustomerApi {
  key: string;
  get(path: string): Promise<{ status: number; etag: string | null; body: Json }>;
  post(path: string, body: unknown): Promise<{ status: number; etag: string | null; body: Json }>;
  put(path: string, body: unknown): Promise<{ status: number; etag: string | null; body: Json }>;
}

/** What an integration sees: a key of its own for the account, calling the Customer API. */
export async function customerApi(
  vigil: Vigil,
  accountId: number,
  grants = ['employees:rw', 'groups:rw', 'campaigns:r'],
  name = 'integration',
): Promise<CustomerApi> {
  const created = await vigil.vigil(
    'key',
    'create',
    '--account',
    String(accountId),
    '--name',
    name,
    ...grants.flatMap((grant) => ['--grant', grant]),
  );
  const key = created.key as string;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${vigil.baseUrl}/api/api_gateway/customer/${path}`, {
      method,
      headers: { apiKey: key, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as Json };
  };
  return {
    key,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
  };
}

/**
 * The natural width of the logo in a page's banner (the employee-facing pages' brand bar), once
 * the banner shows the organisation's `name`.
 */
export async function bannerLogoWidth(page: Page, name: string): Promise<number> {
  const banner = page.getByRole('banner');
  await banner.getByText(name, { exact: true }).waitFor();
  return banner.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
}

/**
 * Serious and critical WCAG 2 A/AA violations axe-core finds on the page, as readable lines.
 * Axe runs in the page itself ("legacy mode"): its default opens a blank page of its own for every
 * scan to put the frames' results together, which cost twice the scan (2.3 s a page against 1 s,
 * in the screenshots test). What legacy mode does not scan is cross-origin frames, and the only
 * frames of the web interface are messages' and templates' bodies, sandboxed and excluded anyway.
 * Results other than violations are cut to one element a rule (axe's `resultTypes`).
 */
export async function accessibilityProblems(page: Page, name: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // A message's HTML body is the email, shown in a frame with scripts off (axe cannot run there).
    .exclude('iframe[sandbox]')
    .options({ resultTypes: ['violations'] })
    .setLegacyMode()
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

/**
 * Closes the notices at the top right, which cover the page's buttons for a few seconds. A notice
 * closes by itself after 4 s: on a busy machine one may be gone before it is clicked, which is
 * the same outcome, never a failure.
 */
export async function dismissNotices(page: Page) {
  const close = page.getByRole('button', { name: 'Close notification' });
  await close
    .first()
    .waitFor({ timeout: 5_000 })
    .catch(() => {});
  for (let tries = 0; tries < 20 && (await close.count()) > 0; tries++) {
    await close
      .first()
      .dispatchEvent('click', undefined, { timeout: 1_000 })
      .catch(() => {});
  }
  await close.first().waitFor({ state: 'detached' });
}
