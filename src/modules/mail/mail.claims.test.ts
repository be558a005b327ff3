import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { campaignMessages, makeAccountRow, makeActiveCampaign } from '../../../test/helpers/mail-fixtures.js';
import { claimDueMessagesOfAllAccounts, finishClaim, recordHandOff, recordSent } from './mail.repository.js';

// The workers claim from every account's mail (cross-account by design), but a claim carries its
// message's account, and every write on it is scoped by that account as well.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

describe('a claim on a message', () => {
  it("carries the message's account, and writes nothing under another", async () => {
    const db = t.app.db;
    const account = await makeAccountRow(db);
    const other = await makeAccountRow(db);
    const c = await makeActiveCampaign(db, account.id, { people: 1 });
    const now = Date.now() + 1;
    const [claim] = await claimDueMessagesOfAllAccounts(db, { now, limit: 10, leaseUntil: now + 60_000 });
    if (!claim) throw new Error('nothing claimed');
    expect(claim).toMatchObject({ accountId: account.id, attempts: 1, inDoubt: false });

    const forged = { ...claim, accountId: other.id };
    const sent = {
      transport: 'outbox' as const,
      to_address: 'x@example.com',
      subject: 's',
      body_text: 't',
      body_html: 'h',
      message_id: '<m@example.com>',
    };
    expect(await recordHandOff(db, forged, now, sent)).toBe(false);
    expect(await recordSent(db, forged, now)).toBe(false);
    expect(await finishClaim(db, forged, { status: 'failed', last_error: 'no' })).toBe(false);
    expect(await campaignMessages(db, c.campaignId)).toMatchObject([
      { status: 'sending', handed_over_at: null },
    ]);

    expect(await finishClaim(db, claim, { status: 'cancelled', last_error: 'done' })).toBe(true);
    expect(await campaignMessages(db, c.campaignId)).toMatchObject([{ status: 'cancelled' }]);
  });
});
