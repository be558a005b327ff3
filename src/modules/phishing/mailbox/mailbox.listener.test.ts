import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  gmailForward,
  microsoft365Report,
  type Original,
  phoneForward,
} from '../../../../test/helpers/reporting-mail.js';
import { smtpTalk } from '../../../../test/helpers/smtp-talk.js';
import { REPORT_SMTP_MAX_BYTES_LIMIT, type ReportSmtpConfig } from '../../../core/config-reporting.js';
import { AppError, rateLimited } from '../../../core/errors.js';
import type { IncomingReport, ReportOutcome } from '../reports/reports.intake.service.js';
import { REPORTED_MESSAGE_MAX_BYTES, ReportedMessageError } from '../reports/reports.model.js';
import { type ReportingListener, startReportingListener } from './mailbox.listener.service.js';

// The listener on a real port, fed by nodemailer (and by raw SMTP where nodemailer would not
// send it), with the intake replaced by a recorder that answers as told.

const DOMAIN = 'reports.example.com';
const ACCOUNTS: Record<string, number> = { abcdefghij: 41, klmnopqrst: 42 };
const address = (id: string) => `report+${id}@${DOMAIN}`;
const ADDRESS = address('abcdefghij');

interface Logged {
  level: string;
  obj: object;
  msg: string;
}

interface Harness {
  listener: ReportingListener;
  received: IncomingReport[];
  logged: Logged[];
  /** What the intake does with the next reports (default: a real report). */
  intake: (report: IncomingReport) => Promise<ReportOutcome>;
}

const settings = (over: Partial<ReportSmtpConfig> = {}): ReportSmtpConfig => ({
  port: 0,
  host: '127.0.0.1',
  tls: undefined,
  maxBytes: REPORT_SMTP_MAX_BYTES_LIMIT,
  connectionsPerAddress: 5,
  maxConnections: 100,
  ...over,
});

const opened: Harness[] = [];
async function start(over: Partial<ReportSmtpConfig> = {}, timeouts = {}): Promise<Harness> {
  const h = {
    received: [] as IncomingReport[],
    logged: [] as Logged[],
    intake: async () => ({ kind: 'real', reportId: 7, verdict: null }) as ReportOutcome,
  } as unknown as Harness;
  const log = (level: string) => (obj: object, msg: string) => void h.logged.push({ level, obj, msg });
  h.listener = await startReportingListener({
    settings: settings(over),
    domain: DOMAIN,
    resolveAccount: async (id) => ACCOUNTS[id] ?? null,
    receive: async (report) => {
      h.received.push(report);
      return h.intake(report);
    },
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    name: 'mx.test',
    ...timeouts,
  });
  opened.push(h);
  return h;
}

afterAll(async () => {
  await Promise.all(opened.map((h) => h.listener.close()));
});

function transport(port: number, tls: { ca?: Buffer; require?: boolean } = {}) {
  return createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: !tls.ca,
    requireTLS: tls.require ?? false,
    ...(tls.ca ? { tls: { ca: [tls.ca], servername: 'mx.test' } } : {}),
    connectionTimeout: 5000,
    greetingTimeout: 5000,
  });
}

/** Sends raw mail as a forwarding server would (its envelope sender rewritten with SRS). */
async function send(port: number, raw: string | Buffer, to: string[] = [ADDRESS], tls = {}) {
  const t = transport(port, tls);
  try {
    return await t.sendMail({
      envelope: { from: 'SRS0=abcd=XY=acme.example=ann@forwarder.example', to },
      raw,
    });
  } finally {
    t.close();
  }
}

/** The SMTP refusal nodemailer got: its code and the server's whole reply. */
async function refusal(promise: Promise<unknown>): Promise<{ code: number; response: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { responseCode?: number; response?: string };
    return { code: e.responseCode ?? 0, response: e.response ?? String(err) };
  }
  throw new Error('the message was accepted');
}

const PHISH: Original = {
  from: '"Payroll, Acme" <payroll@phish.example>',
  to: 'Ann Employee <ann@acme.example>',
  subject: 'Your December payslip',
  text: 'Open your payslip: https://phish.example/v/abc123',
};
const REPORTER = 'Ann Employee <ann@acme.example>';

let h: Harness;
beforeAll(async () => {
  h = await start();
});
beforeEach(() => {
  h.received.length = 0;
  h.logged.length = 0;
  h.intake = async () => ({ kind: 'real', reportId: 7, verdict: null });
});

describe('the reporting address', () => {
  it('takes Microsoft 365’s reporting-mailbox message and names the reporter from its From header', async () => {
    const raw = microsoft365Report({ reporter: REPORTER, to: 'phish-reports@acme.example', original: PHISH });
    const info = await send(h.listener.port, raw);
    expect(info.response).toMatch(/^250 2\.6\.0 /);
    expect(h.received).toHaveLength(1);
    const [report] = h.received as [IncomingReport];
    expect(report).toMatchObject({
      accountId: 41,
      channel: 'smtp',
      reporter: 'ann@acme.example',
      envelope: 'forwarded',
      clientAddress: expect.stringMatching(/127\.0\.0\.1$/),
    });
    // The message as sent, byte for byte (SMTP's dot-stuffing undone).
    expect(report.raw.toString('utf8')).toBe(raw);
  });

  it('takes a Gmail forward and a phone forward', async () => {
    await send(
      h.listener.port,
      gmailForward({ reporter: '"Bo, B." <bo@acme.example>', to: ADDRESS, original: PHISH }),
    );
    await send(
      h.listener.port,
      phoneForward({ reporter: '=?utf-8?q?Z=C3=B6e?= <zoe@acme.example>', to: ADDRESS, original: PHISH }),
    );
    expect(h.received.map((r) => r.reporter)).toEqual(['bo@acme.example', 'zoe@acme.example']);
    expect(h.received.map((r) => r.raw.toString())).toEqual([
      expect.stringContaining('---------- Forwarded message ---------'),
      expect.stringContaining('Begin forwarded message:'),
    ]);
  });

  it('matches the address whatever its case, and takes the same account’s address twice as one', async () => {
    await send(h.listener.port, gmailForward({ reporter: REPORTER, to: ADDRESS, original: PHISH }), [
      'Report+ABCDEFGHIJ@Reports.Example.COM',
      ADDRESS,
    ]);
    expect(h.received.map((r) => r.accountId)).toEqual([41]);
  });

  it('refuses a reporter who is not an employee with 550 5.7.1 and the reason', async () => {
    h.intake = async () => {
      throw new AppError('reporter_not_found');
    };
    const raw = gmailForward({
      reporter: 'Mallory <mallory@elsewhere.example>',
      to: ADDRESS,
      original: PHISH,
    });
    const refused = await refusal(send(h.listener.port, raw));
    expect(refused.code).toBe(550);
    expect(refused.response).toBe(
      "550 5.7.1 mallory@elsewhere.example is not an employee of the organisation this reporting address belongs to; only its employees' reports are accepted",
    );
  });

  it('relays nothing: another domain, another local part or an unknown id is 550 5.1.1', async () => {
    for (const to of [
      'ann@acme.example',
      `report+abcdefghij@other.example`,
      `postmaster@${DOMAIN}`,
      address('zzzzzzzzzz'),
      `report+abcdefghij1@${DOMAIN}`,
    ]) {
      const refused = await refusal(
        send(h.listener.port, gmailForward({ reporter: REPORTER, to, original: PHISH }), [to]),
      );
      expect(refused.code, to).toBe(550);
      expect(refused.response, to).toMatch(/^550 5\.1\.1 No such reporting address here; .* relays nothing$/);
    }
    expect(h.received).toEqual([]);
  });

  it('takes one account’s address per message: another account’s is deferred (452)', async () => {
    const talk = await smtpTalk(h.listener.port);
    expect(await talk.reply()).toMatch(/^220 /);
    await talk.command('EHLO client.test');
    expect(await talk.command('MAIL FROM:<x@forwarder.example>')).toMatch(/^250/);
    expect(await talk.command(`RCPT TO:<${address('abcdefghij')}>`)).toMatch(/^250/);
    expect(await talk.command(`RCPT TO:<${address('klmnopqrst')}>`)).toMatch(/^452 4\.5\.3 /);
    talk.end();
  });

  it('announces its size, offers no AUTH, and no STARTTLS without a certificate', async () => {
    const talk = await smtpTalk(h.listener.port);
    await talk.reply();
    const ehlo = (await talk.command('EHLO client.test')) ?? '';
    expect(ehlo).toMatch(new RegExp(`^250[- ]SIZE ${REPORT_SMTP_MAX_BYTES_LIMIT}$`, 'm'));
    expect(ehlo).not.toMatch(/AUTH|STARTTLS/);
    expect(await talk.command('AUTH PLAIN AGFub24Ac2VjcmV0')).toMatch(/^50[02] /);
    talk.end();
  });

  it('refuses a message declared too large at MAIL FROM (SIZE=), before any of it is sent', async () => {
    const talk = await smtpTalk(h.listener.port);
    await talk.reply();
    await talk.command('EHLO client.test');
    expect(
      await talk.command(`MAIL FROM:<x@forwarder.example> SIZE=${REPORT_SMTP_MAX_BYTES_LIMIT + 1}`),
    ).toMatch(/^552 /);
    talk.end();
    expect(h.received).toEqual([]);
  });

  it('cuts a message off with 552 as soon as it passes the limit, without reading the rest', async () => {
    const small = await start({ maxBytes: 64 * 1024 });
    const talk = await smtpTalk(small.listener.port);
    await talk.reply();
    await talk.command('EHLO client.test');
    await talk.command('MAIL FROM:<x@forwarder.example>');
    await talk.command(`RCPT TO:<${ADDRESS}>`);
    expect(await talk.command('DATA')).toMatch(/^354 /);
    const line = `${'x'.repeat(998)}\r\n`;
    await talk.write(`From: ${REPORTER}\r\n\r\n`);
    let sent = 0;
    // Up to 1 MiB, unless the server answers first.
    const answered = talk.reply(20_000);
    while (sent < 1024 * 1024 && !talk.socket.destroyed) {
      await talk.write(line.repeat(16));
      sent += line.length * 16;
      if (talk.socket.readableLength > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await answered).toBe('552 5.3.4 The message is larger than 65536 bytes and is refused');
    await talk.closed;
    expect(small.received).toEqual([]);
  });

  it('answers the intake’s refusals: unreadable 554 5.6.0, busy 451 4.3.2, too many 451 4.7.0, anything else 451 and a log line without the message', async () => {
    const raw = gmailForward({ reporter: REPORTER, to: ADDRESS, original: PHISH });
    h.intake = async () => {
      throw new ReportedMessageError('unreadable');
    };
    expect(await refusal(send(h.listener.port, raw))).toEqual({
      code: 554,
      response: '554 5.6.0 The reported message could not be read as an email',
    });
    h.intake = async () => {
      throw new ReportedMessageError('busy');
    };
    expect((await refusal(send(h.listener.port, raw))).response).toMatch(/^451 4\.3\.2 /);
    h.intake = async () => {
      throw new AppError('reported_messages_busy');
    };
    expect((await refusal(send(h.listener.port, raw))).response).toMatch(/^451 4\.3\.2 /);
    h.intake = async () => {
      throw rateLimited(600);
    };
    expect((await refusal(send(h.listener.port, raw))).response).toBe(
      '451 4.7.0 ann@acme.example has sent more reports this hour than are taken; try again later',
    );
    h.intake = async () => {
      throw new Error(`a parser quoting the mail: ${PHISH.text}`);
    };
    expect((await refusal(send(h.listener.port, raw))).response).toMatch(/^451 4\.3\.0 /);
    const errors = h.logged.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    const logs = JSON.stringify(h.logged);
    for (const secret of ['payslip', 'phish.example', 'ann@acme.example', 'Forwarded']) {
      expect(logs).not.toContain(secret);
    }
  });

  it('refuses a message without a From address, and one whose header passes 64 KiB, with 554 5.6.0', async () => {
    const noFrom = await refusal(send(h.listener.port, 'Subject: hi\r\nTo: x@y.example\r\n\r\nhello\r\n'));
    expect(noFrom.response).toMatch(/^554 5\.6\.0 The message has no From address/);
    const long = `From: ${REPORTER}\r\nX-Long: ${'a'.repeat(70 * 1024)}\r\n\r\nbody\r\n`;
    expect((await refusal(send(h.listener.port, long))).response).toMatch(
      /^554 5\.6\.0 The message header is larger/,
    );
    expect(h.received).toEqual([]);
  });

  it('limits connections per client address, and takes one again once another closes', async () => {
    const limited = await start({ connectionsPerAddress: 3 });
    const talks = await Promise.all([1, 2, 3].map(() => smtpTalk(limited.listener.port)));
    for (const talk of talks) expect(await talk.reply()).toMatch(/^220 /);
    const fourth = await smtpTalk(limited.listener.port);
    expect(await fourth.reply()).toBe('421 4.7.0 Too many connections from your address; try again later');
    await fourth.closed;
    talks[0]?.end();
    await talks[0]?.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await smtpTalk(limited.listener.port);
    expect(await again.reply()).toMatch(/^220 /);
    for (const talk of [...talks, again]) talk.end();
  });

  it('closes a session that outlasts its time limit', async () => {
    const brief = await start({}, { sessionTimeoutMs: 300 });
    const talk = await smtpTalk(brief.listener.port);
    await talk.reply();
    await talk.command('EHLO client.test');
    expect(await talk.reply(5000)).toBe('421 4.4.2 Session time limit reached; closing');
    await talk.closed;
  });

  it('keeps its limit within what the intake reads', () => {
    expect(REPORT_SMTP_MAX_BYTES_LIMIT).toBe(REPORTED_MESSAGE_MAX_BYTES);
  });
});

describe('the reporting address with a certificate', () => {
  let dir: string;
  let cert: Buffer;
  let tls: Harness;
  beforeAll(async () => {
    // A self-signed certificate for mx.test, made here (node:crypto makes no certificates).
    dir = mkdtempSync(join(tmpdir(), 'vigil-report-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=mx.test',
        '-addext',
        'subjectAltName=DNS:mx.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'cert.pem'));
    tls = await start({ tls: { certPath: join(dir, 'cert.pem'), keyPath: join(dir, 'key.pem') } });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('offers STARTTLS and takes a report over it', async () => {
    const talk = await smtpTalk(tls.listener.port);
    await talk.reply();
    expect(await talk.command('EHLO client.test')).toContain('250-STARTTLS');
    talk.end();
    const raw = microsoft365Report({ reporter: REPORTER, to: 'phish-reports@acme.example', original: PHISH });
    const info = await send(tls.listener.port, raw, [ADDRESS], { ca: cert, require: true });
    expect(info.response).toMatch(/^250 /);
    expect(tls.received.map((r) => r.reporter)).toEqual(['ann@acme.example']);
  });
});
