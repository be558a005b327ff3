import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { client, makeAccount, makeEmployee, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import { mailWorkerTo } from '../../../../test/helpers/mail-worker.js';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { loadConfig } from '../../../core/config.js';
import { runScheduledWork } from '../../../workers/scheduler.js';
import { launchPhishingCampaign } from '../campaigns/campaigns.launch.commands.js';
import { senderPolicyOf } from './settings.sender.service.js';

// A simulation's sender (issue 21, item 2): name, address and domain per campaign, defaults per
// account in Phishing settings, and a domain that is an IP address or localhost refused unless
// the operator allows it (PHISHING_ALLOW_LOCAL_SENDER), the refusal naming that setting.

const DAY = 86_400_000;
let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: 'https://training.example.com' });
  smtp = await startSmtpServer();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

async function setup() {
  const account = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  const { key } = await makeKey(t.app, { accountId: account.id });
  const ann = await makeEmployee(t.app, account.id, { first_name: 'Ann' });
  const group = await makeGroup(t.app, account.id, 'Everyone');
  await client(t.app, key).put(`/customer/groups/${group.id}/`, { employee_ids: [ann.id] });
  return {
    accountId: account.id,
    admin,
    ann,
    group: group.id,
    settings: `/accounts/${account.id}/phishing/settings`,
    campaigns: `/accounts/${account.id}/phishing/campaigns`,
  };
}

const readyCampaign = (group: number, extra: Record<string, unknown> = {}) => ({
  name: 'Sender test',
  group_ids: [group],
  template_keys: ['builtin:benefits-enrolment-deadline'],
  window_start_at: new Date(Date.now() - DAY).toISOString(),
  window_end_at: new Date(Date.now() + 2 * DAY).toISOString(),
  weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  hour_start: 0,
  hour_end: 24,
  ...extra,
});

/** Sends everything due by the end of the window to the test SMTP server; the From of the mail to `email`. */
async function fromHeaderOf(email: string): Promise<string | undefined> {
  await mailWorkerTo(t.app.db, smtp, {
    now: Date.now() + 3 * DAY,
    baseUrl: 'https://training.example.com',
    phishBaseUrl: 'https://training.example.com',
    from: 'Training <training@training.example.com>',
  }).drain();
  const mail = smtp.accepted.filter((m) => m.recipients.includes(email)).at(-1);
  return /^From: (.*)$/m.exec(mail?.raw ?? '')?.[1]?.trim();
}

describe('the sender of simulations', () => {
  it('keeps the account’s default sender in Phishing settings, and says what applies when none is set', async () => {
    const { admin, settings } = await setup();
    const before = await send(admin, 'GET', settings);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({
      sender_name: null,
      sender_address: null,
      sender_domain: null,
      default_sender_domain: 'training.example.com',
      local_sender_allowed: false,
    });
    const saved = await send(admin, 'PUT', settings, {
      sender_name: 'IT Service Desk',
      sender_address: 'it-desk',
      sender_domain: 'Mail.Acme-Notices.example.',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      sender_name: 'IT Service Desk',
      sender_address: 'it-desk',
      sender_domain: 'mail.acme-notices.example',
      scanner_networks: [],
    });
    // The scanner networks left out are kept; the sender left out too.
    await send(admin, 'PUT', settings, { scanner_networks: ['203.0.113.0/24'] });
    expect((await send(admin, 'GET', settings)).json()).toMatchObject({
      sender_name: 'IT Service Desk',
      scanner_networks: ['203.0.113.0/24'],
    });
    // Empty clears.
    const cleared = await send(admin, 'PUT', settings, { sender_name: '', sender_address: null });
    expect(cleared.json()).toMatchObject({ sender_name: null, sender_address: null });
  });

  it('refuses an IP address or localhost as the sender domain, naming the setting that allows it', async () => {
    const { admin, settings, campaigns, group } = await setup();
    for (const domain of ['10.0.0.5', '127.0.0.1', 'localhost', 'mail.localhost', 'mailhost', '0x7f000001']) {
      const res = await send(admin, 'PUT', settings, { sender_domain: domain });
      expect(res.statusCode, `${domain}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject(coded('validation_failed'));
      expect(res.json().details.sender_domain[0]).toContain('PHISHING_ALLOW_LOCAL_SENDER');
    }
    const campaign = await send(
      admin,
      'POST',
      campaigns,
      readyCampaign(group, { sender_domain: '192.168.1.20' }),
    );
    expect(campaign.statusCode, campaign.body).toBe(400);
    expect(campaign.json().details.sender_domain[0]).toMatch(
      /not an IP address \(the operator allows it with PHISHING_ALLOW_LOCAL_SENDER=on, then restarts Vigil\)/,
    );
    expect((await send(admin, 'GET', settings)).json().sender_domain).toBeNull();
  });

  it('refuses a sender name, address or domain that would add a header, and changes nothing', async () => {
    const { admin, settings, campaigns, group } = await setup();
    const hostile = [
      { sender_name: 'Payroll\r\nBcc: everyone@victim.example' },
      { sender_name: 'Payroll\nX-Vigil-Simulation: forged' },
      { sender_name: 'Payroll\u2028Bcc: x@y.example' },
      { sender_address: 'payroll@evil.example' },
      { sender_address: 'pay roll' },
      { sender_address: 'payroll\r\nBcc: x@y.example' },
      { sender_address: '<payroll>' },
      { sender_domain: 'example.com\r\nBcc: x@y.example' },
      { sender_domain: 'example.com>, <x@evil.example' },
      { sender_domain: 'exa mple.com' },
      { sender_domain: `${'a'.repeat(64)}.example` },
      { sender_name: 'x'.repeat(101) },
      { sender_name: 'Hi {{first_name}}' },
      { sender_name: 42 },
    ];
    for (const body of hostile) {
      const field = Object.keys(body)[0] as string;
      const res = await send(admin, 'PUT', settings, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().details ?? {})).toEqual([field]);
      const created = await send(admin, 'POST', campaigns, readyCampaign(group, body));
      expect(created.statusCode, `${JSON.stringify(body)}: ${created.body}`).toBe(400);
    }
    expect((await send(admin, 'GET', settings)).json()).toMatchObject({
      sender_name: null,
      sender_address: null,
      sender_domain: null,
    });
    expect((await send(admin, 'GET', campaigns)).json().count).toBe(0);
  });

  it('sends from the campaign’s sender, else the account’s default, else the template’s at PHISH_URL’s host', async () => {
    const { accountId, admin, ann, settings, campaigns, group } = await setup();
    // Nothing chosen: the template's own name and address, the host of PHISH_URL.
    const plain = await send(admin, 'POST', campaigns, readyCampaign(group));
    expect(plain.json()).toMatchObject({ sender_name: null, sender_address: null, sender_domain: null });
    await send(admin, 'POST', `${campaigns}/${plain.json().id}/launch`);
    expect(await fromHeaderOf(ann.email)).toBe('Benefits Team <benefits@training.example.com>');
    await send(admin, 'POST', `${campaigns}/${plain.json().id}/stop`);

    // The account's defaults.
    await send(admin, 'PUT', settings, {
      sender_name: 'IT Service Desk',
      sender_address: 'it-desk',
      sender_domain: 'mail.acme-notices.example',
    });
    const byAccount = await send(admin, 'POST', campaigns, readyCampaign(group));
    await send(admin, 'POST', `${campaigns}/${byAccount.json().id}/launch`);
    expect(await fromHeaderOf(ann.email)).toBe('IT Service Desk <it-desk@mail.acme-notices.example>');
    await send(admin, 'POST', `${campaigns}/${byAccount.json().id}/stop`);

    // The campaign's own, part by part (the domain left to the account).
    const own = await send(
      admin,
      'POST',
      campaigns,
      readyCampaign(group, { sender_name: 'Payroll "Team"', sender_address: 'payroll.notices' }),
    );
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ sender_name: 'Payroll "Team"', sender_address: 'payroll.notices' });
    const preview = await send(admin, 'GET', `${campaigns}/${own.json().id}/launch-preview`);
    expect(preview.json().sender_domain).toBe('mail.acme-notices.example');
    await send(admin, 'POST', `${campaigns}/${own.json().id}/launch`);
    expect(await fromHeaderOf(ann.email)).toBe(
      '"Payroll \\"Team\\"" <payroll.notices@mail.acme-notices.example>',
    );
    expect(accountId).toBeGreaterThan(0);
  });

  it('refuses to launch or schedule from a local domain of PHISH_URL, unless the operator allows it', async () => {
    const { accountId, admin, campaigns, group } = await setup();
    const created = await send(admin, 'POST', campaigns, readyCampaign(group));
    const id = created.json().id;
    const strict = { allowLocal: false, defaultDomain: '127.0.0.1' };
    const refused = launchPhishingCampaign(t.app.db, {
      accountId,
      campaignId: id,
      trigger: 'now',
      sender: strict,
    });
    await expect(refused).rejects.toMatchObject({ code: 'validation_failed' });
    const details = await refused.catch((e: { details: Record<string, string[]> }) => e.details);
    expect(details.sender_domain?.[0]).toBe(
      '127.0.0.1 (the host of PHISH_URL, used when no sender domain is set) is not allowed: a sender domain must be a public domain name, not an IP address (the operator allows it with PHISHING_ALLOW_LOCAL_SENDER=on, then restarts Vigil); set a sender domain on the campaign or in Phishing settings',
    );
    expect((await send(admin, 'GET', `${campaigns}/${id}`)).json().status).toBe('draft');
    // A development start (links on this machine) allows it: the README's first steps send.
    const dev = senderPolicyOf(undefined, 'http://127.0.0.1:8080');
    expect(dev).toEqual({ allowLocal: true, defaultDomain: '127.0.0.1' });
    const launched = await launchPhishingCampaign(t.app.db, {
      accountId,
      campaignId: id,
      trigger: 'now',
      sender: dev,
    });
    expect(launched.status).toBe('running');
  });

  it('checks the domain again when the scheduler launches: refused since it was scheduled, back to draft', async () => {
    const { accountId, admin, campaigns, group } = await setup();
    const opens = Date.now() + DAY;
    const window = {
      window_start_at: new Date(opens).toISOString(),
      window_end_at: new Date(opens + 2 * DAY).toISOString(),
    };
    const id = (await send(admin, 'POST', campaigns, readyCampaign(group, window))).json().id;
    // Scheduled while PHISH_URL's host (this server's, training.example.com) was allowed.
    expect((await send(admin, 'POST', `${campaigns}/${id}/schedule`)).statusCode).toBe(200);
    // By the time the window opens, the instance sends from a local address, not allowed.
    const warnings: [object, string][] = [];
    const log = { info() {}, warn: (obj: object, msg: string) => void warnings.push([obj, msg]), error() {} };
    await runScheduledWork(t.app.db, opens + 60_000, log, {
      config: loadConfig({ PHISHING_ALLOW_LOCAL_SENDER: 'off' }),
      baseUrl: 'http://127.0.0.1:8080',
    });
    const refused = (await send(admin, 'GET', `${campaigns}/${id}`)).json();
    expect(refused.status).toBe('draft');
    expect(refused.launched_at).toBeNull();
    expect(warnings).toEqual([
      [
        expect.objectContaining({
          campaign: id,
          account: accountId,
          details: { sender_domain: [expect.stringMatching(/^127\.0\.0\.1 \(the host of PHISH_URL/)] },
        }),
        'scheduler: a phishing campaign could not launch',
      ],
    ]);
    // Scheduled again, on an instance whose domain is allowed, it launches.
    expect((await send(admin, 'POST', `${campaigns}/${id}/schedule`)).statusCode).toBe(200);
    await runScheduledWork(t.app.db, opens + 60_000, log, {
      config: loadConfig({}),
      baseUrl: 'https://training.example.com',
    });
    expect((await send(admin, 'GET', `${campaigns}/${id}`)).json().status).toBe('running');
  });

  it('reads PHISHING_ALLOW_LOCAL_SENDER: unset follows where links point, on or off decides', () => {
    expect(loadConfig({}).phishing.allowLocalSender).toBeUndefined();
    expect(loadConfig({ PHISHING_ALLOW_LOCAL_SENDER: 'on' }).phishing.allowLocalSender).toBe(true);
    expect(loadConfig({ PHISHING_ALLOW_LOCAL_SENDER: 'false' }).phishing.allowLocalSender).toBe(false);
    expect(() => loadConfig({ PHISHING_ALLOW_LOCAL_SENDER: 'maybe' })).toThrow(/PHISHING_ALLOW_LOCAL_SENDER/);
    expect(senderPolicyOf(undefined, 'https://phish.example.net').allowLocal).toBe(false);
    expect(senderPolicyOf(undefined, 'http://10.0.0.5:8080')).toEqual({
      allowLocal: false,
      defaultDomain: '10.0.0.5',
    });
    expect(senderPolicyOf(true, 'http://10.0.0.5:8080').allowLocal).toBe(true);
    expect(senderPolicyOf(false, 'http://localhost:8080').allowLocal).toBe(false);
  });
});
