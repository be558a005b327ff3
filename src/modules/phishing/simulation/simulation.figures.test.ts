import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import {
  activityOfCampaign,
  addActivity,
  addDelay,
  addToFigures,
  bucketSeconds,
  delayBucket,
  delaysOfCampaign,
  figuresOfCampaigns,
  insertFigureRows,
  medianSeconds,
} from './simulation.figures.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

async function campaignOf(accountId: number) {
  const now = Date.now();
  const row = await t.app.db
    .insertInto('phishing_campaigns')
    .values({ account_id: accountId, name: 'Test', status: 'running', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('phishing figures', () => {
  it('adds to the rows of the campaign, each group and the template, and reads them within the account only', async () => {
    const mine = await makeAccount(t.app);
    const theirs = await makeAccount(t.app);
    const campaignId = await campaignOf(mine.id);
    await insertFigureRows(t.app.db, campaignId, [
      { dimension: 'all', key: '', recipients: 2 },
      { dimension: 'group', key: '7', recipients: 2 },
      { dimension: 'template', key: 'builtin:a', recipients: 2 },
    ]);
    const person = { group_ids: [7, 8], template_key: 'builtin:a' };
    await addToFigures(t.app.db, campaignId, person, { delivered: 1, opened: 1 });
    await addToFigures(t.app.db, campaignId, person, { opened: -1, clicked: 1, raw_clicks: 1 });
    const rows = await figuresOfCampaigns(t.app.db, mine.id, [campaignId], ['all', 'group', 'template']);
    const byKey = new Map(rows.map((r) => [`${r.dimension}:${r.dimension_key}`, r]));
    expect(byKey.get('all:')).toMatchObject({
      recipients: 2,
      delivered: 1,
      opened: 0,
      clicked: 1,
      raw_clicks: 1,
    });
    expect(byKey.get('group:7')).toMatchObject({ recipients: 2, delivered: 1, clicked: 1 });
    expect(byKey.get('group:8')).toMatchObject({ recipients: 0, delivered: 1, clicked: 1 });
    expect(byKey.get('template:builtin:a')).toMatchObject({ recipients: 2, clicked: 1 });
    expect(await figuresOfCampaigns(t.app.db, theirs.id, [campaignId])).toEqual([]);
  });

  it('keeps delays as histograms whose median is within a few percent, and activity by the hour', async () => {
    const mine = await makeAccount(t.app);
    const campaignId = await campaignOf(mine.id);
    const person = { group_ids: [], template_key: 'builtin:a' };
    for (const seconds of [30, 600, 3600]) await addDelay(t.app.db, campaignId, person, 'click', seconds, 1);
    await addDelay(t.app.db, campaignId, person, 'click', 3600, -1);
    await addDelay(t.app.db, campaignId, person, 'click', 3600, 1);
    const delays = (await delaysOfCampaign(t.app.db, mine.id, campaignId)).filter(
      (d) => d.dimension === 'all',
    );
    expect(Math.abs((medianSeconds(delays) ?? 0) - 600) / 600).toBeLessThan(0.05);
    expect(medianSeconds([])).toBeNull();
    const at = Date.UTC(2026, 10, 24, 10, 30);
    await addActivity(t.app.db, campaignId, at, 'clicked', 1);
    await addActivity(t.app.db, campaignId, at + 60_000, 'clicked', 1);
    expect(await activityOfCampaign(t.app.db, mine.id, campaignId)).toEqual([
      { hour: Date.UTC(2026, 10, 24, 10), delivered: 0, opened: 0, clicked: 2, submitted: 0, reported: 0 },
    ]);
    for (const s of [0, 1, 59, 3600, 86_400 * 14]) {
      expect(Math.abs(bucketSeconds(delayBucket(s)) - s)).toBeLessThanOrEqual(Math.max(1, s * 0.05));
    }
  });
});
