import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { afterFile } from '../../test/helpers/cleanup.js';
import { openMigrated } from '../../test/helpers/database.js';
import {
  campaignMessages,
  DAY_MS,
  makeAccountRow,
  makeActiveCampaign,
} from '../../test/helpers/mail-fixtures.js';
import { freePort } from '../../test/helpers/server-process.js';
import { countByRecipient, startSmtpServer, type TestSmtpServer } from '../../test/helpers/smtp.js';
import type { Db } from '../core/db/database.js';
import { manualClock } from '../core/outbox/clock.js';
import { claimDueMessagesOfAllAccounts } from '../modules/mail/mail.repository.js';
import {
  type MailTransport,
  outboxTransport,
  smtpTransport,
} from '../modules/mail/mail.transport.service.js';
import { learnerLinkSecret, readLearnerToken } from '../modules/training/learner/learner.links.service.js';
import { MailWorker, type MailWorkerOptions, type WorkerLog } from './mail-worker.js';

// The mail worker against a real SMTP server (smtp-server), on the database under test. Most
// tests drive the worker with a manual clock, so back-off and the send rate are exact.

const BASE_URL = 'https://vigil.example.com';
const MINUTE = 60_000;

let t: TestApp;
let smtp: TestSmtpServer;
const transports: MailTransport[] = [];
const logLines: { level: string; msg: string }[] = [];
const log: WorkerLog = {
  info: (_obj, msg) => logLines.push({ level: 'info', msg }),
  warn: (_obj, msg) => logLines.push({ level: 'warn', msg }),
  error: (_obj, msg) => logLines.push({ level: 'error', msg }),
};

beforeAll(async () => {
  t = await buildTestApp();
  smtp = await startSmtpServer();
});

afterEach(async () => {
  smtp.behaviour = {};
  await Promise.all(transports.splice(0).map((tr) => tr.close()));
});

function smtpOut(concurrency = 2): MailTransport {
  const transport = smtpTransport({ smtpUrl: smtp.url, concurrency, timeoutMs: 5000 });
  transports.push(transport);
  return transport;
}

function worker(overrides: Partial<MailWorkerOptions> = {}): MailWorker {
  return new MailWorker({
    db: t.app.db,
    transport: overrides.transport ?? smtpOut(overrides.concurrency),
    baseUrl: BASE_URL,
    from: 'Security training <training@vigil.example.com>',
    ratePerMinute: 1_000_000,
    concurrency: 2,
    maxAttempts: 8,
    retryBaseMs: MINUTE,
    leaseMs: 2 * MINUTE,
    linkTtlMs: 30 * DAY_MS,
    log,
    random: () => 0.5, // no jitter: the back-off is exact
    ...overrides,
  });
}

async function campaign(options: Parameters<typeof makeActiveCampaign>[2] = {}) {
  const account = await makeAccountRow(t.app.db, 'Acme & Sons');
  return makeActiveCampaign(t.app.db, account.id, options);
}

const mailTo = (address: string) => smtp.received.filter((m) => m.recipients.includes(address));

describe('sending an invitation', () => {
  it('delivers it with a personal link, the names escaped in HTML, and records what went out', async () => {
    const c = await campaign({
      people: [{ first_name: '<img src=x onerror=alert(1)>', last_name: 'Evil' }],
      name: 'Phishing <b>drill</b>',
      dueAt: Date.UTC(2030, 11, 6, 17),
    });
    const clock = manualClock(Date.now());
    const totals = await worker({ clock }).drain();
    expect(totals).toEqual({ sent: 1, retried: 0, failed: 0, cancelled: 0 });

    const [mail] = mailTo(c.emails[0] as string);
    expect(mail).toBeDefined();
    if (!mail) return;
    expect(mail.subject).toBe('Your security training: Spotting phishing');
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)>,');
    expect(mail.text).toContain('Acme & Sons has asked you');
    expect(mail.text).toContain('Friday 6 December 2030');
    expect(mail.html).toContain('Hello &lt;img src=x onerror=alert(1)&gt;,');
    expect(mail.html).toContain('Acme &amp; Sons');
    // The campaign's name is the administrators' word: not in the mail at all.
    expect(mail.raw).not.toContain('drill');
    expect(mail.html).not.toMatch(/<img|<b>/);

    // The link opens this enrollment's learner page, and lasts the configured time.
    const link = /https:\/\/vigil\.example\.com\/learn\/(\S+)/.exec(mail.text);
    expect(link).not.toBeNull();
    const token = readLearnerToken(await learnerLinkSecret(t.app.db), link?.[1] ?? '', clock.now());
    expect(token).toMatchObject({ valid: true, expired: false, enrollmentId: c.enrollmentIds[0] });
    if (token.valid) expect(Math.abs(token.expiresAt - (clock.now() + 30 * DAY_MS))).toBeLessThan(1000);
    expect(mail.html).toContain(`href="${link?.[0]}"`);

    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 1,
      sent_at: clock.now(),
      transport: 'smtp',
      to_address: c.emails[0],
      subject: mail.subject,
      message_id: `<vigil-msg-${row?.id}@vigil.example.com>`,
      locked_until: null,
      last_error: null,
    });
    expect(mail.messageId).toBe(row?.message_id);
    expect(row?.body_text?.trim()).toBe(mail.text.replace(/\r\n/g, '\n').trim());
  });

  it('sends through the built-in outbox when there is no SMTP server', async () => {
    const c = await campaign();
    const clock = manualClock(Date.now());
    await worker({ clock, transport: outboxTransport() }).drain();
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'sent', transport: 'outbox', to_address: c.emails[0] });
    expect(row?.body_html).toContain('Start the training');
    expect(mailTo(c.emails[0] as string)).toHaveLength(0);
  });

  it('keeps at most `concurrency` messages in flight and logs one line per batch', async () => {
    const c = await campaign({ people: 12 });
    smtp.peakInFlight = 0;
    smtp.behaviour.onMessage = async () => {
      await delay(20);
      return undefined;
    };
    const before = logLines.length;
    const totals = await worker({ concurrency: 3, batchSize: 6 }).drain();
    expect(totals.sent).toBe(12);
    expect(smtp.peakInFlight).toBe(3);
    const lines = logLines.slice(before);
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(2); // two batches of 6
    expect(countByRecipient(smtp.accepted).get(c.emails[11] as string)).toBe(1);
  });
});

describe('failures', () => {
  it('retries a 4xx with exponential back-off, then delivers with the same Message-ID', async () => {
    const c = await campaign();
    const clock = manualClock(Date.now());
    const to = c.emails[0] as string;
    smtp.behaviour.onMessage = (mail) =>
      mail.recipients.includes(to) && mailTo(to).length <= 2
        ? { code: 451, message: '4.3.0 Mailbox busy, try again later' }
        : undefined;
    const w = worker({ clock });

    const t0 = clock.now();
    expect(await w.drain()).toMatchObject({ retried: 1, sent: 0 });
    let [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({
      status: 'queued',
      attempts: 1,
      next_attempt_at: t0 + MINUTE,
      locked_until: null,
    });
    expect(row?.last_error).toContain('451');

    expect(await w.drain()).toMatchObject({ retried: 0, sent: 0 }); // not due yet
    clock.advance(MINUTE);
    expect(await w.drain()).toMatchObject({ retried: 1 });
    [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'queued', attempts: 2, next_attempt_at: t0 + 3 * MINUTE });

    clock.advance(2 * MINUTE);
    expect(await w.drain()).toMatchObject({ sent: 1 });
    [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null, sent_at: t0 + 3 * MINUTE });

    const attempts = mailTo(to);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((m) => m.messageId))).toEqual(new Set([row?.message_id]));
    expect(smtp.accepted.filter((m) => m.recipients.includes(to))).toHaveLength(1);
  });

  it('fails a message at once on 550, with the server’s reason', async () => {
    const c = await campaign({ people: 2 });
    const clock = manualClock(Date.now());
    const [bad, good] = c.emails as [string, string];
    smtp.behaviour.onRecipient = (address) =>
      address === bad ? { code: 550, message: '5.1.1 Mailbox unavailable' } : undefined;
    expect(await worker({ clock }).drain()).toMatchObject({ sent: 1, failed: 1, retried: 0 });
    const rows = await campaignMessages(t.app.db, c.campaignId);
    const failed = rows.find((r) => r.status === 'failed');
    expect(failed).toMatchObject({ attempts: 1, locked_until: null, sent_at: null });
    expect(failed?.last_error).toMatch(/^550 5\.1\.1 Mailbox unavailable/);
    expect(countByRecipient(smtp.accepted).get(good)).toBe(1);
    expect(countByRecipient(smtp.accepted).get(bad)).toBeUndefined();
  });

  it('never keeps or logs the learner token when the server’s reply quotes the link', async () => {
    const c = await campaign();
    const clock = manualClock(Date.now());
    let token = '';
    smtp.behaviour.onMessage = (mail) => {
      token = /\/learn\/(\S+)/.exec(mail.text)?.[1] ?? 'no link';
      return { code: 554, message: `5.7.1 Rejected: suspicious link ${BASE_URL}/learn/${token}` };
    };
    expect(await worker({ clock }).drain()).toMatchObject({ failed: 1 });
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(token.length).toBeGreaterThan(40);
    expect(row?.last_error).toContain(`${BASE_URL}/learn/[redacted]`);
    expect(row?.last_error).not.toContain(token);
  });

  it('gives up after the configured number of attempts', async () => {
    const c = await campaign();
    const clock = manualClock(Date.now());
    const to = c.emails[0] as string;
    smtp.behaviour.onMessage = (mail) =>
      mail.recipients.includes(to) ? { code: 421, message: '4.7.0 Too many connections' } : undefined;
    const w = worker({ clock, maxAttempts: 3 });
    const outcomes = [];
    for (let i = 0; i < 4; i++) {
      outcomes.push(await w.drain());
      clock.advance(6 * 3_600_000);
    }
    expect(outcomes.map((o) => [o.retried, o.failed])).toEqual([
      [1, 0],
      [1, 0],
      [0, 1],
      [0, 0],
    ]);
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row?.last_error).toContain('421');
    expect(mailTo(to)).toHaveLength(3);
  });
});

describe('a worker that dies mid-send', () => {
  const lease = 2 * MINUTE;
  const inDoubtWarnings = () => logLines.filter((l) => l.msg.includes('may have been delivered')).length;

  /** A transport that delivers through `inner`, then never returns: its worker is as good as dead. */
  function diesAfterSending(inner: MailTransport): MailTransport {
    return {
      kind: inner.kind,
      send: async (mail, handOff) => {
        await inner.send(mail, handOff);
        await new Promise(() => {});
      },
      close: () => inner.close(),
    };
  }

  async function waitFor(what: string, check: () => boolean | Promise<boolean>) {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await delay(10);
    }
  }

  it('records what goes out before the final ".", and after the 250 only flips the status', async () => {
    const c = await campaign({ name: 'Phases' });
    const clock = manualClock(Date.now());
    let held: Awaited<ReturnType<typeof campaignMessages>>[number] | undefined;
    smtp.behaviour.onMessage = async () => {
      // The whole message has arrived, the 250 not yet given: what does the queue say?
      [held] = await campaignMessages(t.app.db, c.campaignId);
      return undefined;
    };
    const sendingAt = clock.now();
    expect(await worker({ clock }).drain()).toMatchObject({ sent: 1 });
    expect(held).toMatchObject({
      status: 'sending',
      handed_over_at: sendingAt,
      transport: 'smtp',
      to_address: c.emails[0],
      subject: 'Your security training: Spotting phishing',
      message_id: `<vigil-msg-${held?.id}@vigil.example.com>`,
      sent_at: null,
    });
    expect(held?.body_html).toContain('Start the training');
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({
      status: 'sent',
      handed_over_at: null,
      attempts_in_doubt: 0,
      sent_at: sendingAt,
    });
    expect(row?.body_text).toBe(held?.body_text);

    // Recorded as sent, it never goes out again.
    clock.advance(2 * lease);
    expect(await worker({ clock }).drain()).toMatchObject({ sent: 0 });
    expect(mailTo(c.emails[0] as string)).toHaveLength(1);
  });

  it('sends at once, not in doubt, a message whose claim ran out before it was handed over', async () => {
    const c = await campaign();
    const clock = manualClock(Date.now());
    // A worker claims the message and dies before sending anything.
    const [claim] = await claimDueMessagesOfAllAccounts(t.app.db, {
      now: clock.now(),
      limit: 50,
      leaseUntil: clock.now() + lease,
    });
    expect(claim).toMatchObject({ attempts: 1, inDoubt: false });
    const warnings = inDoubtWarnings();
    const w = worker({ clock, leaseMs: lease });
    clock.advance(lease - 1);
    expect((await w.drain()).sent).toBe(0);
    clock.advance(2);
    expect((await w.drain()).sent).toBe(1);
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 2,
      attempts_in_doubt: 0,
      handed_over_at: null,
      message_id: `<vigil-msg-${claim?.id}@vigil.example.com>`,
    });
    expect(mailTo(c.emails[0] as string)).toHaveLength(1);
    expect(inDoubtWarnings()).toBe(warnings);
  });

  it('sends again, in doubt and with the same Message-ID, a message accepted by the server but never recorded', async () => {
    const c = await campaign();
    const to = c.emails[0] as string;
    const clock = manualClock(Date.now());
    const warnings = inDoubtWarnings();
    // The first worker hands the message over, the server accepts it, and the worker dies
    // before recording the 250.
    void worker({ clock, leaseMs: lease, transport: diesAfterSending(smtpOut()) }).runBatch();
    await waitFor('the first delivery', () => smtp.accepted.some((m) => m.recipients.includes(to)));
    const [handedOver] = await campaignMessages(t.app.db, c.campaignId);
    expect(handedOver).toMatchObject({ status: 'sending', attempts: 1, handed_over_at: clock.now() });

    // Nothing acknowledged is lost: once the claim has run out, the next worker sends it again,
    // as the same message, and counts the attempt in doubt.
    clock.advance(lease + 1);
    expect(await worker({ clock, leaseMs: lease }).drain()).toMatchObject({ sent: 1 });
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, attempts_in_doubt: 1, handed_over_at: null });
    const copies = smtp.accepted.filter((m) => m.recipients.includes(to));
    expect(copies.map((m) => m.messageId)).toEqual([row?.message_id, row?.message_id]);
    expect(inDoubtWarnings()).toBe(warnings + 1);
  });

  it('counts an attempt whose connection was lost after the final "." in doubt, and sends it again', async () => {
    const c = await campaign();
    const to = c.emails[0] as string;
    const clock = manualClock(Date.now());
    // The server takes longer to answer than our timeout, and keeps the message all the same.
    smtp.behaviour.onMessage = async () => {
      if (mailTo(to).length === 1) await delay(600);
      return undefined;
    };
    const transport = smtpTransport({ smtpUrl: smtp.url, concurrency: 1, timeoutMs: 300 });
    transports.push(transport);
    const w = worker({ clock, transport });
    expect(await w.drain()).toMatchObject({ retried: 1 });
    let [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, attempts_in_doubt: 1, handed_over_at: null });
    expect(row?.last_error).toMatch(/timeout/i);

    await waitFor('the late acceptance', () => smtp.accepted.some((m) => m.recipients.includes(to)));
    clock.advance(2 * MINUTE); // the retry's delay and the pause for the server
    expect(await w.drain()).toMatchObject({ sent: 1 });
    [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, attempts_in_doubt: 1 });
    const copies = smtp.accepted.filter((m) => m.recipients.includes(to));
    expect(copies.map((m) => m.messageId)).toEqual([row?.message_id, row?.message_id]);
  });

  it('never lets the SMTP server have a message whose claim ran out before it was handed over', async () => {
    const c = await campaign();
    const to = c.emails[0] as string;
    const clock = manualClock(Date.now());
    const inner = smtpOut(1);
    // The worker stalls mid-transaction past its lease (the message's last byte is written when
    // the hand-off is asked for).
    const stalls: MailTransport = {
      kind: 'smtp',
      send: (mail, handOff) =>
        inner.send(mail, async () => {
          clock.advance(lease);
          await handOff();
        }),
      close: () => inner.close(),
    };
    expect(await worker({ clock, leaseMs: lease, transport: stalls }).drain()).toMatchObject({
      sent: 0,
      retried: 0,
      failed: 0,
    });
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    expect(row).toMatchObject({ status: 'sending', attempts: 1, handed_over_at: null, attempts_in_doubt: 0 });
    expect(mailTo(to)).toHaveLength(0); // the transaction was cut before its final "."

    // The next worker sends it, plainly: the first never handed it over.
    clock.advance(1);
    expect(await worker({ clock, leaseMs: lease }).drain()).toMatchObject({ sent: 1 });
    expect(await campaignMessages(t.app.db, c.campaignId)).toMatchObject([
      { status: 'sent', attempts: 2, attempts_in_doubt: 0 },
    ]);
    expect(mailTo(to)).toHaveLength(1);
  });

  it('does not count a dead worker’s outbox delivery in doubt: nothing had left the server', async () => {
    const c = await campaign();
    const clock = manualClock(Date.now());
    void worker({ clock, leaseMs: lease, transport: diesAfterSending(outboxTransport()) }).runBatch();
    await waitFor(
      'the hand-off',
      async () => (await campaignMessages(t.app.db, c.campaignId))[0]?.handed_over_at != null,
    );
    clock.advance(lease + 1);
    expect(await worker({ clock, leaseMs: lease, transport: outboxTransport() }).drain()).toMatchObject({
      sent: 1,
    });
    expect(await campaignMessages(t.app.db, c.campaignId)).toMatchObject([
      { status: 'sent', attempts: 2, attempts_in_doubt: 0, transport: 'outbox' },
    ]);
  });
});

describe('an unavailable mail server', () => {
  it('pauses the worker instead of spending every message’s attempts, and resumes when it is back', async () => {
    const port = await freePort();
    const down = smtpTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, concurrency: 1, timeoutMs: 2000 });
    transports.push(down);
    const c = await campaign({ people: 4 });
    const clock = manualClock(Date.now());
    const w = worker({ clock, transport: down, concurrency: 1 });
    const attempts = async () => (await campaignMessages(t.app.db, c.campaignId)).map((m) => m.attempts);

    // One message finds the server down; the rest of the batch goes back untouched.
    expect(await w.drain()).toMatchObject({ retried: 1, sent: 0, failed: 0 });
    expect((await attempts()).sort()).toEqual([0, 0, 0, 1]);
    const [probe] = (await campaignMessages(t.app.db, c.campaignId)).filter((m) => m.attempts === 1);
    expect(probe?.last_error).toMatch(/ECONNREFUSED/);
    clock.advance(MINUTE - 1);
    expect(await w.drain()).toMatchObject({ retried: 0 }); // still pausing

    clock.advance(1);
    expect(await w.drain()).toMatchObject({ retried: 1 }); // the next probe; now a 2-minute pause
    expect((await attempts()).sort()).toEqual([0, 0, 1, 1]);

    const back = await startSmtpServer({}, port);
    clock.advance(2 * MINUTE);
    expect(await w.drain()).toMatchObject({ sent: 4, retried: 0 });
    expect(back.accepted).toHaveLength(4);
    const rows = await campaignMessages(t.app.db, c.campaignId);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    expect(logLines.filter((l) => l.msg.includes('pausing')).length).toBeGreaterThanOrEqual(2);
  });
});

describe('slow sends', () => {
  it('start only in the first half of a claim’s lease; the rest of the batch goes back and is sent next', async () => {
    const c = await campaign({ people: 5 });
    // Sends of 600 ms and a lease of 2 s: two start in each claim's first second, the third goes
    // back. (With 150 ms and 400 ms a busy machine's pause of 50 ms let a claim run out mid-send.)
    smtp.behaviour.onMessage = async () => {
      await delay(600);
      return undefined;
    };
    const before = logLines.length;
    const totals = await worker({ concurrency: 1, batchSize: 10, leaseMs: 2_000 }).drain();
    expect(totals).toMatchObject({ sent: 5, retried: 0, failed: 0 });
    const batches = logLines.slice(before).filter((l) => l.msg === 'mail batch sent');
    expect(batches.length).toBeGreaterThanOrEqual(2);
    const rows = await campaignMessages(t.app.db, c.campaignId);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(Array(5).fill(['sent', 1]));
    const counts = countByRecipient(smtp.accepted);
    for (const email of c.emails) expect(counts.get(email)).toBe(1);
  });
});

describe('what is not sent', () => {
  it('cancels the messages of a campaign stopped before they went out', async () => {
    const c = await campaign({ people: 3 });
    const clock = manualClock(Date.now());
    await t.app.db
      .updateTable('training_campaigns')
      .set({ status: 'completed', completed_at: clock.now() })
      .where('id', '=', c.campaignId)
      .execute();
    expect(await worker({ clock }).drain()).toMatchObject({ cancelled: 3, sent: 0 });
    const rows = await campaignMessages(t.app.db, c.campaignId);
    expect(rows.map((r) => [r.status, r.last_error])).toEqual(
      Array(3).fill(['cancelled', 'not sent: the campaign is completed']),
    );
    for (const email of c.emails) expect(mailTo(email)).toHaveLength(0);
  });

  it('cancels a reminder to someone who completed the training meanwhile', async () => {
    const c = await campaign({ people: 2, invite: false });
    const clock = manualClock(Date.now());
    await t.app.db
      .insertInto('messages')
      .values(
        c.enrollmentIds.map((enrollment_id) => ({
          account_id: c.accountId,
          campaign_id: c.campaignId,
          enrollment_id,
          kind: 'reminder' as const,
          round: 3,
          status: 'queued' as const,
          next_attempt_at: clock.now(),
          created_at: clock.now(),
        })),
      )
      .execute();
    await t.app.db
      .updateTable('enrollments')
      .set({ completed_at: clock.now() })
      .where('id', '=', c.enrollmentIds[0] as number)
      .execute();
    expect(await worker({ clock }).drain()).toMatchObject({ cancelled: 1, sent: 1 });
    expect(mailTo(c.emails[0] as string)).toHaveLength(0);
    expect(mailTo(c.emails[1] as string)[0]?.subject).toMatch(/^Reminder: 14 days left for /);
  });
});

describe('the send rate', () => {
  it('sends no more than the configured messages a minute, evenly spread', async () => {
    const c = await campaign({ people: 40 });
    const clock = manualClock(Date.now());
    const t0 = clock.now();
    const totals = await worker({ clock, transport: outboxTransport(), ratePerMinute: 30 }).drain();
    expect(totals.sent).toBe(40);
    const sentAt = (await campaignMessages(t.app.db, c.campaignId)).map((r) => r.sent_at as number).sort();
    expect(sentAt.filter((at) => at < t0 + MINUTE)).toHaveLength(30);
    for (let i = 1; i < sentAt.length; i++) {
      expect((sentAt[i] as number) - (sentAt[i - 1] as number)).toBeGreaterThanOrEqual(2000);
    }
    expect((sentAt[39] as number) - t0).toBe(78_000);
  });
});

describe('several workers on one queue', () => {
  const handles: Db[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const database = await openMigrated(t.databaseUrl);
      afterFile(() => database.close());
      handles.push(database.db);
    }
  });

  it('claim disjoint sets of messages, even at the same moment', async () => {
    const c = await campaign({ people: 60, now: Date.now() - 1000 });
    const now = Date.now();
    const claims = await Promise.all(
      handles.flatMap((db) =>
        [1, 2].map(() => claimDueMessagesOfAllAccounts(db, { now, limit: 10, leaseUntil: now + MINUTE })),
      ),
    );
    const ids = claims.flat().map((claim) => claim.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    // Out of the next tests' way.
    await t.app.db
      .updateTable('messages')
      .set({ status: 'cancelled', locked_until: null })
      .where('campaign_id', '=', c.campaignId)
      .execute();
  });

  it('never send one message twice', async () => {
    const c = await campaign({ people: 150 });
    smtp.behaviour.onMessage = async () => {
      await delay(2);
      return undefined;
    };
    const workers = handles.map((db) => worker({ db, concurrency: 3, batchSize: 10 }));
    const totals = await Promise.all(workers.map((w) => w.drain()));
    expect(totals.reduce((sum, x) => sum + x.sent, 0)).toBe(150);
    expect(totals.every((x) => x.sent > 0)).toBe(true); // they really did share the work
    const counts = countByRecipient(smtp.accepted);
    for (const email of c.emails) expect(counts.get(email), email).toBe(1);
    const rows = await campaignMessages(t.app.db, c.campaignId);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });
});

describe('running in the background', () => {
  it('sends what is queued, and on stop finishes the send in flight and hands the rest back', async () => {
    const c = await campaign({ people: 5 });
    let arrived: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    smtp.behaviour.onMessage = async () => {
      arrived();
      await delay(300);
      return undefined;
    };
    const w = worker({ concurrency: 1, batchSize: 5, pollMs: 50 });
    w.start();
    await first;
    await w.stop();
    const rows = await campaignMessages(t.app.db, c.campaignId);
    const sent = rows.filter((r) => r.status === 'sent');
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBe(c.emails.filter((e) => countByRecipient(smtp.accepted).get(e) === 1).length);
    const rest = rows.filter((r) => r.status !== 'sent');
    expect(rest.length).toBeGreaterThanOrEqual(1);
    for (const r of rest) expect(r).toMatchObject({ status: 'queued', attempts: 0, locked_until: null });

    // Started again, it sends the rest.
    smtp.behaviour = {};
    const again = worker({ pollMs: 20 });
    again.start();
    const deadline = Date.now() + 10_000;
    while ((await campaignMessages(t.app.db, c.campaignId)).some((r) => r.status !== 'sent')) {
      if (Date.now() > deadline) throw new Error('the restarted worker did not send the rest');
      await delay(20);
    }
    await again.stop();
    const counts = countByRecipient(smtp.accepted);
    for (const email of c.emails) expect(counts.get(email)).toBe(1);
  });
});
