import type { CompiledQuery } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeAccount } from '../../../../test/helpers/factories.js';
import { BROWSER, seedPhishingCampaign } from '../../../../test/helpers/phishing.js';
import { newSimulationToken } from '../simulation/simulation.links.model.js';
import { TrackingLimiter } from './tracking.limiter.service.js';

// Issue 19, item 10: the tracking routes' limit per client address. A person behind a busy
// corporate address gets their first click recorded even when their mail client loaded the
// tracking image first; an address rotating made-up tokens is refused after a few dozen, before
// any database read.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

let addressCounter = 1;
const nextAddress = () => `192.0.2.${addressCounter++}`;

function get(url: string, address: string) {
  return t.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER }, remoteAddress: address });
}

/** Counts the app's reads of a recipient by token while `run` runs. */
async function tokenReads(run: () => Promise<void>): Promise<number> {
  const db = t.app.db as unknown as { executeQuery: (query: CompiledQuery) => Promise<unknown> };
  const original = db.executeQuery;
  let reads = 0;
  db.executeQuery = function (this: unknown, query: CompiledQuery) {
    if (/from "?phishing_recipients"?/.test(query.sql) && /"?token"? = /.test(query.sql)) reads++;
    return original.call(this, query);
  };
  try {
    await run();
  } finally {
    db.executeQuery = original;
  }
  return reads;
}

describe('the tracking routes’ limit per address', () => {
  it('records a person’s first click behind a busy address, even after their mail client loaded the image', async () => {
    const account = await makeAccount(t.app);
    const c = await seedPhishingCampaign(t.app, account.id, { people: 2, landing: 'teach_on_click' });
    const [busy, person] = c.people;
    const office = nextAddress();
    let refused = 0;
    for (let i = 0; i < 620; i++)
      if ((await get(`/t/${busy!.token}.png`, office)).statusCode === 429) refused++;
    expect(refused).toBeGreaterThan(0);
    await get(`/t/${person!.token}.png`, office); // the image, first: refused or not, it uses nothing up
    const click = await get(`/v/${person!.token}`, office);
    expect(click.statusCode).toBe(200);
    expect(click.body).toContain('This was a phishing simulation');
    const row = await t.app.db
      .selectFrom('phishing_recipients')
      .select(['status', 'clicked_at'])
      .where('id', '=', person!.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('clicked');
    // Their second click from that address is over the budget like any repeat.
    expect((await get(`/v/${person!.token}`, office)).statusCode).toBe(429);
  });

  it('refuses an address rotating unknown tokens after a few dozen, before reading them', async () => {
    const rotating = nextAddress();
    const statuses: number[] = [];
    const reads = await tokenReads(async () => {
      for (let i = 0; i < 100; i++)
        statuses.push((await get(`/v/${newSimulationToken()}`, rotating)).statusCode);
    });
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(404));
    expect(statuses.slice(30)).toEqual(Array(70).fill(429));
    expect(reads).toBe(30);
    // Malformed tokens count too (no read to save, but the same budget).
    expect((await get('/v/not-a-token', rotating)).statusCode).toBe(429);
    // Every route says so with the generic page (the image with the image).
    const press = await t.app.inject({
      method: 'POST',
      url: `/v/${newSimulationToken()}/i`,
      remoteAddress: rotating,
    });
    expect([press.statusCode, press.headers['content-type']]).toEqual([429, 'text/html; charset=utf-8']);
    expect(press.headers['retry-after']).toMatch(/^\d+$/);
    const image = await get(`/t/${newSimulationToken()}.png`, rotating);
    expect([image.statusCode, image.headers['content-type']]).toEqual([429, 'image/png']);
    // Another address is not affected.
    expect((await get(`/v/${newSimulationToken()}`, nextAddress())).statusCode).toBe(404);
  });
});

describe('TrackingLimiter', () => {
  const T = 1_800_000_000_000;
  const token = 'A'.repeat(32);

  it('exempts the first click, form post and teachable page of a known token from each address, never an open or a probe', () => {
    const limiter = new TrackingLimiter({ perMinute: 2 });
    expect(limiter.known('a', token, 'open', T)).toBeNull();
    expect(limiter.known('a', token, 'open', T)).toBeNull();
    expect(limiter.known('a', token, 'open', T)).toBe(60);
    expect(limiter.known('a', token, 'probe', T)).toBe(60);
    expect(limiter.known('a', token, 'interaction', T)).toBe(60);
    for (const route of ['click', 'submit', 'learn'] as const) {
      expect(limiter.known('a', token, route, T + 1_000)).toBeNull();
      expect(limiter.known('a', token, route, T + 1_000)).toBe(59);
    }
    // Another address has its own budget and its own first click.
    expect(limiter.known('b', token, 'click', T)).toBeNull();
    // A new window a minute after the first request.
    expect(limiter.known('a', token, 'open', T + 60_000)).toBeNull();
  });

  it('refuses unknown tokens past their own budget, before a read, without touching the known budget', () => {
    const limiter = new TrackingLimiter({ perMinute: 5, unknownPerMinute: 3 });
    for (let i = 0; i < 3; i++) {
      expect(limiter.beforeRead('a', 'click', T)).toBeNull();
      expect(limiter.unknown('a', T)).toBeNull();
    }
    expect(limiter.beforeRead('a', 'click', T)).toBe(60);
    expect(limiter.beforeRead('a', 'open', T)).toBe(60);
    expect(limiter.known('a', token, 'open', T)).toBeNull();
    expect(limiter.beforeRead('a', 'click', T + 60_000)).toBeNull();
  });

  it('refuses an open of a token it does not hold before reading it once the known budget is spent, not a click', () => {
    const limiter = new TrackingLimiter({ perMinute: 1 });
    limiter.known('a', token, 'open', T);
    expect(limiter.beforeRead('a', 'open', T)).toBe(60);
    expect(limiter.beforeRead('a', 'probe', T)).toBe(60);
    expect(limiter.beforeRead('a', 'click', T)).toBeNull();
  });

  it('stays within its bounds whatever an attacker rotates: addresses, tokens, or both', () => {
    const limiter = new TrackingLimiter({ perMinute: 1, maxAddresses: 100, maxExemptions: 50 });
    for (let i = 0; i < 10_000; i++) {
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      limiter.unknown(address, T);
      limiter.known(address, `${i}`.padStart(32, 'x'), 'click', T);
      limiter.known(address, `${i}`.padStart(32, 'x'), 'click', T);
    }
    expect(limiter.size.addresses).toBeLessThanOrEqual(200);
    expect(limiter.size.exemptions).toBeLessThanOrEqual(50);
  });
});
