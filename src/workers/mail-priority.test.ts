import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { learnerClient, makeEnrollment } from '../../test/helpers/learner.js';
import { DAY_MS, makeAccountRow, makeActiveCampaign } from '../../test/helpers/mail-fixtures.js';
import { manualClock } from '../core/outbox/clock.js';
import { outboxTransport } from '../modules/mail/mail.transport.service.js';
import { resendInvitation } from '../modules/training/campaigns/campaigns.enrollments.service.js';
import { MailWorker } from './mail-worker.js';

// Mail someone is waiting for goes out before a launch's bulk invitations, on the database under
// test. A file of its own: the thousands of invitations it queues stay out of other tests' queue.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const silent = { info() {}, warn() {}, error() {} };

function worker(batchSize: number) {
  return new MailWorker({
    db: t.app.db,
    transport: outboxTransport(),
    baseUrl: 'https://vigil.example.com',
    from: 'Security training <training@vigil.example.com>',
    ratePerMinute: 1_000_000,
    concurrency: 2,
    maxAttempts: 8,
    retryBaseMs: 60_000,
    leaseMs: 120_000,
    linkTtlMs: 30 * DAY_MS,
    log: silent,
    clock: manualClock(Date.now() + 1000),
    batchSize,
  });
}

function messagesTo(enrollmentId: number) {
  return t.app.db
    .selectFrom('messages')
    .select(['kind', 'status', 'to_address'])
    .where('enrollment_id', '=', enrollmentId)
    .execute();
}

function sentInvitations(campaignId: number) {
  return t.app.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'sent')
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

describe('mail someone is waiting for', () => {
  it('sends a new link a learner asked for in the first batch, ahead of 3,000 queued invitations', async () => {
    const account = await makeAccountRow(t.app.db);
    const launch = await makeActiveCampaign(t.app.db, account.id, { people: 3000 });
    const learner = await makeEnrollment(t.app.db, {
      accountId: account.id,
      employee: { email: 'waiting.learner@example.com' },
      linkExpiresAt: Date.now() - 1000,
    });
    const asked = await learnerClient(t.app).post(`${learner.path}/new-link`);
    expect(asked.headers.location).toBe(`${learner.path}/new-link?sent=queued`);

    const batch = await worker(10).runBatch();
    expect(batch).toMatchObject({ claimed: 10, sent: 10 });
    expect(await messagesTo(learner.enrollmentId)).toEqual([
      { kind: 'link', status: 'sent', to_address: 'waiting.learner@example.com' },
    ]);
    // The rest of the batch was bulk mail, in the order it was queued.
    expect(await sentInvitations(launch.campaignId)).toBe(9);
    expect(await messagesTo(launch.enrollmentIds[0] as number)).toMatchObject([{ status: 'sent' }]);
    expect(await messagesTo(launch.enrollmentIds[9] as number)).toMatchObject([{ status: 'queued' }]);
  });

  it('sends an invitation an administrator resent ahead of the invitations already queued', async () => {
    const account = await makeAccountRow(t.app.db);
    const lost = await makeActiveCampaign(t.app.db, account.id, { people: 1, invite: false });
    const launch = await makeActiveCampaign(t.app.db, account.id, { people: 2000 });
    await resendInvitation(t.app.db, account.id, lost.campaignId, lost.enrollmentIds[0] as number);

    await worker(1).runBatch();
    expect(await messagesTo(lost.enrollmentIds[0] as number)).toEqual([
      { kind: 'invitation', status: 'sent', to_address: lost.emails[0] },
    ]);
    expect(await sentInvitations(launch.campaignId)).toBe(0);
  });
});
