import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount, makeEmployee } from '../../../../test/helpers/factories.js';
import { mailWorkerTo } from '../../../../test/helpers/mail-worker.js';
import { BROWSER } from '../../../../test/helpers/phishing.js';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { loadConfig } from '../../../core/config.js';
import { isTestToken } from './delivery.model.js';

// Delivery that lands (issue 22, item 8): the allow-listing sheet with the account's values, and a
// test send to one employee whose hits are recorded (scanner or person) outside every campaign.

const DAY = 86_400_000;
let t: TestApp;
let withIps: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  t = await buildTestApp({
    PUBLIC_URL: 'https://training.example.com',
    PHISH_URL: 'https://phish.example.net',
    SMTP_URL: 'smtp://relay-user:s3cret@smtp.relay.example:587',
  });
  withIps = await buildTestApp({
    PUBLIC_URL: 'https://training.example.com',
    PHISH_URL: 'https://phish.example.net',
    PHISHING_SENDING_IPS: '203.0.113.25, 198.51.100.0/24,2001:db8::/48',
  });
  smtp = await startSmtpServer();
});

async function setup(app = t.app) {
  const account = await makeAccount(app);
  const admin = await signInAs(app, { role: 'account_admin', accountId: account.id });
  const ann = await makeEmployee(app, account.id, { first_name: 'Ann' });
  const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(app)(...args);
  return { accountId: account.id, admin, ann, send, base: `/accounts/${account.id}/phishing` };
}

const TEMPLATE = 'builtin:benefits-enrolment-deadline';

/** Sends what is due to the SMTP sink; the mail to `email`. */
async function deliver(app: TestApp['app'], email: string) {
  await mailWorkerTo(app.db, smtp, {
    now: Date.now() + 1000,
    baseUrl: 'https://training.example.com',
    phishBaseUrl: 'https://phish.example.net',
  }).drain();
  return smtp.accepted.filter((m) => m.recipients.includes(email));
}

describe('the allow-listing sheet', () => {
  it('names PHISH_URL’s host as the sending domain and the SMTP host without credentials when nothing is set', async () => {
    const { admin, send, base } = await setup();
    const res = await send(admin, 'GET', `${base}/delivery`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      sending_domains: [
        { domain: 'phish.example.net', sources: [expect.stringContaining('the host of PHISH_URL')] },
      ],
      sending_ips: [],
      smtp_host: 'smtp.relay.example',
      simulation_urls: ['phish.example.net/*'],
      simulation_header: 'X-Vigil-Simulation',
    });
    expect(res.body).not.toContain('s3cret');
    expect(res.body).not.toContain('relay-user');
  });

  it('lists the account’s own sender domain, its campaigns’ domains, its header and the operator’s sending IPs', async () => {
    const { admin, send, base } = await setup(withIps.app);
    await send(admin, 'PUT', `${base}/settings`, {
      sender_domain: 'mail.acme-notices.example',
      simulation_header: 'X-Acme-Drill',
    });
    const campaign = (name: string, extra: Record<string, unknown>) =>
      send(admin, 'POST', `${base}/campaigns`, {
        name,
        group_ids: [],
        template_keys: [TEMPLATE],
        window_start_at: new Date(Date.now() + DAY).toISOString(),
        window_end_at: new Date(Date.now() + 3 * DAY).toISOString(),
        ...extra,
      });
    expect((await campaign('Payroll', { sender_domain: 'payroll-portal.example' })).statusCode).toBe(201);
    expect((await campaign('Plain', {})).statusCode).toBe(201);
    const res = await send(admin, 'GET', `${base}/delivery`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      sending_domains: [
        {
          domain: 'mail.acme-notices.example',
          sources: [expect.stringContaining('default sender domain'), 'the draft campaign “Plain”'],
        },
        { domain: 'payroll-portal.example', sources: ['the draft campaign “Payroll”'] },
      ],
      sending_ips: ['203.0.113.25', '198.51.100.0/24', '2001:db8::/48'],
      smtp_host: null,
      simulation_urls: ['phish.example.net/*'],
      simulation_header: 'X-Acme-Drill',
    });
  });

  it('reads PHISHING_SENDING_IPS: addresses and networks, refusing anything else by name', () => {
    expect(loadConfig({}).phishing.sendingIps).toEqual([]);
    expect(
      loadConfig({ PHISHING_SENDING_IPS: ' 203.0.113.25 ,203.0.113.25,10.0.0.0/8' }).phishing.sendingIps,
    ).toEqual(['203.0.113.25', '10.0.0.0/8']);
    for (const bad of ['relay.example', '203.0.113.0/33', '203.0.113.5/24', '0.0.0.0/0', '1.2.3']) {
      expect(() => loadConfig({ PHISHING_SENDING_IPS: bad }), bad).toThrow(/PHISHING_SENDING_IPS/);
    }
  });
});

describe('a test send', () => {
  it('sends one simulation to an employee and records a scanner’s probe as automated and a browser’s click as human', async () => {
    const { admin, ann, send, base, accountId } = await setup();
    const created = await send(admin, 'POST', `${base}/delivery/test-sends`, {
      email: ann.email.toUpperCase(),
      template_key: TEMPLATE,
    });
    expect(created.statusCode, created.body).toBe(201);
    const testSend = created.json();
    expect(testSend).toMatchObject({
      email: ann.email,
      employee_id: ann.id,
      template_key: TEMPLATE,
      status: 'queued',
      verdict: 'queued',
      hits: [],
    });

    // Exactly one message, through the queue, ahead of bulk mail.
    const queued = await t.app.db
      .selectFrom('messages')
      .select(['kind', 'priority', 'to_address'])
      .where('account_id', '=', accountId)
      .execute();
    expect(queued).toEqual([{ kind: 'simulation_test', priority: 0, to_address: ann.email }]);

    const mails = await deliver(t.app, ann.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0] as NonNullable<(typeof mails)[0]>;
    const token = /^X-Vigil-Simulation: (\S+)$/m.exec(mail.raw)?.[1] ?? '';
    expect(isTestToken(token)).toBe(true);
    expect(mail.html).toContain(`https://phish.example.net/v/${token}`);
    expect(mail.html).toContain(`https://phish.example.net/t/${token}.png`);
    expect((await send(admin, 'GET', `${base}/delivery/test-sends/${testSend.id}`)).json()).toMatchObject({
      status: 'sent',
      verdict: 'waiting',
      delivered_at: expect.any(String),
    });

    // A link checker's HEAD, then an image proxy, then a person's browser (after the delivery window).
    const probe = await t.app.inject({
      method: 'HEAD',
      url: `/v/${token}`,
      headers: { 'user-agent': BROWSER },
    });
    expect(probe.statusCode).toBe(200);
    const prefetch = await t.app.inject({
      method: 'GET',
      url: `/v/${token}`,
      headers: { 'user-agent': BROWSER, 'sec-purpose': 'prefetch' },
    });
    expect(prefetch.statusCode).toBe(200);
    await t.app.db
      .updateTable('phishing_test_sends')
      .set({ delivered_at: Date.now() - 10 * 60_000 })
      .where('id', '=', testSend.id)
      .execute();
    const image = await t.app.inject({
      method: 'GET',
      url: `/t/${token}.png`,
      headers: { 'user-agent': BROWSER },
    });
    expect(image.headers['content-type']).toBe('image/png');
    const click = await t.app.inject({
      method: 'GET',
      url: `/v/${token}`,
      headers: { 'user-agent': BROWSER },
    });
    expect(click.statusCode).toBe(200);
    expect(click.body).toContain('This was a test message');

    const watched = (await send(admin, 'GET', `${base}/delivery/test-sends/${testSend.id}`)).json();
    expect(watched).toMatchObject({ verdict: 'human', human_hits: 2, automated_hits: 2 });
    expect(
      watched.hits.map((h: { kind: string; method: string; classification: string; reason: string }) => [
        h.kind,
        h.method,
        h.classification,
        h.reason,
      ]),
    ).toEqual([
      ['link', 'HEAD', 'automated', 'head_request'],
      ['link', 'GET', 'automated', 'prefetch'],
      ['image', 'GET', 'human', 'browser'],
      ['link', 'GET', 'human', 'browser'],
    ]);
    expect(watched.hits[0].reason_text).toContain('HEAD');
    expect(watched.hits[3]).toMatchObject({ user_agent: BROWSER, client_address: '127.0.0.1' });
    // The list shows it too.
    const list = (await send(admin, 'GET', `${base}/delivery/test-sends`)).json();
    expect(list.data.map((s: { id: number }) => s.id)).toEqual([testSend.id]);

    // Outside every campaign: no phishing event of the account was written.
    const events = await t.app.db
      .selectFrom('phishing_events')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    expect(events).toEqual([]);
  });

  it('refuses an address that is not an employee of the account, another account’s employee included, and queues nothing', async () => {
    const { admin, send, base, accountId } = await setup();
    const other = await setup();
    for (const email of ['stranger@elsewhere.example', other.ann.email, '']) {
      const res = await send(admin, 'POST', `${base}/delivery/test-sends`, { email, template_key: TEMPLATE });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject(coded('validation_failed'));
      expect(Object.keys(res.json().details)).toEqual(['email']);
    }
    const unknownTemplate = await send(admin, 'POST', `${base}/delivery/test-sends`, {
      email: (await makeEmployee(t.app, accountId)).email,
      template_key: 'builtin:no-such-template',
    });
    expect(unknownTemplate.statusCode).toBe(404);
    expect(unknownTemplate.json()).toMatchObject(coded('phishing_template_not_found'));
    const queued = await t.app.db
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    expect(queued).toEqual([]);
  });

  it('is invisible to another account, and its hits to another account’s token', async () => {
    const mine = await setup();
    const theirs = await setup();
    const created = await mine.send(mine.admin, 'POST', `${mine.base}/delivery/test-sends`, {
      email: mine.ann.email,
      template_key: TEMPLATE,
    });
    const id = created.json().id;
    const seen = await theirs.send(theirs.admin, 'GET', `${theirs.base}/delivery/test-sends/${id}`);
    expect(seen.statusCode).toBe(404);
    expect(seen.json()).toMatchObject(coded('test_send_not_found'));
    const listed = await theirs.send(theirs.admin, 'GET', `${theirs.base}/delivery/test-sends`);
    expect(listed.json().data).toEqual([]);
    // Their administrator cannot reach mine through my path either.
    const crossed = await theirs.send(theirs.admin, 'GET', `${mine.base}/delivery/test-sends/${id}`);
    expect(crossed.statusCode).toBe(404);
  });

  it('forgets a deleted employee’s test sends', async () => {
    const { admin, send, base, accountId, ann } = await setup();
    const created = await send(admin, 'POST', `${base}/delivery/test-sends`, {
      email: ann.email,
      template_key: TEMPLATE,
    });
    expect(created.statusCode).toBe(201);
    const del = await send(admin, 'DELETE', `/accounts/${accountId}/employees/${ann.id}`);
    expect(del.statusCode).toBe(204);
    expect((await send(admin, 'GET', `${base}/delivery/test-sends`)).json().data).toEqual([]);
    expect((await send(admin, 'GET', `${base}/delivery/test-sends/${created.json().id}`)).statusCode).toBe(
      404,
    );
  });

  it('answers a made-up test token as any unknown token, and records nothing', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v/${'A'.repeat(40)}`,
      headers: { 'user-agent': BROWSER },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This link is not active');
    const image = await t.app.inject({ method: 'GET', url: `/t/${'A'.repeat(40)}.png` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
  });

  it('allows ten test sends an hour per account, then answers 429 with Retry-After', async () => {
    const { admin, ann, send, base, accountId } = await setup();
    for (let i = 0; i < 10; i++) {
      const res = await send(admin, 'POST', `${base}/delivery/test-sends`, {
        email: ann.email,
        template_key: TEMPLATE,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await send(admin, 'POST', `${base}/delivery/test-sends`, {
      email: ann.email,
      template_key: TEMPLATE,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject(coded('too_many_test_sends'));
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    const sends = await t.app.db
      .selectFrom('phishing_test_sends')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    expect(sends).toHaveLength(10);
  });
});
