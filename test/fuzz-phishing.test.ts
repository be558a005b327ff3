import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/core/errors.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { makeKey } from './helpers/factories.js';
import { insertPhishingCampaign, type PhishingFixture } from './helpers/phishing-fixtures.js';

/**
 * The Customer API's phishing routes under random input (as test/fuzz.test.ts does for the rest):
 * random campaign ids, pages, statuses, employee ids, repeated and odd parameters and Host
 * headers never give a 5xx; errors have the contract's shape; 400s are `Validation failed`;
 * another account's campaign is never shown; nothing changes.
 */

const API = '/api/api_gateway';
let t: TestApp;
let key: string;
let mine: PhishingFixture;
let theirs: PhishingFixture;

beforeAll(async () => {
  t = await buildTestApp();
  const a = await makeKey(t.app, { rateLimit: 1_000_000 });
  key = a.key;
  mine = await insertPhishingCampaign(t.app.db, a.accountId);
  const b = await makeKey(t.app);
  theirs = await insertPhishingCampaign(t.app.db, b.accountId);
});

async function snapshot() {
  const r = await sql<Record<string, number | string>>`select
      (select count(*) from phishing_campaigns) as campaigns,
      (select count(*) from phishing_recipients) as recipients,
      (select count(*) from phishing_events) as events,
      (select coalesce(sum(clicked + opened + reported + delivered), 0) from phishing_figures) as figures`.execute(
    t.app.db,
  );
  return Object.fromEntries(Object.entries(r.rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
}

const LEAKS = [/sql/i, /postgres/i, /kysely/i, /node_modules/i, /\n\s*at\s/, /\.[cm]?[jt]s:\d+/];

function expectErrorShape(res: LightMyRequestResponse, where: string, oddHost: boolean) {
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const error = JSON.parse(res.body) as Record<string, unknown>;
  expect(
    Object.keys(error).filter((k) => !['error', 'status', 'code', 'details', 'request_id'].includes(k)),
    where,
  ).toEqual([]);
  expect(typeof error.error, where).toBe('string');
  expect(error.status, where).toBe(res.statusCode);
  if ('code' in error) expect(ERRORS[error.code as ErrorCode]?.status, where).toBe(res.statusCode);
  // An undecodable path is the HTTP layer's Bad request; everything the routes check is Validation failed.
  if (res.statusCode === 400 && !oddHost)
    expect(['Validation failed', 'Bad request'], where).toContain(error.error);
  for (const pattern of LEAKS) expect(pattern.test(res.body), `${where}: ${pattern}`).toBe(false);
}

const words = (text: string) => text.split(' ');
const number = fc.oneof(
  fc.constantFrom(
    '',
    ...words('1 2 3 0 -1 1.5 1e2 1e400 abc 1000 1001 0x10 Infinity NaN true +1 %2B1 %00 %FF %ED%A0%80'),
    ...words('9007199254740991 9007199254740993 99999999999999999999'),
  ),
  fc.integer().map(String),
);
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
const statusValue = fc.oneof(
  fc.constantFrom(...words('scheduled sent opened clicked submitted failed reported SENT bogus'), ''),
  fc.string({ maxLength: 30 }).map(encode),
);

const queryString = () => {
  const employeeId = fc.oneof(
    fc.constantFrom(...mine.recipients.map((r) => String(r.employeeId))),
    fc.constantFrom(...theirs.recipients.map((r) => String(r.employeeId))),
    number,
  );
  const param = fc.oneof(
    { arbitrary: fc.tuple(fc.constantFrom('page', 'page_size'), number), weight: 3 },
    { arbitrary: fc.tuple(fc.constant('status'), statusValue), weight: 3 },
    { arbitrary: fc.tuple(fc.constant('employee_id'), employeeId), weight: 3 },
    {
      arbitrary: fc.tuple(
        fc.constantFrom('status[]', '__proto__', 'x', 'employee_id[0]', ''),
        fc.oneof(number, statusValue),
      ),
      weight: 1,
    },
  );
  return fc
    .tuple(fc.array(param, { maxLength: 5 }), fc.constantFrom('&', '&&', ';'))
    .map(([pairs, sep]) => (pairs.length ? `?${pairs.map(([n, v]) => `${n}=${v}`).join(sep)}` : ''));
};

const campaignId = () =>
  fc.oneof(
    { arbitrary: fc.constant(() => String(mine.campaignId)), weight: 4 },
    { arbitrary: fc.constant(() => String(theirs.campaignId)), weight: 2 },
    {
      arbitrary: fc
        .constantFrom(
          ...words('0 -1 1.5 1e3 01 +1 0x1 NaN null 9007199254740993 99999999999999999999 %00 %2F %FF'),
        )
        .map((s) => () => s),
      weight: 2,
    },
    { arbitrary: fc.string({ maxLength: 20 }).map((s) => () => encode(s)), weight: 1 },
  );

const host = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('" { ` | ^', 'a:99999', '[::1]:8080', 'é', '%22', 'example.com'),
);

const run = (numRuns: number) => ({ numRuns, plugins: [fc.interruptAfterTimeLimit(15_000)] });
const seen = new Set<number>();

describe('random input at the phishing routes of the Customer API', () => {
  it('never a 5xx, contract-shaped errors (400s are Validation failed), another account’s campaign never shown, nothing changes', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('', '/results'),
        campaignId(),
        fc.constantFrom('/', '', '//'),
        queryString(),
        host,
        async (tail, id, slash, query, hostHeader) => {
          const url = `${API}/customer/campaigns/phishing/${id()}${tail}${slash}${query}`;
          const res = await t.app.inject({
            method: 'GET',
            url,
            headers: { apikey: key, ...(hostHeader ? { host: hostHeader } : {}) },
          });
          seen.add(res.statusCode);
          const where = `GET ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400) expectErrorShape(res, where, hostHeader !== undefined);
          else {
            const body = res.json();
            const shown = 'results' in body ? body.results : [body];
            expect(JSON.stringify(shown), where).not.toContain(`"id":${theirs.campaignId},`);
            for (const r of 'results' in body ? body.results : []) {
              if ('employee_id' in r)
                expect(
                  theirs.recipients.map((x) => x.employeeId),
                  where,
                ).not.toContain(r.employee_id);
            }
          }
        },
      ),
      {
        ...run(300),
        examples: [
          ['/results', () => String(mine.campaignId), '/', '?status=clicked', undefined],
          ['', () => String(theirs.campaignId), '/', '', undefined],
          ['/results', () => String(mine.campaignId), '/', '?status=bogus', undefined],
        ],
      },
    );
    expect(await snapshot()).toEqual(before);
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 404]));
  });

  it('the list: random pages and parameters are 400s or pages, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(queryString(), host, async (query, hostHeader) => {
        const url = `${API}/customer/campaigns/phishing/${query}`;
        const res = await t.app.inject({
          method: 'GET',
          url,
          headers: { apikey: key, ...(hostHeader ? { host: hostHeader } : {}) },
        });
        const where = `GET ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (res.statusCode >= 400) expectErrorShape(res, where, hostHeader !== undefined);
        else expect(res.json().results.map((c: { id: number }) => c.id)).not.toContain(theirs.campaignId);
      }),
      run(150),
    );
  });
});
