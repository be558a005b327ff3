import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import {
  BROWSER,
  figuresOf,
  recountFigures,
  schedulerPassIn,
  seedPhishingCampaign,
  sendQueuedMail,
} from '../../../../test/helpers/phishing.js';
import { stopPhishingCampaign } from '../campaigns/campaigns.transitions.commands.js';
import { newSimulationToken } from '../simulation/simulation.links.model.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const browser = { 'user-agent': BROWSER };
let addressCounter = 1;
/** A fresh client address per test, so the burst rule and the rate limit see only that test's hits. */
const nextAddress = () => `198.51.100.${addressCounter++}`;

function hit(
  method: 'GET' | 'HEAD' | 'POST',
  url: string,
  headers: Record<string, string> = browser,
  address = nextAddress(),
  payload?: string,
) {
  return t.app.inject({
    method,
    url,
    headers: {
      ...headers,
      ...(payload !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    remoteAddress: address,
    ...(payload !== undefined ? { payload } : {}),
  });
}

async function recipient(id: number) {
  return t.app.db
    .selectFrom('phishing_recipients')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function eventsOf(recipientId: number) {
  return t.app.db
    .selectFrom('phishing_events')
    .selectAll()
    .where('recipient_id', '=', recipientId)
    .orderBy('id')
    .execute();
}

async function expectFiguresMatchRecount(campaignId: number) {
  const f = await figuresOf(t.app, campaignId);
  const recount = await recountFigures(t.app, campaignId);
  for (const [k, v] of Object.entries(recount.kept))
    expect([k, Number(f[k as keyof typeof f])]).toEqual([k, v]);
  expect(recount.activity).toEqual({
    delivered: recount.kept.delivered,
    opened: recount.kept.opened,
    clicked: recount.kept.clicked,
    submitted: recount.kept.submitted,
    reported: recount.kept.reported,
  });
  expect(recount.delays).toEqual({ click: recount.kept.clicked, report: recount.kept.reported });
}

describe('tracking routes', () => {
  it('the image records a human open, answers a no-store 1×1 PNG, and moves the figures once', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id);
    const [p] = c.people;
    const address = nextAddress();
    for (let i = 0; i < 2; i++) {
      const res = await hit('GET', `/t/${p!.token}.png`, browser, address);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    }
    const r = await recipient(p!.id);
    expect(r.status).toBe('opened');
    expect(r.opened_at).not.toBeNull();
    const f = await figuresOf(t.app, c.campaignId);
    expect(f).toMatchObject({ opened: 1, raw_opens: 2, clicked: 0, automated_events: 0 });
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('a click shows the landing page (teach_on_submit) with the landing headers, a submit records field names only and leads to the teachable page', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { landing: 'teach_on_submit' });
    const [p] = c.people;
    const address = nextAddress();
    const click = await hit('GET', `/v/${p!.token}`, browser, address);
    expect(click.statusCode).toBe(200);
    expect(click.headers['content-security-policy']).toContain("default-src 'none'");
    expect(click.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(click.headers['referrer-policy']).toBe('no-referrer');
    expect(click.headers['cache-control']).toBe('no-store');
    expect(click.body).toContain('<form');
    expect(click.body).toContain(`/v/${p!.token}`);
    const secret = `S3cret-${newSimulationToken()}`;
    const submit = await hit(
      'POST',
      `/v/${p!.token}`,
      browser,
      address,
      `username=someone&password=${encodeURIComponent(secret)}`,
    );
    expect(submit.statusCode).toBe(303);
    expect(submit.headers.location).toBe(`/v/${p!.token}/learn`);
    expect(submit.body).not.toContain(secret);
    const learn = await hit('GET', `/v/${p!.token}/learn`, browser, address);
    expect(learn.statusCode).toBe(200);
    expect(learn.body).toContain('This was a phishing simulation');
    expect(learn.body).toContain('<mark data-flag="1"');
    expect(learn.headers['x-robots-tag']).toBe('noindex, nofollow');
    const r = await recipient(p!.id);
    expect(r).toMatchObject({ status: 'submitted' });
    expect(r.opened_at).toBe(r.clicked_at);
    const events = await eventsOf(p!.id);
    expect(events.map((e) => [e.kind, e.classification])).toEqual([
      ['clicked', 'human'],
      ['submitted', 'human'],
    ]);
    expect(JSON.parse(events[1]!.field_names ?? '[]')).toEqual(['username', 'password']);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      opened: 1,
      clicked: 1,
      submitted: 1,
      phished: 1,
    });
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('teach_on_click goes straight to the teachable page', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { landing: 'teach_on_click' });
    const res = await hit('GET', `/v/${c.people[0]!.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('This was a phishing simulation');
    expect(res.body).not.toContain('<form');
    expect((await recipient(c.people[0]!.id)).status).toBe('clicked');
  });

  it('scanners are automated and move no figure: HEAD, prefetch, an HTTP library within the delivery window', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { sentAt: Date.now() - 5_000 });
    const [a, b] = c.people;
    const head = await hit('HEAD', `/v/${a!.token}`, browser);
    expect(head.statusCode).toBe(200);
    await hit('GET', `/v/${a!.token}`, { ...browser, purpose: 'prefetch' });
    await hit('GET', `/t/${a!.token}.png`, { 'user-agent': 'python-requests/2.32.3' });
    await hit('GET', `/v/${b!.token}`, browser); // a browser, but seconds after delivery
    const reasons = [...(await eventsOf(a!.id)), ...(await eventsOf(b!.id))].map((e) => [
      e.classification,
      e.reason,
    ]);
    expect(reasons).toEqual([
      ['automated', 'head_request'],
      ['automated', 'prefetch'],
      ['automated', 'http_library_user_agent'],
      ['automated', 'within_delivery_window'],
    ]);
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      opened: 0,
      clicked: 0,
      raw_clicks: 3,
      raw_opens: 1,
      automated_events: 4,
    });
    expect((await recipient(a!.id)).status).toBe('sent');
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('a later browser click is human; a form post promotes the earlier in-window click of the same browser', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { sentAt: Date.now() - 5_000 });
    const [a] = c.people;
    const address = nextAddress();
    await hit('GET', `/v/${a!.token}`, browser, address);
    expect((await recipient(a!.id)).status).toBe('sent');
    await hit('POST', `/v/${a!.token}`, browser, address, 'email=x');
    const events = await eventsOf(a!.id);
    expect(events.map((e) => [e.kind, e.classification, e.reason, e.original_classification])).toEqual([
      ['clicked', 'human', 'form_post', 'automated'],
      ['submitted', 'human', 'form_post', null],
    ]);
    const r = await recipient(a!.id);
    expect(r.clicked_at).toBe(events[0]!.occurred_at);
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      clicked: 1,
      submitted: 1,
      automated_events: 0,
    });
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('a button press promotes an earlier in-window click', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { sentAt: Date.now() - 5_000 });
    const [a] = c.people;
    const address = nextAddress();
    await hit('GET', `/v/${a!.token}`, browser, address);
    const press = await hit('POST', `/v/${a!.token}/i`, browser, address);
    expect(press.statusCode).toBe(204);
    const r = await recipient(a!.id);
    expect(r.status).toBe('clicked');
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      clicked: 1,
      opened: 1,
      automated_events: 0,
    });
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('one address touching six recipients’ links within seconds is automated from the fifth on', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { people: 6 });
    const address = nextAddress();
    for (const p of c.people) await hit('GET', `/v/${p.token}`, browser, address);
    const verdicts = [];
    for (const p of c.people) verdicts.push((await eventsOf(p.id))[0]!.reason);
    expect(verdicts.slice(4)).toEqual(['address_burst', 'address_burst']);
    expect((await figuresOf(t.app, c.campaignId)).automated_events).toBe(2);
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('a stopped or completed campaign shows the teachable page and records and changes nothing', async () => {
    const account = await makeAccount(t.app);
    for (const status of ['completed', 'archived'] as const) {
      const c = await seedPhishingCampaign(t.app, account.id, { status });
      const [p] = c.people;
      const before = await figuresOf(t.app, c.campaignId);
      const click = await hit('GET', `/v/${p!.token}`);
      expect(click.statusCode).toBe(200);
      expect(click.body).toContain('This was a phishing simulation');
      expect(click.body).not.toContain('<form');
      await hit('GET', `/t/${p!.token}.png`);
      await hit('POST', `/v/${p!.token}`, browser, nextAddress(), 'password=x');
      expect(await eventsOf(p!.id)).toEqual([]);
      expect(await figuresOf(t.app, c.campaignId)).toEqual(before);
      expect((await recipient(p!.id)).status).toBe('sent');
    }
  });

  it('a campaign stopped a moment after a click shows the teachable page on the next click, not the cached landing page', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { landing: 'teach_on_submit' });
    const [p] = c.people;
    const address = nextAddress();
    expect((await hit('GET', `/v/${p!.token}`, browser, address)).body).toContain('<form');
    const events = (await eventsOf(p!.id)).length;
    await stopPhishingCampaign(t.app.db, account.id, c.campaignId);
    const again = await hit('GET', `/v/${p!.token}`, browser, address);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('This was a phishing simulation');
    expect(again.body).not.toContain('<form');
    expect(await eventsOf(p!.id)).toHaveLength(events);
  });

  it('wrong, malformed and unknown tokens get identical answers that name no account', async () => {
    const account = await makeAccount(t.app, 'Very Distinctive Name Ltd');
    await seedPhishingCampaign(t.app, account.id);
    const strip = (h: Record<string, unknown>) => {
      const { date: _d, 'x-request-id': _r, 'content-length': _l, ...rest } = h;
      return rest;
    };
    for (const path of ['/v/%T', '/v/%T/learn']) {
      const answers = [];
      for (const token of [newSimulationToken(), 'short', 'x'.repeat(32), '..%2F..', 'a'.repeat(300)]) {
        const res = await hit('GET', path.replace('%T', token));
        answers.push({ status: res.statusCode, headers: strip(res.headers), body: res.body });
      }
      for (const a of answers) {
        expect(a).toEqual(answers[0]);
        expect(a.status).toBe(404);
        expect(a.body).not.toContain('Distinctive');
        expect(a.headers['x-robots-tag']).toBe('noindex, nofollow');
      }
    }
    const images = await Promise.all(
      ['nope.png', `${newSimulationToken()}.png`, 'x'].map((s) => hit('GET', `/t/${s}`)),
    );
    for (const res of images) {
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload).toEqual(images[0]!.rawPayload);
    }
  });

  it('the rate limit never refuses the first click of a token from an address, and refuses repeats past the budget', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { people: 2 });
    const address = nextAddress();
    const [a, b] = c.people;
    let refused = 0;
    for (let i = 0; i < 620; i++) {
      const res = await hit('GET', `/t/${a!.token}.png`, browser, address);
      if (res.statusCode === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    const first = await hit('GET', `/v/${b!.token}`, browser, address);
    expect(first.statusCode).toBe(200);
    expect((await recipient(b!.id)).status).toBe('clicked');
  });

  it('a click, form post or button press with no User-Agent header at all (or an empty one) is automated and moves nothing', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { people: 2, remedial: true });
    const [a, b] = c.people;
    // Over a real connection: inject() would add a User-Agent of its own.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${base}${path}`, { method, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await send('GET', `/v/${a!.token}`)).toBe(200);
    expect(await send('POST', `/v/${a!.token}`, form, 'password=x')).toBe(303);
    expect(await send('POST', `/v/${a!.token}/i`)).toBe(204);
    expect(await send('GET', `/v/${b!.token}`, { 'user-agent': '' })).toBe(200);
    const events = [...(await eventsOf(a!.id)), ...(await eventsOf(b!.id))];
    expect(events.map((e) => [e.kind, e.user_agent, e.classification, e.reason])).toEqual([
      ['clicked', null, 'automated', 'empty_user_agent'],
      ['submitted', null, 'automated', 'empty_user_agent'],
      ['interaction', null, 'automated', 'empty_user_agent'],
      ['clicked', null, 'automated', 'empty_user_agent'],
    ]);
    await schedulerPassIn(t.app);
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      clicked: 0,
      submitted: 0,
      training_assigned: 0,
    });
    expect((await recipient(a!.id)).status).toBe('sent');
  });

  it('a hit before delivery is recorded; a human one counts the message as delivered', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { sentAt: null });
    const [a] = c.people;
    await hit('GET', `/v/${a!.token}`, { 'user-agent': 'curl/8.5.0' });
    expect((await recipient(a!.id)).status).toBe('scheduled');
    await hit('GET', `/v/${a!.token}`);
    const r = await recipient(a!.id);
    expect(r.status).toBe('clicked');
    expect(r.sent_at).toBe(r.clicked_at);
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({ delivered: 1, clicked: 1 });
    await expectFiguresMatchRecount(c.campaignId);
  });

  it('a failing click’s teachable page says a course is coming; settled and mailed, it offers the very link the invitation carries, which opens', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { remedial: true, landing: 'teach_on_click' });
    const [p] = c.people;
    const address = nextAddress();
    const res = await hit('GET', `/v/${p!.token}`, browser, address);
    expect(res.body).toContain('A short course about spotting phishing is being assigned to you.');
    expect(res.body).not.toContain('/learn/');
    // The click settles; the invitation is queued, not yet sent: no link to offer yet.
    await schedulerPassIn(t.app);
    const waiting = await hit('GET', `/v/${p!.token}/learn`, browser, address);
    expect(waiting.body).toContain('A short course about spotting phishing was assigned to you.');
    expect(waiting.body).toContain('An invitation with your personal link is on its way to');
    expect(waiting.body).not.toContain('/learn/');
    await sendQueuedMail(t.app, Date.now() + 60_000);
    const invitation = await t.app.db
      .selectFrom('messages')
      .select('body_text')
      .where('campaign_id', '=', c.remedialId!)
      .where('kind', '=', 'invitation')
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    const mailed = /\/learn\/[^\s"<>]+/.exec(invitation.body_text ?? '')?.[0];
    expect(mailed).toBeDefined();
    // Each view offers that same link, never a new one.
    for (let i = 0; i < 2; i++) {
      const page = await hit('GET', `/v/${p!.token}/learn`, browser, address);
      const link = /<a class="button" href="([^"]+)">Start the course now<\/a>/.exec(page.body)?.[1];
      expect(new URL(link!).pathname).toBe(mailed);
    }
    const learner = await t.app.inject({ method: 'GET', url: mailed! });
    expect(learner.statusCode).toBe(200);
    expect(learner.body).toContain('Spotting phishing');
  });

  it('clicks arriving together (one batch) each count once per person, and enrol a failing person once', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, {
      people: 3,
      remedial: true,
      landing: 'teach_on_click',
    });
    const hits = [];
    for (const p of c.people) for (let i = 0; i < 3; i++) hits.push(hit('GET', `/v/${p.token}`));
    const answers = await Promise.all(hits);
    expect(answers.map((a) => a.statusCode)).toEqual(hits.map(() => 200));
    await schedulerPassIn(t.app);
    expect(await figuresOf(t.app, c.campaignId)).toMatchObject({
      clicked: 3,
      raw_clicks: 9,
      training_assigned: 3,
    });
    const enrollments = await t.app.db
      .selectFrom('enrollments')
      .select('employee_id')
      .where('campaign_id', '=', c.remedialId!)
      .execute();
    expect(enrollments.map((e) => e.employee_id).sort()).toEqual(c.people.map((p) => p.employee.id).sort());
    await expectFiguresMatchRecount(c.campaignId);
  });
});
