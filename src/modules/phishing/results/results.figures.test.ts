import { beforeAll, describe, expect, it } from 'vitest';
import { type AdminClient, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeKey } from '../../../../test/helpers/factories.js';
import { insertPhishingCampaign } from '../../../../test/helpers/phishing-fixtures.js';

// Figures that mean what they say (issue 21, item 3): phish-prone is one definition everywhere
// (clicked or submitted ÷ delivered: the admin summary, its breakdowns, the Customer API), a
// campaign that fails people on submitting has its own "failed by this campaign's rule" beside it,
// nothing delivered is 0 in the contract (the pages show "—"), and activity in one hour is one
// bucket. A timeline says which events can be reclassified.

let t: TestApp;
let accountId: number;
let key: string;
let admin: AdminClient;

beforeAll(async () => {
  t = await buildTestApp();
  ({ accountId, key } = await makeKey(t.app));
  admin = await signInAs(t.app, { role: 'account_admin', accountId });
});

const get = (url: string) =>
  t.app.inject({ method: 'GET', url: `/admin/api/accounts/${accountId}${url}`, headers: admin.headers });
const summary = async (campaignId: number) => {
  const res = await get(`/phishing/campaigns/${campaignId}/results`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('phish-prone and the campaign’s own failing rule', () => {
  it('counts clicked or submitted for phish-prone, and only the submitted as failed when the campaign fails on submitting', async () => {
    const fx = await insertPhishingCampaign(t.app.db, accountId, {
      name: 'Fails on submitting',
      remedialOn: 'submit',
      groupNames: ['Finance'],
      recipients: [
        { status: 'clicked' },
        { status: 'clicked' },
        { status: 'submitted' },
        { status: 'opened' },
        { status: 'scheduled' },
      ],
    });
    const s = await summary(fx.campaignId);
    expect(s.campaign.remedial_on).toBe('submit');
    // 4 delivered; 3 clicked or submitted; 1 submitted.
    expect(s.all).toMatchObject({
      delivered: 4,
      phished: 3,
      submitted: 1,
      phish_prone_percent: 75,
      failed_by_rule: 1,
      failed_by_rule_percent: 25,
    });
    expect(s.groups).toHaveLength(1);
    expect(s.groups[0]).toMatchObject({
      name: 'Finance',
      phish_prone_percent: 75,
      failed_by_rule: 1,
      failed_by_rule_percent: 25,
    });
    const byTemplate = s.templates.reduce(
      (n: number, x: { failed_by_rule: number }) => n + x.failed_by_rule,
      0,
    );
    expect(byTemplate).toBe(1);

    // The Customer API keeps its contract: phish_prone_percent by the spec's definition, and no new field.
    const api = await client(t.app, key).get(`/customer/campaigns/phishing/${fx.campaignId}/`);
    expect(api.statusCode).toBe(200);
    expect(api.json().phish_prone_percent).toBe(75);
    expect(api.json()).not.toHaveProperty('failed_by_rule');
    expect(api.json()).not.toHaveProperty('failed_by_rule_percent');
    // The campaign page reads the same summary: one definition, one number.
    const campaign = await get(`/phishing/campaigns/${fx.campaignId}`);
    expect(campaign.json()).toMatchObject({ remedial_on: 'submit', figures: { delivered: 4, phished: 3 } });
  });

  it('fails the phish-prone themselves when the campaign fails on a click', async () => {
    const fx = await insertPhishingCampaign(t.app.db, accountId, {
      recipients: [{ status: 'clicked' }, { status: 'submitted' }, { status: 'sent' }, { status: 'sent' }],
    });
    const s = await summary(fx.campaignId);
    expect(s.campaign.remedial_on).toBe('click');
    expect(s.all).toMatchObject({
      delivered: 4,
      phish_prone_percent: 50,
      failed_by_rule: 2,
      failed_by_rule_percent: 50,
    });
  });

  it('has 0 (never a division by zero) while nothing was delivered, in the admin API and the Customer API alike', async () => {
    const fx = await insertPhishingCampaign(t.app.db, accountId, {
      remedialOn: 'submit',
      recipients: [{ status: 'scheduled' }, { status: 'scheduled' }, { status: 'failed' }],
    });
    const s = await summary(fx.campaignId);
    expect(s.all).toMatchObject({
      recipients: 3,
      delivered: 0,
      phish_prone_percent: 0,
      failed_by_rule_percent: 0,
      report_rate: 0,
    });
    expect(s.activity.rows).toEqual([]);
    const api = (await client(t.app, key).get(`/customer/campaigns/phishing/${fx.campaignId}/`)).json();
    expect(api).toMatchObject({ delivered: 0, phish_prone_percent: 0, report_rate: 0 });
  });
});

describe('activity in one hour', () => {
  it('is one bucket holding every step', async () => {
    const hour = Math.floor((Date.now() - 3 * 86_400_000) / 3_600_000) * 3_600_000;
    const fx = await insertPhishingCampaign(t.app.db, accountId, {
      launchedAt: hour,
      minutesApart: 1,
      recipients: [{ status: 'clicked' }, { status: 'opened' }, { status: 'sent', reported: true }],
    });
    const s = await summary(fx.campaignId);
    expect(s.activity.bucket).toBe('hour');
    expect(s.activity.rows).toEqual([
      {
        at: new Date(hour).toISOString(),
        delivered: 3,
        opened: 2,
        clicked: 1,
        submitted: 0,
        reported: 1,
      },
    ]);
  });
});

describe('a timeline’s reclassifiable events', () => {
  it('offers reclassification on a person’s steps only, not on delivery or training assigned', async () => {
    const fx = await insertPhishingCampaign(t.app.db, accountId, {
      recipients: [{ status: 'submitted', training: true, reported: true }],
    });
    const r = fx.recipients[0];
    const res = await get(`/phishing/campaigns/${fx.campaignId}/recipients/${r?.id}/events`);
    expect(res.statusCode, res.body).toBe(200);
    const flags = Object.fromEntries(
      res.json().events.map((e: { kind: string; reclassifiable: boolean }) => [e.kind, e.reclassifiable]),
    );
    expect(flags).toEqual({
      sent: false,
      opened: true,
      clicked: true,
      submitted: true,
      reported: true,
      training_assigned: false,
    });
    // And the server refuses what the page no longer offers.
    const sent = res.json().events.find((e: { kind: string }) => e.kind === 'sent');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${accountId}/phishing/campaigns/${fx.campaignId}/events/${sent.id}/reclassify`,
      headers: admin.headers,
      payload: { classification: 'automated', reason: 'test' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'Only opens, clicks, submissions, interactions and reports can be reclassified',
      code: 'phishing_event_not_reclassifiable',
    });
  });
});
