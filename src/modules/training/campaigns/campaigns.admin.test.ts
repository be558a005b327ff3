import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount, makeCampaign, makeGroup } from '../../../../test/helpers/factories.js';
import { getCampaign, listCampaignsPage } from './campaigns.service.js';

// The domain services behind the web interface's campaign pages; HTTP in campaigns.admin-routes.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

describe('listCampaignsPage', () => {
  it('lists the account’s campaigns newest first, with their groups by name, and pages', async () => {
    const { id: accountId } = await makeAccount(t.app);
    const sales = await makeGroup(t.app, accountId, 'sales');
    const all = await makeGroup(t.app, accountId, 'All staff');
    const older = await makeCampaign(t.app, accountId, [sales.id, all.id], 'Older');
    const newer = await makeCampaign(t.app, accountId, [], 'Newer');
    const other = await makeAccount(t.app);
    await makeCampaign(t.app, other.id, [], 'Theirs');

    const page = await listCampaignsPage(t.app.db, accountId, { limit: 25, offset: 0 });
    expect(page.count).toBe(2);
    expect(page.items.map((c) => [c.id, c.name, c.status, c.groups])).toEqual([
      [newer.id, 'Newer', 'draft', []],
      [
        older.id,
        'Older',
        'draft',
        [
          { id: all.id, name: 'All staff' },
          { id: sales.id, name: 'sales' },
        ],
      ],
    ]);
    const second = await listCampaignsPage(t.app.db, accountId, { limit: 1, offset: 1 });
    expect({ count: second.count, ids: second.items.map((c) => c.id) }).toEqual({
      count: 2,
      ids: [older.id],
    });
    const past = await listCampaignsPage(t.app.db, accountId, { limit: 25, offset: 25 });
    expect({ count: past.count, items: past.items }).toEqual({ count: 2, items: [] });
    expect((await listCampaignsPage(t.app.db, other.id, { limit: 25, offset: 0 })).count).toBe(1);
  });
});

describe('getCampaign', () => {
  it('gives one campaign with its groups; another account’s is not found', async () => {
    const { id: accountId } = await makeAccount(t.app);
    const group = await makeGroup(t.app, accountId, 'Sales');
    const campaign = await makeCampaign(t.app, accountId, [group.id], 'Basics');
    expect(await getCampaign(t.app.db, accountId, campaign.id)).toMatchObject({
      id: campaign.id,
      name: 'Basics',
      status: 'draft',
      groups: [{ id: group.id, name: 'Sales' }],
      created_at: campaign.created_at,
    });
    const other = await makeAccount(t.app);
    // 0: what the route schema makes of text that is no id.
    for (const id of [campaign.id, 0, 99_999_999]) {
      await expect(getCampaign(t.app.db, other.id, id)).rejects.toMatchObject({
        status: 404,
        message: 'Campaign not found',
      });
    }
  });
});
