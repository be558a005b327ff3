import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { client, makeCampaign, makeGroup, makeKey } from '../../../../test/helpers/factories.js';
import type { CampaignView as Campaign } from './campaigns.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const URL_PATH = '/customer/campaigns/training/';

/** The fields the contract guarantees for a campaign made by `vigil campaign create`. */
function asListed(campaign: Campaign) {
  return {
    id: campaign.id,
    name: campaign.name,
    status: 'draft',
    group_ids: campaign.group_ids,
    created_at: new Date(campaign.created_at).toISOString(),
    updated_at: new Date(campaign.updated_at).toISOString(),
  };
}

describe('GET /customer/campaigns/training/', () => {
  it('needs a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/api_gateway${URL_PATH}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'API key required', status: 401 });
  });

  it('rejects an unknown key', async () => {
    const res = await client(t.app, `vgl_${'x'.repeat(40)}`).get(URL_PATH);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid API key', status: 401 });
  });

  it('needs read permission on campaigns', async () => {
    for (const grants of [['campaigns:w'], ['employees:rw', 'groups:rw']]) {
      const { key } = await makeKey(t.app, { grants });
      const res = await client(t.app, key).get(URL_PATH);
      expect(res.statusCode, grants.join()).toBe(403);
      expect(res.json()).toEqual({ error: 'API key lacks read permission on campaigns', status: 403 });
      expect(res.headers['ratelimit-limit']).toBeDefined();
    }
  });

  it('answers 200 to a key that holds nothing but campaigns:read (how a client checks its key)', async () => {
    const { key } = await makeKey(t.app, { grants: ['campaigns:r'] });
    const res = await client(t.app, key).get(URL_PATH);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it("lists the account's campaigns as drafts, ordered by id, with their target groups ascending", async () => {
    const { accountId, key } = await makeKey(t.app);
    const sales = await makeGroup(t.app, accountId, 'Sales');
    const ops = await makeGroup(t.app, accountId, 'Ops');
    const first = await makeCampaign(t.app, accountId, [ops.id, sales.id], 'Phishing basics');
    const second = await makeCampaign(t.app, accountId, [], 'Passwords');
    const third = await makeCampaign(t.app, accountId, [sales.id], 'Phishing basics');
    expect(first.group_ids).toEqual([sales.id, ops.id].sort((a, b) => a - b));

    const res = await client(t.app, key).get(URL_PATH);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      count: 3,
      next: null,
      previous: null,
      results: [first, second, third].map((c) => expect.objectContaining(asListed(c))),
    });
    for (const item of body.results) {
      expect(item.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(item.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    const ids = body.results.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("never shows another account's campaigns", async () => {
    const mine = await makeKey(t.app);
    const theirs = await makeKey(t.app);
    const theirGroup = await makeGroup(t.app, theirs.accountId);
    await makeCampaign(t.app, theirs.accountId, [theirGroup.id], 'Theirs');
    const own = await makeCampaign(t.app, mine.accountId, [], 'Mine');
    await makeCampaign(t.app, theirs.accountId, [], 'Theirs too');

    const res = await client(t.app, mine.key).get(URL_PATH);
    expect(res.json()).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [expect.objectContaining(asListed(own))],
    });
  });

  it('pages like every list', async () => {
    const { accountId, key } = await makeKey(t.app);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await makeCampaign(t.app, accountId, [], `Campaign ${i}`));
    const api = client(t.app, key);
    const page2 = await api.get(`${URL_PATH}?page=2&page_size=2`, { host: 'vigil.example.com' });
    expect(page2.statusCode).toBe(200);
    expect(page2.json()).toEqual({
      count: 3,
      next: null,
      previous: 'http://vigil.example.com/api/api_gateway/customer/campaigns/training/?page=1&page_size=2',
      results: [expect.objectContaining(asListed(made[2]!))],
    });
    const past = await api.get(`${URL_PATH}?page=3&page_size=2`);
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual({ error: 'Invalid page', status: 404, ...coded('invalid_page') });
  });

  it('is served the same without the trailing slash', async () => {
    const { accountId, key } = await makeKey(t.app);
    await makeCampaign(t.app, accountId);
    const api = client(t.app, key);
    const a = await api.get(URL_PATH);
    const b = await api.get('/customer/campaigns/training');
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
  });
});
