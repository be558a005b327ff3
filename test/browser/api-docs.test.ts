import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, startVigil, type Vigil } from './harness.js';

// The API reference at /api/api_gateway/docs, reached as on a LAN: plain HTTP, by a host name
// (not localhost or 127.0.0.1, which browsers treat as secure and never upgrade).

const HOST = 'vigil.test';
let vigil: Vigil;
beforeAll(async () => {
  vigil = await startVigil({}, { browserArgs: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1`] });
});

describe('the API reference page', () => {
  it('renders over plain HTTP by host name, and "Try it out" lists page 1 of a new account', async () => {
    const account = await vigil.vigil('account', 'create', '--name', 'Docs Co');
    const { key } = await vigil.vigil(
      'key',
      'create',
      '--account',
      String(account.id),
      '--name',
      'docs',
      '--grant',
      'groups:r',
    );
    const base = `http://${HOST}:${new URL(vigil.baseUrl).port}`;
    const { page, context } = await vigil.newPage();
    // What a blank page came from: its scripts and styles asked for over HTTPS, and failing.
    const problems: string[] = [];
    page.on('request', (request) => request.url().startsWith('https:') && problems.push(request.url()));
    page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));

    await page.goto(`${base}/api/api_gateway/docs`);
    await page.getByRole('heading', { name: /Vigil Customer API/ }).waitFor();
    expect(problems).toEqual([]);
    expect(new URL(page.url()).protocol).toBe('http:');
    expect(await page.evaluate('document.styleSheets.length')).toBeGreaterThan(0);

    await page
      .locator('.auth-wrapper')
      .getByRole('button', { name: /Authorize/ })
      .click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').fill(key as string);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor();
    await dialog.locator('button.btn-done').click();

    const list = page.locator('.opblock-get').filter({
      has: page.locator('.opblock-summary-path[data-path="/api/api_gateway/customer/groups/"]'),
    });
    await list.locator('.opblock-summary').first().click();
    await list.getByRole('button', { name: 'Try it out' }).click();
    expect(await list.locator('tr[data-param-name="page"] input').inputValue()).toBe('1');
    await list.getByRole('button', { name: 'Execute' }).click();
    await list.locator('.live-responses-table .response-col_status').filter({ hasText: '200' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])(
    "is Vigil's reference, its first operation in view on a %s; the conventions and error codes after the operations",
    async (name, viewport) => {
      const { page, context } = await vigil.newPage(viewport);
      // Swagger UI's bundle is 1.6 MB of script: on a busy machine it loads in more than 15 s.
      page.setDefaultTimeout(60_000);
      await page.goto(`${vigil.baseUrl}/api/api_gateway/docs`);
      await page.getByRole('heading', { name: /Vigil Customer API/ }).waitFor();
      const first = page.locator('.opblock').first();
      await first.waitFor();
      expect(await page.title()).toBe('Vigil Customer API reference');
      await expect
        .poll(() => page.locator('link[rel="icon"]').getAttribute('href'))
        .toMatch(/theme\/favicon\.svg$/);
      const bar = page.locator('header.vigil-bar');
      expect(await bar.innerText()).toMatch(/Vigil\s+Customer API reference/);
      // Nothing of Fastify's or Swagger's own: no logo, no box to explore another document.
      expect(await page.locator('.topbar, .download-url-wrapper, img[src*="logo"]').count()).toBe(0);
      // The first operation is on the first screen, without scrolling.
      const top = (await first.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
      expect(top).toBeLessThan(viewport.height);
      await expect.poll(() => first.isVisible()).toBe(true);
      // The error codes come after every operation, as a heading and its table.
      const codes = page.getByRole('region', { name: 'Error codes' });
      const guide = page.getByRole('region', { name: 'Using the API' });
      const last = page.locator('.opblock-tag-section .opblock').last();
      const y = async (locator: typeof first) => (await locator.boundingBox())?.y ?? 0;
      expect(await y(guide)).toBeGreaterThan(await y(last));
      expect(await y(codes)).toBeGreaterThan(await y(guide));
      await codes.getByRole('cell', { name: 'validation_failed' }).waitFor();
      await guide.getByText('Idempotency-Key', { exact: false }).first().waitFor();
      await page.screenshot({ path: `docs/screenshots/api-docs-${name}.png` });
      await context.close();
    },
  );

  it('shows what v2.3.0 added, the webhook events with a sample each, and how to verify a signature', async () => {
    const { page, context } = await vigil.newPage();
    await page.goto(`${vigil.baseUrl}/api/api_gateway/docs`);
    await page.getByRole('heading', { name: /Vigil Customer API/ }).waitFor();
    await page.getByText('New in 2.3.0').waitFor();
    await page.getByText("import { Webhook } from 'standardwebhooks'", { exact: false }).first().waitFor();
    // The events, listed under "Webhooks": open one and see its sample body.
    const event = page.locator('.opblock').filter({ hasText: 'training.enrollment_completed' }).first();
    await event.scrollIntoViewIfNeeded();
    await event.locator('.opblock-summary').first().click();
    await event.getByText('"type": "training.enrollment_completed"', { exact: false }).first().waitFor();
    await page.screenshot({ path: 'docs/screenshots/api-docs-webhooks.png' });
    await context.close();
  });
});
