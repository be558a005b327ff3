import { beforeAll, describe, expect, it } from 'vitest';
import { adminSender, signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { coded } from '../../../../test/helpers/errors.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { insertPhishingCampaign } from '../../../../test/helpers/phishing-fixtures.js';

// Deleting a phishing campaign's draft through the admin API (the draft page's "Delete draft"):
// only a draft goes (nothing was ever sent for it), anything else is a 409 that says why, another
// account's draft is a 404 and stays. Training drafts are deleted the same way (and, like them,
// not through the Customer API or the CLI, which only read campaigns or create and launch them).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

async function setup() {
  const account = await makeAccount(t.app);
  const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
  return { accountId: account.id, admin, base: `/accounts/${account.id}/phishing/campaigns` };
}

describe('DELETE /admin/api/accounts/{accountId}/phishing/campaigns/{campaignId}', () => {
  it('deletes a draft: it is gone from the list and reads as not found', async () => {
    const { admin, base } = await setup();
    const created = await send(admin, 'POST', base, { name: 'Unused draft' });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json();
    expect(draft.allowed_actions).toContain('delete');
    const kept = (await send(admin, 'POST', base, { name: 'Kept draft' })).json();

    const res = await send(admin, 'DELETE', `${base}/${draft.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    const gone = await send(admin, 'GET', `${base}/${draft.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ status: 404, ...coded('phishing_campaign_not_found') });
    const list = (await send(admin, 'GET', base)).json();
    expect(list.results.map((c: { name: string }) => c.name)).toEqual([kept.name]);
    // Deleting it again: not found.
    expect((await send(admin, 'DELETE', `${base}/${draft.id}`)).statusCode).toBe(404);
  });

  it('refuses a campaign that is not a draft with a 409 naming its status, and keeps it', async () => {
    const { accountId, admin, base } = await setup();
    for (const status of ['scheduled', 'running', 'completed', 'archived'] as const) {
      const fx = await insertPhishingCampaign(t.app.db, accountId, {
        name: `A ${status} one`,
        status,
        recipients: [{ status: 'sent' }],
      });
      const shown = (await send(admin, 'GET', `${base}/${fx.campaignId}`)).json();
      expect(shown.allowed_actions, status).not.toContain('delete');
      const res = await send(admin, 'DELETE', `${base}/${fx.campaignId}`);
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toEqual({
        error: `Cannot delete a phishing campaign that is ${status}`,
        status: 409,
        ...coded('campaign_status_conflict'),
      });
      expect((await send(admin, 'GET', `${base}/${fx.campaignId}`)).statusCode).toBe(200);
      const results = await send(admin, 'GET', `${base}/${fx.campaignId}/results`);
      expect(results.json().all.recipients).toBe(1);
    }
  });

  it('answers another account’s draft as not found and leaves it; needs a session; checks the id', async () => {
    const mine = await setup();
    const theirs = await setup();
    const their = (await send(theirs.admin, 'POST', theirs.base, { name: 'Their draft' })).json();
    const res = await send(
      mine.admin,
      'DELETE',
      `/accounts/${mine.accountId}/phishing/campaigns/${their.id}`,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject(coded('phishing_campaign_not_found'));
    // Through their account's path: the administrator of mine has no access to it.
    const across = await send(mine.admin, 'DELETE', `${theirs.base}/${their.id}`);
    expect([403, 404]).toContain(across.statusCode);
    expect((await send(theirs.admin, 'GET', `${theirs.base}/${their.id}`)).statusCode).toBe(200);

    const anonymous = await send(undefined, 'DELETE', `${theirs.base}/${their.id}`);
    expect(anonymous.statusCode).toBe(401);
    for (const id of ['abc', '0', '1.5', '99999999999999999999']) {
      const bad = await send(mine.admin, 'DELETE', `${mine.base}/${id}`);
      expect([400, 404], id).toContain(bad.statusCode);
    }
    expect((await send(theirs.admin, 'GET', `${theirs.base}/${their.id}`)).statusCode).toBe(200);
  });
});
