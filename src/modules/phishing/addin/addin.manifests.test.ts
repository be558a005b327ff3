import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OfficeAddinManifest, validateManifest } from 'office-addin-manifest';
import { convert } from 'office-addin-manifest-converter';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedManifest, xmlManifest } from './addin.manifests.presenter.js';
import { addinIdOf } from './addin.model.js';

/**
 * Both manifests, made for a test account, through Microsoft's validator package
 * (office-addin-manifest). The unified manifest is checked against the JSON schema it names, which
 * the package ships (@microsoft/app-manifest's json-schemas/teams/v1.24): offline, in full. The XML
 * manifest's validation is a Microsoft web service (validationgateway.omex.office.net): without the
 * network, the package's own reading of it (xml2js, then every field it extracts) runs, and
 * Microsoft's manifest converter (office-addin-manifest-converter) turns it into a unified
 * manifest that the same schema then checks; with VALIDATE_ADDIN_ONLINE=1, the service is asked too.
 */

const dir = mkdtempSync(join(tmpdir(), 'vigil-addin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = 'https://vigil.example.com';
const props = { id: addinIdOf(base, 42), base, key: 'vgl_AbCdEfGh0123456789abcdefghijklmnopqrstu' };

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the add-in manifests, through office-addin-manifest', () => {
  it('the unified manifest passes the schema it names', async () => {
    const path = write('manifest.json', JSON.stringify(unifiedManifest(props), null, 2));
    const validation = await validateManifest(path);
    expect(validation.report?.errors ?? []).toEqual([]);
    expect(validation.isValid).toBe(true);
  });

  it('the unified manifest check does fail a broken manifest (the check is real)', async () => {
    const broken = { ...unifiedManifest(props), accentColor: 'indigo' };
    const validation = await validateManifest(write('broken.json', JSON.stringify(broken)));
    expect(validation.isValid).toBe(false);
    expect(JSON.stringify(validation.report?.errors)).toContain('/accentColor');
  });

  it('the XML manifest reads as an Outlook mail add-in with the expected fields', async () => {
    const path = write('manifest.xml', xmlManifest(props));
    const info = await OfficeAddinManifest.readManifestFile(path);
    expect(info).toMatchObject({
      id: props.id,
      manifestType: 'xml',
      officeAppType: 'MailApp',
      hosts: ['Mailbox'],
      version: '1.0.0.0',
      displayName: 'Report phishing',
      providerName: 'Vigil',
      defaultLocale: 'en-US',
      appDomains: [base],
      iconUrl: `${base}/addins/outlook/icon-64.png`,
      highResolutionIconUrl: `${base}/addins/outlook/icon-128.png`,
      permissions: 'ReadWriteMailbox',
    });
  });

  it('the XML manifest check does fail malformed XML (the check is real)', async () => {
    const path = write('broken.xml', xmlManifest(props).replace('</OfficeApp>', ''));
    await expect(OfficeAddinManifest.readManifestFile(path)).rejects.toThrow();
  });

  it('the XML manifest converts with Microsoft’s manifest converter, and what it makes passes the unified schema', async () => {
    const out = join(dir, 'converted');
    await convert(write('to-convert.xml', xmlManifest(props)), out, false, undefined, undefined, false);
    const validation = await validateManifest(join(out, 'manifest.json'));
    expect(validation).toEqual({ isValid: true });
    const converted = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(converted.id).toBe(props.id);
  });

  it('the converter does refuse an XML manifest without its required elements (the check is real)', async () => {
    const broken = xmlManifest(props).replace(/<Id>[^<]*<\/Id>/, '');
    await expect(
      convert(
        write('to-convert-broken.xml', broken),
        join(dir, 'converted-broken'),
        false,
        undefined,
        undefined,
        false,
      ),
    ).rejects.toThrow();
  });

  it.runIf(process.env.VALIDATE_ADDIN_ONLINE === '1')(
    'the XML manifest passes Microsoft’s validation service (network)',
    async () => {
      const validation = await validateManifest(write('online.xml', xmlManifest(props)), true);
      expect(validation.report).toBeDefined();
      expect(validation.isValid).toBe(true);
    },
  );
});
