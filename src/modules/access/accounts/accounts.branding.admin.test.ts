import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded, validationFailedBody } from '../../../../test/helpers/errors.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { JPEG_START, pngLogo, SCRIPTED_SVG, WEBP_START } from '../../../../test/helpers/logos.js';
import { LOGO_MAX_BYTES, sniffLogo } from './accounts.branding.model.js';

// Issue 21, item 5: the name and logo employees see, set by the account's administrators in
// account settings. A logo is untrusted bytes: what they are decides, never the declared type.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function admin(name = 'Acme Holdings Ltd') {
  const account = await makeAccount(t.app, name);
  const as = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  const base = `/admin/api/accounts/${account.id}/settings`;
  const upload = (bytes: Buffer, type = 'image/png') =>
    t.app.inject({
      method: 'PUT',
      url: `${base}/logo`,
      headers: { ...as.headers, 'content-type': type },
      payload: bytes,
    });
  return { account, as, base, upload, send: adminSender(t.app) };
}

describe('the name employees see', () => {
  it('is the account’s name until an administrator sets one, and again once it is emptied', async () => {
    const { account, as, send } = await admin();
    const url = `/accounts/${account.id}/settings`;
    const initial = await send(as, 'GET', url);
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({
      name: 'Acme Holdings Ltd',
      display_name: null,
      shown_name: 'Acme Holdings Ltd',
      logo: null,
      logo_max_bytes: LOGO_MAX_BYTES,
    });
    const set = await send(as, 'PATCH', url, { display_name: '  Acme  ' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ display_name: 'Acme', shown_name: 'Acme' });
    expect((await send(as, 'GET', url)).json()).toMatchObject({ display_name: 'Acme' });
    const emptied = await send(as, 'PATCH', url, { display_name: '' });
    expect(emptied.json()).toMatchObject({ display_name: null, shown_name: 'Acme Holdings Ltd' });
  });

  it('refuses a name too long, on two lines, or a field it does not know, and changes nothing', async () => {
    const { account, as, send } = await admin();
    const url = `/accounts/${account.id}/settings`;
    const long = await send(as, 'PATCH', url, { display_name: 'x'.repeat(151) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual(validationFailedBody({ display_name: [expect.stringContaining('150')] }));
    const lines = await send(as, 'PATCH', url, { display_name: 'Acme\nLtd' });
    expect(lines.statusCode).toBe(400);
    const unknown = await send(as, 'PATCH', url, { display_name: 'A', campaign_name: 'B' });
    expect(unknown.statusCode).toBe(400);
    expect((await send(as, 'GET', url)).json()).toMatchObject({ display_name: null });
  });
});

describe('the logo', () => {
  it('takes a PNG, JPEG or WebP by its bytes, and serves it back with that type, nosniff and a CSP that runs nothing', async () => {
    const { as, base, upload } = await admin();
    const logo = pngLogo(120, 40);
    const saved = await upload(logo);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().logo).toEqual({
      content_type: 'image/png',
      byte_size: logo.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      updated_at: expect.any(String),
    });
    const served = await t.app.inject({ method: 'GET', url: `${base}/logo`, headers: as.headers });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(logo)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    // A PNG sent as a JPEG is stored as what it is.
    expect((await upload(logo, 'image/jpeg')).json().logo.content_type).toBe('image/png');
    const jpeg = Buffer.concat([JPEG_START, Buffer.alloc(64)]);
    expect((await upload(jpeg, 'image/jpeg')).json().logo.content_type).toBe('image/jpeg');
    expect((await upload(WEBP_START, 'image/webp')).json().logo.content_type).toBe('image/webp');
  });

  it('refuses an SVG, HTML or anything else however it is labelled, and keeps the logo it had', async () => {
    const { as, base, upload } = await admin();
    await upload(pngLogo());
    for (const [bytes, type] of [
      [SCRIPTED_SVG, 'image/png'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'image/jpeg'],
      [Buffer.from('GIF89a\x01\x00\x01\x00'), 'image/webp'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'], // a PNG's first bytes only
    ] as const) {
      const res = await upload(bytes, type);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(validationFailedBody({ logo: ['must be a PNG, JPEG or WebP image'] }));
    }
    const svg = await upload(SCRIPTED_SVG, 'image/svg+xml');
    expect(svg.statusCode).toBe(415);
    expect(svg.json()).toEqual({
      error: 'Unsupported media type',
      status: 415,
      ...coded('unsupported_media_type'),
    });
    const empty = await upload(Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    const served = await t.app.inject({ method: 'GET', url: `${base}/logo`, headers: as.headers });
    expect(served.headers['content-type']).toBe('image/png');
  });

  it('refuses one over 256 KiB before reading it', async () => {
    const { upload, account, as, send } = await admin();
    const big = pngLogo(8, 8, [0, 0, 0], LOGO_MAX_BYTES);
    expect(big.length).toBeGreaterThan(LOGO_MAX_BYTES);
    const res = await upload(big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413, ...coded('payload_too_large') });
    const justFits = pngLogo(8, 8, [0, 0, 0], LOGO_MAX_BYTES - 200);
    expect(justFits.length).toBeLessThanOrEqual(LOGO_MAX_BYTES);
    expect((await upload(justFits)).statusCode).toBe(200);
    expect((await send(as, 'GET', `/accounts/${account.id}/settings`)).json().logo.byte_size).toBe(
      justFits.length,
    );
  });

  it('is removed, after which it is not found', async () => {
    const { as, base, upload } = await admin();
    await upload(pngLogo());
    const removed = await t.app.inject({ method: 'DELETE', url: `${base}/logo`, headers: as.headers });
    expect(removed.statusCode).toBe(204);
    const gone = await t.app.inject({ method: 'GET', url: `${base}/logo`, headers: as.headers });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Logo not found', status: 404, ...coded('account_logo_not_found') });
    const again = await t.app.inject({ method: 'DELETE', url: `${base}/logo`, headers: as.headers });
    expect(again.statusCode).toBe(404);
  });

  it('is never another account’s to see or change', async () => {
    const mine = await admin();
    const theirs = await admin();
    await theirs.upload(pngLogo());
    const url = `/admin/api/accounts/${theirs.account.id}/settings/logo`;
    const read = await t.app.inject({ method: 'GET', url, headers: mine.as.headers });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject(coded('account_not_found'));
  });
});

describe('what a logo is', () => {
  it('is read from the first bytes alone', () => {
    expect(sniffLogo(pngLogo(1, 1))).toBe('image/png');
    expect(sniffLogo(JPEG_START)).toBe('image/jpeg');
    expect(sniffLogo(WEBP_START)).toBe('image/webp');
    expect(sniffLogo(SCRIPTED_SVG)).toBeNull();
    expect(sniffLogo(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffLogo(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffLogo(new Uint8Array(0))).toBeNull();
  });
});
