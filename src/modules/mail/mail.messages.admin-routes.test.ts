import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminMethod, adminSender, signInAs } from '../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { coded } from '../../../test/helpers/errors.js';
import { makeAccount } from '../../../test/helpers/factories.js';
import { campaignMessages, makeActiveCampaign } from '../../../test/helpers/mail-fixtures.js';
import { manualClock } from '../../core/outbox/clock.js';
import { drainMailQueue } from '../../workers/mail-worker.js';
import { outboxTransport } from './mail.transport.service.js';

// The outbox routes of the admin API: per route 401 → 404 for another account → 400 → success.

let t: TestApp;
let smtpApp: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  // Only the summary reads SMTP_URL; nothing is sent in this file.
  smtpApp = await buildTestApp({ SMTP_URL: 'smtp://user:secret@127.0.0.1:2525' });
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

/** Sends what is due through the outbox, as the workers would. */
function sendQueued(app = t.app) {
  return drainMailQueue({
    db: app.db,
    transport: outboxTransport(),
    baseUrl: 'https://vigil.example.com',
    from: 'Training <training@vigil.example.com>',
    ratePerMinute: 1_000_000,
    concurrency: 1,
    maxAttempts: 3,
    retryBaseMs: 60_000,
    leaseMs: 60_000,
    linkTtlMs: 86_400_000,
    log: { info() {}, warn() {}, error() {} },
    clock: manualClock(Date.now()),
  });
}

async function accounts() {
  const mine = await makeAccount(t.app);
  const theirs = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: mine.id });
  const theirCampaign = await makeActiveCampaign(t.app.db, theirs.id, { people: 1 });
  const [theirMessage] = await campaignMessages(t.app.db, theirCampaign.campaignId);
  return {
    mine: mine.id,
    theirs: theirs.id,
    admin,
    theirMessage: theirMessage?.id as number,
    base: `/accounts/${mine.id}`,
  };
}

const ROUTES: Array<[AdminMethod, string]> = [
  ['GET', '/messages'],
  ['GET', '/messages/summary'],
  ['GET', '/messages/:id'],
  ['POST', '/messages/:id/retry'],
];

describe('access to the outbox', () => {
  it('answers 401 without a session', async () => {
    const { base, theirMessage } = await accounts();
    for (const [method, path] of ROUTES) {
      const res = await send(undefined, method, `${base}${path.replace(':id', String(theirMessage))}`);
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.json()).toEqual({ error: 'Sign-in required', status: 401, ...coded('sign_in_required') });
    }
  });

  it('answers 404 Account not found on another account’s path', async () => {
    const { theirs, admin, theirMessage } = await accounts();
    for (const [method, path] of ROUTES) {
      const res = await send(
        admin,
        method,
        `/accounts/${theirs}${path.replace(':id', String(theirMessage))}`,
      );
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'Account not found', status: 404, ...coded('account_not_found') });
    }
  });

  it('answers 404 Message not found for another account’s message on our path', async () => {
    const { base, admin, theirMessage } = await accounts();
    for (const [method, path] of ROUTES.filter(([, p]) => p.includes(':id'))) {
      for (const id of [theirMessage, 'abc', '99999999999999999999']) {
        const res = await send(admin, method, `${base}${path.replace(':id', String(id))}`);
        expect(res.statusCode, `${method} ${path} ${id}`).toBe(404);
        expect(res.json()).toEqual({
          error: 'Message not found',
          status: 404,
          ...coded('message_not_found'),
        });
      }
    }
    // …and it is not in our list either.
    expect((await send(admin, 'GET', `${base}/messages`)).json()).toEqual({ count: 0, results: [] });
  });
});

describe('the outbox', () => {
  it('lists messages newest first, filtered by status and campaign, refusing an unknown status', async () => {
    const { mine, base, admin } = await accounts();
    const first = await makeActiveCampaign(t.app.db, mine, {
      name: 'First',
      people: [{ first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' }],
    });
    const second = await makeActiveCampaign(t.app.db, mine, { name: 'Second', people: 2 });
    const list = (await send(admin, 'GET', `${base}/messages`)).json();
    expect(list.count).toBe(3);
    expect(list.results.map((m: { id: number }) => m.id)).toEqual(
      [...list.results.map((m: { id: number }) => m.id)].sort((a, b) => b - a),
    );
    const ann = list.results.find((m: { campaign: { name: string } }) => m.campaign.name === 'First');
    const [annRow] = await campaignMessages(t.app.db, first.campaignId);
    expect(ann).toEqual({
      id: annRow?.id,
      kind: 'invitation',
      status: 'queued',
      to_address: 'ann.lee@example.com',
      subject: null,
      // Training mail goes from MAIL_FROM; it carries no header of its own.
      from: t.app.config.mail.from,
      headers: [],
      campaign: { id: first.campaignId, name: 'First' },
      employee: {
        id: first.employeeIds[0],
        first_name: 'Ann',
        last_name: 'Lee',
        email: 'ann.lee@example.com',
      },
      attempts: 0,
      attempts_in_doubt: 0,
      last_error: null,
      transport: null,
      created_at: new Date(annRow?.created_at as number).toISOString(),
      sent_at: null,
      next_attempt_at: new Date(annRow?.next_attempt_at as number).toISOString(),
    });

    const byCampaign = (await send(admin, 'GET', `${base}/messages?campaign_id=${second.campaignId}`)).json();
    expect(byCampaign.count).toBe(2);
    expect(
      byCampaign.results.every((m: { campaign: { id: number } }) => m.campaign.id === second.campaignId),
    ).toBe(true);
    const paged = (await send(admin, 'GET', `${base}/messages?page=2&page_size=2`)).json();
    expect(paged).toMatchObject({ count: 3 });
    expect(paged.results).toHaveLength(1);

    expect((await send(admin, 'GET', `${base}/messages?status=sent`)).json()).toEqual({
      count: 0,
      results: [],
    });
    expect((await send(admin, 'GET', `${base}/messages?status=queued`)).json().count).toBe(3);
    // A campaign id past any real id matches nothing.
    expect((await send(admin, 'GET', `${base}/messages?campaign_id=99999999999999999999`)).json()).toEqual({
      count: 0,
      results: [],
    });
    const bad = await send(admin, 'GET', `${base}/messages?status=lost&campaign_id=x`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: {
        status: ['must be one of: queued, sending, sent, failed, cancelled'],
        campaign_id: ['must be a positive integer'],
      },
    });
  });

  it('shows a sent message with what went out, and counts by status', async () => {
    const { mine, base, admin } = await accounts();
    const c = await makeActiveCampaign(t.app.db, mine, { name: 'Shown', people: 2 });
    await sendQueued();
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    const res = await send(admin, 'GET', `${base}/messages/${row?.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: row?.id,
      status: 'sent',
      transport: 'outbox',
      subject: 'Your security training: Spotting phishing',
      to_address: c.emails[0],
      attempts: 1,
      next_attempt_at: null,
      sent_at: new Date(row?.sent_at as number).toISOString(),
    });
    expect(res.json().body_text).toContain('https://vigil.example.com/learn/');
    expect(res.json().body_html).toContain('Start the training');

    await t.app.db
      .updateTable('messages')
      .set({ status: 'failed', last_error: '550 no' })
      .where('id', '=', row?.id as number)
      .execute();
    const summary = await send(admin, 'GET', `${base}/messages/summary`);
    expect(summary.json()).toEqual({
      transport: 'outbox',
      counts: { queued: 0, sending: 0, sent: 1, failed: 1, cancelled: 0 },
    });
    // With SMTP_URL set, the transport is SMTP (the address itself is never shown).
    const smtpAdmin = await signInAs(smtpApp.app, { role: 'operator' });
    const other = await makeAccount(smtpApp.app);
    const smtpSummary = await adminSender(smtpApp.app)(
      smtpAdmin,
      'GET',
      `/accounts/${other.id}/messages/summary`,
    );
    expect(smtpSummary.json()).toEqual({
      transport: 'smtp',
      counts: { queued: 0, sending: 0, sent: 0, failed: 0, cancelled: 0 },
    });
  });

  it('tells which messages may have arrived twice', async () => {
    const { mine, base, admin } = await accounts();
    const c = await makeActiveCampaign(t.app.db, mine, { people: 2 });
    await sendQueued();
    const [first, second] = await campaignMessages(t.app.db, c.campaignId);
    // What a worker records when it sends again a message whose earlier attempt was handed to
    // the SMTP server and never answered (see mail-worker.test.ts).
    await t.app.db
      .updateTable('messages')
      .set({ attempts: 2, attempts_in_doubt: 1 })
      .where('id', '=', first?.id as number)
      .execute();
    const list = (await send(admin, 'GET', `${base}/messages?campaign_id=${c.campaignId}`)).json();
    expect(
      list.results.map((m: { id: number; attempts_in_doubt: number }) => [m.id, m.attempts_in_doubt]),
    ).toEqual([
      [second?.id, 0],
      [first?.id, 1],
    ]);
    const detail = await send(admin, 'GET', `${base}/messages/${first?.id}`);
    expect(detail.json()).toMatchObject({ status: 'sent', attempts: 2, attempts_in_doubt: 1 });
  });

  it('queues a failed message again, and only a failed one', async () => {
    const { mine, base, admin } = await accounts();
    const c = await makeActiveCampaign(t.app.db, mine, { people: 1 });
    const [row] = await campaignMessages(t.app.db, c.campaignId);
    const id = row?.id as number;
    const notFailed = await send(admin, 'POST', `${base}/messages/${id}/retry`);
    expect(notFailed.statusCode).toBe(409);
    expect(notFailed.json()).toEqual({
      error: 'Only a failed message can be retried',
      status: 409,
      ...coded('message_not_failed'),
    });

    await t.app.db
      .updateTable('messages')
      .set({ status: 'failed', attempts: 8, last_error: '421 too busy', next_attempt_at: 0 })
      .where('id', '=', id)
      .execute();
    const before = Date.now();
    const retried = await send(admin, 'POST', `${base}/messages/${id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id, status: 'queued', attempts: 0, last_error: '421 too busy' });
    expect(Date.parse(retried.json().next_attempt_at)).toBeGreaterThanOrEqual(before);

    await sendQueued();
    const [after] = await campaignMessages(t.app.db, c.campaignId);
    expect(after).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  });
});
