import { crc32, inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount, makeKey } from '../../../../test/helpers/factories.js';
import { revokeKey } from '../../access/keys/keys.service.js';
import { addinIdOf } from './addin.model.js';

const PUBLIC_URL = 'https://vigil.example.com/base';
const MANIFESTS = ['manifest.xml', 'manifest.json', 'package.zip'] as const;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL });
});

const get = (path: string) => t.app.inject({ method: 'GET', url: `/addins/outlook/${path}` });
const reportKey = async (accountId?: number) =>
  makeKey(t.app, { grants: ['reports:w'], ...(accountId ? { accountId } : {}) });

/** The files of a stored ZIP, read by walking its local headers (and checked against their CRCs). */
function filesOf(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const method = zip.readUInt16LE(at + 8);
    const crc = zip.readUInt32LE(at + 14);
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('ascii');
    const raw = zip.subarray(at + 30 + nameLength + extra, at + 30 + nameLength + extra + size);
    const data = method === 8 ? inflateRawSync(raw) : raw;
    expect(crc32(data), name).toBe(crc);
    files.set(name, Buffer.from(data));
    at += 30 + nameLength + extra + size;
  }
  expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50); // the end of the central directory
  return files;
}

describe('the Outlook add-in manifests', () => {
  it('serve the XML manifest of an active report key: the button, the task pane with the key, the stable id', async () => {
    const { key, accountId } = await reportKey();
    const res = await get(`manifest.xml?key=${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="vigil-report-phishing.xml"');
    expect(res.headers['cache-control']).toBe('no-store');
    const xml = res.body;
    expect(xml).toContain(`<Id>${addinIdOf(PUBLIC_URL, accountId)}</Id>`);
    expect(xml).toContain('xsi:type="MailApp"');
    expect(xml).toContain('xsi:type="VersionOverridesV1_1"');
    expect(xml).toContain('<ExtensionPoint xsi:type="MessageReadCommandSurface">');
    expect(xml).toContain('<bt:String id="Button.Label" DefaultValue="Report phishing"/>');
    expect(xml).toContain(
      `<bt:Url id="Taskpane.Url" DefaultValue="${PUBLIC_URL}/addins/outlook/taskpane.html?key=${key}"/>`,
    );
    expect(xml).toContain('<AppDomain>https://vigil.example.com</AppDomain>');
    expect(xml).toContain(`<bt:Image id="Icon.80" DefaultValue="${PUBLIC_URL}/addins/outlook/icon-80.png"/>`);
  });

  it('give an account the same add-in id every time, and another account another one', async () => {
    const first = await reportKey();
    const second = await reportKey(first.accountId);
    const other = await reportKey();
    const idOf = async (key: string) => JSON.parse((await get(`manifest.json?key=${key}`)).body).id;
    expect(await idOf(first.key)).toBe(await idOf(second.key));
    expect(await idOf(other.key)).not.toBe(await idOf(first.key));
    expect(await idOf(first.key)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('serve the unified manifest, and its package with the two icons it names', async () => {
    const { key } = await reportKey();
    const res = await get(`manifest.json?key=${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const manifest = res.json();
    const runtime = manifest.extensions[0].runtimes[0];
    expect(runtime.code.page).toBe(`${PUBLIC_URL}/addins/outlook/taskpane.html?key=${key}`);
    expect(manifest.extensions[0].ribbons[0].contexts).toEqual(['mailRead']);
    expect(manifest.validDomains).toEqual(['vigil.example.com']);

    const zip = await get(`package.zip?key=${key}`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe('attachment; filename="vigil-report-phishing.zip"');
    const files = filesOf(zip.rawPayload);
    expect([...files.keys()]).toEqual(['manifest.json', 'color.png', 'outline.png']);
    expect(JSON.parse(files.get('manifest.json')!.toString())).toEqual(manifest);
    expect(files.get('color.png')!.subarray(1, 4).toString()).toBe('PNG');
  });

  it('answer 404 and no manifest for a key that is unknown, revoked, expired, malformed or can do more than report', async () => {
    const account = await makeAccount(t.app);
    const revoked = await reportKey(account.id);
    await revokeKey(t.app.db, account.id, revoked.keyId);
    const expiring = await makeKey(t.app, { grants: ['reports:w'], expiresAt: Date.now() + 60_000 });
    await t.app.db
      .updateTable('api_keys')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', expiring.keyId)
      .execute();
    const more = await makeKey(t.app, { grants: ['reports:w', 'employees:r'] });
    const other = await makeKey(t.app, { grants: ['employees:rw'] });
    const keys = [
      `vgl_${'a'.repeat(40)}`,
      revoked.key,
      expiring.key,
      more.key,
      other.key,
      'not-a-key',
      encodeURIComponent(`${revoked.key}\u0000`),
    ];
    for (const file of MANIFESTS) {
      for (const key of keys) {
        const res = await get(`${file}?key=${key}`);
        expect({ file, key, status: res.statusCode }).toEqual({ file, key, status: 404 });
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.json()).toEqual({
          error: 'Report key not found',
          status: 404,
          ...coded('report_key_not_found'),
        });
      }
    }
  });

  it('refuse a manifest without a key as a validation error', async () => {
    const res = await get('manifest.xml');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('keep the key out of the request log', async () => {
    const { key } = await reportKey();
    await get(`manifest.xml?key=${key}`);
    await get(`taskpane.html?key=${key}`);
    const lines = t.logs.join('');
    expect(lines).toContain('/addins/outlook/manifest.xml?key=[redacted]');
    expect(lines).not.toContain(key.slice(12));
  });
});

describe('the Outlook add-in task pane', () => {
  it('is a page without inline script, loading Office.js from Microsoft and connecting to PUBLIC_URL only', async () => {
    const res = await get('taskpane.html?key=vgl_anything');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self' https://appsforoffice.microsoft.com;");
    expect(csp).toContain('connect-src https://vigil.example.com;');
    expect(csp).toContain('frame-ancestors ');
    expect(csp).toContain('https://outlook.office.com');
    expect(csp).not.toContain('unsafe');
    const scripts = [...res.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map((s) => s[1])).toEqual([
      ' src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"',
      ' src="addin.js" defer',
    ]);
    expect(scripts.every((s) => s[2] === '')).toBe(true);
    expect(res.body).toContain(`data-endpoint="${PUBLIC_URL}/api/api_gateway/customer/reports/"`);
    expect(res.body).toContain('role="status"');
    expect(res.body).toContain('role="alert"');
  });

  it('serves its script and the icons (which Outlook loads from its own origin)', async () => {
    const script = await get('addin.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('Office.onReady');
    for (const size of [16, 32, 64, 80, 128, 192]) {
      const icon = await get(`icon-${size}.png`);
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/png');
      expect(icon.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(icon.rawPayload.readUInt32BE(16)).toBe(size); // IHDR width
    }
    expect((await get('icon-17.png')).statusCode).toBe(404);
  });

  it('answers nothing but GET (and HEAD)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/addins/outlook/manifest.xml?key=x',
      payload: {},
    });
    expect(res.statusCode).toBe(405);
  });
});
