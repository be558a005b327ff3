import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../core/errors.js';
import { tokensFromReportedMessage } from './reports.extract.model.js';
import {
  ATTACHED_MESSAGE_MAX_DEPTH,
  ATTACHED_MESSAGES_MAX,
  isSimulationToken,
  REPORTED_MESSAGE_MAX_BYTES,
  ReportedMessageError,
  type ReportedMessageReading,
  TOKEN_PATTERN,
  tokenFromReportBody,
} from './reports.model.js';

const PHISH = 'https://phish.example.com';
const options = { phishUrls: [PHISH, 'https://vigil.example.org/sim'] };
const newToken = () => randomBytes(24).toString('base64url');
const landing = (token: string) => `${PHISH}/v/${token}`;
const image = (token: string) => `${PHISH}/t/${token}.png`;

async function build(mail: Mail.Options): Promise<Buffer> {
  return new MailComposer({ date: new Date('2026-11-24T09:00:00Z'), ...mail }).compile().build();
}

interface SimulationOptions {
  header?: boolean;
  link?: (url: string) => string;
  withImage?: boolean;
  textEncoding?: 'quoted-printable' | 'base64';
}

/** A simulation as Vigil sends it: header, a landing link in both bodies, the tracking image. */
function simulationParts(token: string, o: SimulationOptions = {}) {
  const link = (o.link ?? ((u) => u))(landing(token));
  const html =
    `<p>Dear Jane,</p><p>Your mailbox password expires today. <a href="${link.replace(/&/g, '&amp;')}">Keep my password</a></p>` +
    (o.withImage === false ? '' : `<img src="${image(token)}" width="1" height="1" alt="">`);
  const text = `Dear Jane,\n\nYour mailbox password expires today. Keep it here: ${link}\n`;
  return { html, text };
}

function simulation(token: string, o: SimulationOptions = {}): Promise<Buffer> {
  return build({
    from: '"IT Service Desk" <it-desk@phish.example.com>',
    to: 'jane.doe@example.com',
    subject: 'Action required: password expiry',
    headers: o.header === false ? {} : { 'X-Vigil-Simulation': token },
    textEncoding: o.textEncoding,
    ...simulationParts(token, o),
  });
}

/** What a report button or "Forward as attachment" sends: a note, and the original attached. */
function withAttached(original: Buffer, attachment: Partial<Mail.Attachment> = {}): Promise<Buffer> {
  return build({
    from: 'jane.doe@example.com',
    to: 'phishing-reports@example.com',
    subject: 'Phishing report: Action required: password expiry',
    text: 'This message was reported as phishing by the user.',
    attachments: [
      { filename: 'Action required.eml', content: original, contentType: 'message/rfc822', ...attachment },
    ],
  });
}

/** What reading finds of tokens (the safe view has tests of its own). */
async function tokensOf(raw: Buffer): Promise<Omit<ReportedMessageReading, 'content'>> {
  const { content: _view, ...found } = await tokensFromReportedMessage(raw, options);
  return found;
}

describe('tokensFromReportedMessage', () => {
  it('finds the token in the X-Vigil-Simulation header', async () => {
    const token = newToken();
    const raw = await build({
      from: 'a@phish.example.com',
      subject: 'Hi',
      text: 'No link',
      headers: { 'X-Vigil-Simulation': token },
    });
    expect(await tokensOf(raw)).toEqual({ tokens: [token], sources: { [token]: 'header' }, skipped: [] });
  });

  it('finds the token in a landing link when the header is gone', async () => {
    const token = newToken();
    const raw = await simulation(token, { header: false, withImage: false });
    expect(await tokensOf(raw)).toEqual({ tokens: [token], sources: { [token]: 'link' }, skipped: [] });
  });

  it('finds the token in the tracking image alone', async () => {
    const token = newToken();
    const raw = await build({ from: 'a@phish.example.com', html: `<p>Hello</p><img src="${image(token)}">` });
    expect(await tokensOf(raw)).toEqual({ tokens: [token], sources: { [token]: 'image' }, skipped: [] });
  });

  it('finds the link in the quoted body of a message forwarded inline', async () => {
    const token = newToken();
    const original = simulationParts(token, { withImage: false });
    // Outlook's Forward: a new message, no X-Vigil-Simulation, the original quoted below a note.
    const raw = await build({
      from: 'jane.doe@example.com',
      to: 'security@example.com',
      subject: 'FW: Action required: password expiry',
      html: `<div>Is this real?</div><hr><div><b>From:</b> IT Service Desk &lt;it-desk@phish.example.com&gt;</div>${original.html}`,
      text: `Is this real?\n\n________________________________\nFrom: IT Service Desk\n\n${original.text}`,
    });
    expect(await tokensOf(raw)).toEqual({ tokens: [token], sources: { [token]: 'link' }, skipped: [] });
  });

  it('reads the header of a message forwarded as an attachment', async () => {
    const token = newToken();
    const raw = await withAttached(await simulation(token), { contentDisposition: 'attachment' });
    expect(await tokensOf(raw)).toEqual({ tokens: [token], sources: { [token]: 'header' }, skipped: [] });
  });

  it('reads an .eml attached as application/octet-stream, as some report buttons send it', async () => {
    const token = newToken();
    const raw = await withAttached(await simulation(token, { withImage: false }), {
      contentType: 'application/octet-stream',
    });
    expect((await tokensOf(raw)).sources).toEqual({ [token]: 'header' });
  });

  it('reads a message attached to a forward attached to a report (double nesting)', async () => {
    const token = newToken();
    const forwarded = await withAttached(await simulation(token, { withImage: false }));
    const report = await withAttached(forwarded, { filename: 'FW Action required.eml' });
    expect(await tokensOf(report)).toEqual({ tokens: [token], sources: { [token]: 'header' }, skipped: [] });
  });

  it('reads an attached message that a client encoded in base64', async () => {
    const token = newToken();
    const original = (await simulation(token, { header: false }))
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
    const raw = Buffer.from(
      'From: jane.doe@example.com\r\nSubject: report\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n' +
        '--b1\r\nContent-Type: text/plain\r\n\r\nReported.\r\n' +
        `--b1\r\nContent-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="original.eml"\r\n\r\n${original}\r\n--b1--\r\n`,
    );
    expect((await tokensOf(raw)).sources).toEqual({ [token]: 'link' });
  });

  it('reads the header part of a bounce or an abuse report (text/rfc822-headers)', async () => {
    const token = newToken();
    const raw = Buffer.from(
      'From: postmaster@example.com\r\nSubject: Abuse report\r\nMIME-Version: 1.0\r\n' +
        'Content-Type: multipart/report; report-type=feedback-report; boundary="r"\r\n\r\n' +
        '--r\r\nContent-Type: text/plain\r\n\r\nA user reported this message.\r\n' +
        `--r\r\nContent-Type: text/rfc822-headers\r\n\r\nSubject: Action required\r\nX-Vigil-Simulation: ${token}\r\n--r--\r\n`,
    );
    expect((await tokensOf(raw)).sources).toEqual({ [token]: 'header' });
  });

  it.each([
    [
      'Microsoft Safe Links',
      (u: string) =>
        `https://eur02.safelinks.protection.outlook.com/?url=${encodeURIComponent(u)}&data=05%7C02%7Cjane%40example.com%7C8f1e&sdata=Xy%2Bz%3D&reserved=0`,
    ],
    [
      'Proofpoint v2',
      (u: string) =>
        `https://urldefense.proofpoint.com/v2/url?u=${u.replace(/[^A-Za-z0-9./]/g, (c) => `-${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/\//g, '_')}&d=DwMFaQ&c=abc&r=def&m=ghi&s=jkl&e=`,
    ],
    [
      'Proofpoint v3',
      (u: string) => `https://urldefense.com/v3/__${u}?src=mail*lang=en__;Jg!!ABcD1234!efGH5678ijKL$`,
    ],
    [
      'Safe Links around Proofpoint',
      (u: string) =>
        `https://nam12.safelinks.protection.outlook.com/?url=${encodeURIComponent(`https://urldefense.com/v3/__${u}__;!!Q!w$`)}&data=x&reserved=0`,
    ],
    [
      'a Google redirect',
      (u: string) =>
        `https://www.google.com/url?q=${encodeURIComponent(u)}&sa=D&source=editors&ust=1764000000000000&usg=AOvVaw0`,
    ],
  ])('finds a link rewritten by %s', async (_name, rewrite) => {
    const token = newToken();
    const raw = await simulation(token, { header: false, withImage: false, link: rewrite });
    expect(await tokensOf(raw)).toEqual({ tokens: [token], sources: { [token]: 'link' }, skipped: [] });
  });

  it('finds nothing behind a Mimecast link: the header or an attached original is needed then', async () => {
    const token = newToken();
    const mimecast = () => 'https://protect-eu.mimecast.com/s/AbCdEfGhIjKlMnOp?domain=phish.example.com';
    const forwarded = await simulation(token, { header: false, withImage: false, link: mimecast });
    expect((await tokensOf(forwarded)).tokens).toEqual([]);
    const attached = await withAttached(await simulation(token, { withImage: false, link: mimecast }));
    expect((await tokensOf(attached)).tokens).toEqual([token]);
  });

  it('ignores tokens on another host, under another path, and token-looking text', async () => {
    const token = newToken();
    const raw = await build({
      from: 'a@example.com',
      html: `<a href="https://evil.example.net/v/${token}">x</a><a href="https://vigil.example.org/v/${token}">y</a>`,
      text: `Reference ${token}\nX-Vigil-Simulation: ${token}\nhttp://phish.example.com/v/${token}\n`,
      headers: { 'X-Vigil-Simulation': 'not-a-token' },
    });
    expect((await tokensOf(raw)).tokens).toEqual([]);
  });

  it('reads bodies in quoted-printable and in base64', async () => {
    for (const textEncoding of ['quoted-printable', 'base64'] as const) {
      const token = newToken();
      const safe = (u: string) =>
        `https://eur02.safelinks.protection.outlook.com/?url=${encodeURIComponent(u)}&data=05%7C02%7C${'a'.repeat(120)}&reserved=0`;
      const raw = await simulation(token, { header: false, link: safe, textEncoding });
      expect(raw.toString()).toContain(`Content-Transfer-Encoding: ${textEncoding}`);
      expect(await tokensOf(raw)).toEqual({ tokens: [token], sources: { [token]: 'link' }, skipped: [] });
    }
  });

  it('lists distinct tokens, header first, then links, then images', async () => {
    const [a, b, c] = [newToken(), newToken(), newToken()];
    const raw = await build({
      from: 'a@phish.example.com',
      headers: { 'X-Vigil-Simulation': a },
      html: `<img src="${image(c)}"><a href="${landing(b)}">b</a><a href="${landing(a)}">a</a><img src="${image(b)}">`,
    });
    expect(await tokensOf(raw)).toEqual({
      tokens: [a, b, c],
      sources: { [a]: 'header', [b]: 'link', [c]: 'image' },
      skipped: [],
    });
  });

  it('gives an empty list for a message without a token', async () => {
    const raw = await build({
      from: 'a@example.com',
      subject: 'Lunch?',
      text: 'See https://example.com/menu',
    });
    expect(await tokensOf(raw)).toEqual({ tokens: [], sources: {}, skipped: [] });
  });

  it('says an attached Outlook .msg file that is no Outlook item could not be read', async () => {
    const token = newToken();
    const msg = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), randomBytes(512)]);
    const raw = await build({
      from: 'jane.doe@example.com',
      text: `Reported.`,
      attachments: [
        { filename: 'Action required.msg', content: msg, contentType: 'application/vnd.ms-outlook' },
      ],
      headers: { 'X-Vigil-Simulation': token },
    });
    expect(await tokensOf(raw)).toEqual({
      tokens: [token],
      sources: { [token]: 'header' },
      skipped: ['unreadable'],
    });
  });

  it('refuses an Outlook .msg file sent as the message itself', async () => {
    const msg = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), randomBytes(512)]);
    await expect(tokensOf(msg)).rejects.toMatchObject({ reason: 'outlook_msg', status: 400 });
  });

  it('refuses a message over the size limit', async () => {
    const raw = Buffer.alloc(REPORTED_MESSAGE_MAX_BYTES + 1, 'a');
    const error = await tokensOf(raw).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ReportedMessageError);
    expect(error).toMatchObject({ reason: 'too_large', status: 413 });
  });

  it('stops descending past the depth limit', async () => {
    const token = newToken();
    let raw = await simulation(token, { withImage: false });
    for (let i = 0; i <= ATTACHED_MESSAGE_MAX_DEPTH; i++) raw = await withAttached(raw);
    expect(await tokensOf(raw)).toEqual({ tokens: [], sources: {}, skipped: ['too_deep'] });
  });

  it('opens a bounded number of attached messages', async () => {
    const tokens = Array.from({ length: ATTACHED_MESSAGES_MAX + 2 }, newToken);
    const attachments = await Promise.all(
      tokens.map(async (t) => ({
        filename: 'x.eml',
        contentType: 'message/rfc822',
        content: await simulation(t),
      })),
    );
    const result = await tokensOf(await build({ from: 'a@example.com', text: 'Too many', attachments }));
    expect(result.tokens).toEqual(tokens.slice(0, ATTACHED_MESSAGES_MAX));
    expect(result.skipped).toEqual(['too_many', 'too_many']);
  });

  it('refuses a message that cannot be read in the time allowed', async () => {
    const raw = await simulation(newToken());
    await expect(tokensFromReportedMessage(raw, { ...options, timeLimitMs: 0 })).rejects.toMatchObject({
      reason: 'too_slow',
    });
  });

  it('reads malformed messages without throwing anything but its own error', async () => {
    const token = newToken();
    const samples = [
      '',
      'no header at all',
      `X-Vigil-Simulation ${token}\r\n\r\n`,
      'Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: message/rfc822\r\n\r\n',
      'Content-Type: multipart/mixed\r\n\r\n--\r\n--',
      `Content-Type: text/html; charset=x-unknown\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!${'<a href="'.repeat(1000)}`,
      `Content-Type: multipart/mixed; boundary=b\r\n\r\n${'--b\r\nContent-Type: text/plain\r\n\r\nx\r\n'.repeat(600)}--b--`,
      `Subject: ${'x'.repeat(2 * 1024 * 1024)}\r\n\r\nbody`,
      '\u0000\u0001\u0002\r\n\r\n\u00ff\u00fe',
    ];
    for (const sample of samples) {
      const outcome = await tokensOf(Buffer.from(sample, 'latin1')).catch((err: unknown) => err);
      if (outcome instanceof Error) expect(outcome).toBeInstanceOf(ReportedMessageError);
      else expect(outcome).toEqual({ tokens: [], sources: {}, skipped: expect.any(Array) });
    }
  });

  it('never throws anything but ReportedMessageError, whatever the bytes', async () => {
    const mailLike = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            'Content-Type: multipart/mixed; boundary=b\r\n',
            'Content-Type: message/rfc822\r\n',
            'Content-Transfer-Encoding: base64\r\n',
            'Content-Transfer-Encoding: quoted-printable\r\n',
            `X-Vigil-Simulation: ${newToken()}\r\n`,
            '\r\n',
            '--b\r\n',
            '--b--\r\n',
            `<a href="${landing(newToken())}">`,
            '=\r\n',
          ),
          fc.string({ maxLength: 40 }),
        ),
        { maxLength: 30 },
      )
      .map((parts) => Buffer.from(parts.join('')));
    const bytes = fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b));
    await fc.assert(
      fc.asyncProperty(fc.oneof(bytes, mailLike), async (raw) => {
        const outcome = await tokensOf(raw).catch((err: unknown) => err);
        if (outcome instanceof Error) expect(outcome).toBeInstanceOf(ReportedMessageError);
        else
          for (const token of (outcome as ReportedMessageReading).tokens)
            expect(isSimulationToken(token)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('tokenFromReportBody', () => {
  it('accepts a token, trimmed', () => {
    const token = newToken();
    expect(tokenFromReportBody({ token: ` ${token}\n` })).toBe(token);
    expect(TOKEN_PATTERN.test(token)).toBe(true);
  });

  it.each([
    [{}, { token: ['is required'] }],
    [{ token: '' }, { token: ['is required'] }],
    [{ token: ' \t' }, { token: ['is required'] }],
    [{ token: 42 }, { token: ['must be a string'] }],
    [{ token: 'abc' }, { token: ['must be a simulation token: 32 letters, digits, "-" or "_"'] }],
    [
      { token: `${'a'.repeat(31)}!` },
      { token: ['must be a simulation token: 32 letters, digits, "-" or "_"'] },
    ],
    [[], { body: ['must be an object'] }],
    [null, { body: ['must be an object'] }],
  ])('refuses %j with field errors', (body, details) => {
    const error = (() => {
      try {
        tokenFromReportBody(body);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'validation_failed', status: 400, details });
  });
});
