import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import {
  BROWSER,
  quietLog,
  seedPhishingCampaign,
  sendQueuedMail,
} from '../../../../test/helpers/phishing.js';
import { publicBaseUrl } from '../../../core/http/links.js';
import { runScheduledWork } from '../../../workers/scheduler.js';
import { recipientByTokenOfAnyAccount } from '../simulation/simulation.recipients.repository.js';
import { createStepMachine } from './tracking.steps.batch.commands.js';
import { recordStep } from './tracking.steps.commands.js';

// Issue 19, item 11: the teachable page (reached by the simulation's link, which a forwarded or
// reported email hands to others) never mints or extends a learner link. It offers the link the
// person's last training mail carried while that link is valid, and once it expired the learner
// pages' own "Email me a new link", which mails a fresh one to the person's address.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const DAY = 86_400_000;

function page(token: string) {
  return t.app.inject({
    method: 'GET',
    url: `/v/${token}/learn`,
    headers: { 'user-agent': BROWSER },
    remoteAddress: '198.51.100.200',
  });
}

/** A person who failed a simulation `daysAgo` days ago, enrolled and invited then (the invitation sent then). */
async function failedDaysAgo(daysAgo: number) {
  const account = await makeAccount(t.app);
  const clickedAt = Date.now() - daysAgo * DAY;
  const c = await seedPhishingCampaign(t.app, account.id, {
    people: 1,
    remedial: true,
    landing: 'teach_on_click',
    sentAt: clickedAt - 600_000,
  });
  const [p] = c.people;
  const found = await recipientByTokenOfAnyAccount(t.app.db, p!.token);
  await recordStep(t.app.db, createStepMachine(), found!, {
    kind: 'click',
    at: clickedAt,
    method: 'GET',
    headers: { 'user-agent': BROWSER },
    clientAddress: '198.51.100.201',
  });
  // The scheduler settles the click a minute later, and the invitation goes out then.
  await runScheduledWork(t.app.db, clickedAt + 60_000, quietLog);
  await sendQueuedMail(t.app, clickedAt + 60_000);
  const enrollment = await t.app.db
    .selectFrom('enrollments')
    .select('id')
    .where('campaign_id', '=', c.remedialId!)
    .executeTakeFirstOrThrow();
  return { ...c, person: p!, enrollmentId: Number(enrollment.id) };
}

function linkMail(enrollmentId: number) {
  return t.app.db
    .selectFrom('messages')
    .select(['id', 'kind', 'status', 'body_text'])
    .where('enrollment_id', '=', enrollmentId)
    .orderBy('id')
    .execute();
}

const mailedPath = (text: string | null) => /\/learn\/[^\s"<>]+/.exec(text ?? '')?.[0];
const offeredLink = (body: string) =>
  /<a class="button" href="([^"]+)">Start the course now<\/a>/.exec(body)?.[1];

describe('the teachable page of a person assigned a course', () => {
  it('offers exactly the link their invitation carries while it is valid, and mints nothing however often it is viewed', async () => {
    const c = await failedDaysAgo(2);
    const [invitation] = await linkMail(c.enrollmentId);
    expect(invitation).toMatchObject({ kind: 'invitation', status: 'sent' });
    const mailed = mailedPath(invitation!.body_text);
    expect(mailed).toMatch(/^\/learn\/\d+\.[0-9a-z]+\.[\w-]{43}$/);
    for (let i = 0; i < 3; i++) {
      const res = await page(c.person.token);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('A short course about spotting phishing was assigned to you.');
      // The very link (its expiry is part of it): not a fresh one, not a longer-lived one.
      expect(offeredLink(res.body)).toBe(`${publicBaseUrl(t.app)}${mailed}`);
      expect(res.body).not.toContain('Email me a new link');
    }
    expect(await linkMail(c.enrollmentId)).toHaveLength(1);
    const learner = await t.app.inject({ method: 'GET', url: mailed! });
    expect(learner.statusCode).toBe(200);
  });

  it('once that link expired, offers the learner pages’ “Email me a new link”, which mails a fresh link to the person', async () => {
    const c = await failedDaysAgo(40);
    const [invitation] = await linkMail(c.enrollmentId);
    const mailed = mailedPath(invitation!.body_text) as string;
    // The old link itself is expired: the learner page says so.
    expect((await t.app.inject({ method: 'GET', url: mailed })).statusCode).toBe(403);

    const res = await page(c.person.token);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Your personal link has expired.');
    expect(offeredLink(res.body)).toBeUndefined();
    const action = /<form method="post" action="([^"]+)"/.exec(res.body)?.[1];
    // The expired link's own form: it can do nothing but ask for a mail to the person.
    expect(action).toBe(`${publicBaseUrl(t.app)}${mailed}/new-link`);
    expect(res.headers['content-security-policy']).toContain(
      `form-action ${new URL(publicBaseUrl(t.app)).origin}`,
    );
    // Viewing it again and again creates no link and queues no mail.
    await page(c.person.token);
    expect(await linkMail(c.enrollmentId)).toHaveLength(1);

    const asked = await t.app.inject({ method: 'POST', url: new URL(action!).pathname });
    expect(asked.statusCode).toBe(303);
    expect(asked.headers.location).toBe(`${mailed}/new-link?sent=queued`);
    // Asked again at once (a colleague with a forwarded link, say): no second mail.
    const again = await t.app.inject({ method: 'POST', url: new URL(action!).pathname });
    expect(again.headers.location).toBe(`${mailed}/new-link?sent=recent`);
    expect((await linkMail(c.enrollmentId)).map((m) => [m.kind, m.status])).toEqual([
      ['invitation', 'sent'],
      ['link', 'queued'],
    ]);
    expect((await page(c.person.token)).body).toContain(
      'An invitation with your personal link is on its way to',
    );

    // The new link is mailed to the person; the page then offers that one.
    await sendQueuedMail(t.app);
    const fresh = mailedPath((await linkMail(c.enrollmentId)).at(-1)!.body_text);
    expect(fresh).not.toBe(mailed);
    expect(offeredLink((await page(c.person.token)).body)).toBe(`${publicBaseUrl(t.app)}${fresh}`);
  });
});
