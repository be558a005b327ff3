import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/core/errors.js';
import { phishBaseUrl } from '../src/core/http/links.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { makeKey } from './helpers/factories.js';
import { figuresOf, seedPhishingCampaign } from './helpers/phishing.js';

/**
 * Random bodies at POST /customer/campaigns/phishing/reports/ (as test/fuzz.test.ts does for the
 * other Customer API routes): never a 5xx, always the contract's error shape, and nothing of
 * another account's simulations ever changes.
 */

const URL = '/api/api_gateway/customer/campaigns/phishing/reports/';
const ALLOWED = new Set([202, 400, 404, 413, 415]);

let t: TestApp;
let key: string;
let own: string[];
let theirs: { campaignId: number; tokens: string[] };

beforeAll(async () => {
  t = await buildTestApp();
  const mine = await makeKey(t.app, { rateLimit: 1_000_000 });
  key = mine.key;
  own = (await seedPhishingCampaign(t.app, mine.accountId, { people: 2 })).people.map((p) => p.token);
  const stranger = await makeKey(t.app);
  const c = await seedPhishingCampaign(t.app, stranger.accountId, { people: 2 });
  theirs = { campaignId: c.campaignId, tokens: c.people.map((p) => p.token) };
});

const tokenish = fc.oneof(
  fc.constantFrom(...['', ' ', 'null', 'a'.repeat(32), '-'.repeat(32), '_'.repeat(33)]),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.base64String({ minLength: 30, maxLength: 34 }),
);
const token = fc.oneof(tokenish, fc.constantFrom('OWN0', 'OWN1', 'THEIRS0', 'THEIRS1'));
const resolve = (s: string) =>
  s
    .replace(/OWN(\d)/, (_, i) => own[Number(i)] ?? '')
    .replace(/THEIRS(\d)/, (_, i) => theirs.tokens[Number(i)] ?? '');

const jsonBody = fc.oneof(
  token.map((v) => JSON.stringify({ token: v })),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.tuple(token, fc.jsonValue()).map(([v, extra]) => JSON.stringify({ token: v, extra })),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('{"token":', '{"token":null}', '{"token":123}', '[]', '"x"', '{"__proto__":{"token":"x"}}'),
);

const header = (name: string, value: string) => `${name}: ${value}`;
const messageBody = fc.oneof(
  fc
    .tuple(token, fc.string({ maxLength: 200 }))
    .map(([v, body]) =>
      [header('From', 'a@example.com'), header('X-Vigil-Simulation', v), '', body].join('\r\n'),
    ),
  fc
    .tuple(token, fc.constantFrom('/v/', '/t/'))
    .map(([v, path]) =>
      [
        header('Subject', 'hi'),
        header('Content-Type', 'text/html'),
        '',
        `<a href="${phishBaseUrl(t.app)}${path}${v}">x</a>`,
      ].join('\r\n'),
    ),
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ unit: 'binary', maxLength: 500 }),
  fc.constantFrom(
    'Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: message/rfc822\r\n\r\nX-Vigil-Simulation: OWN0\r\n\r\nhi\r\n--x--',
    '\r\n\r\n',
    '',
  ),
);

const contentType = fc.constantFrom(
  'application/json',
  'message/rfc822',
  'message/rfc822; charset=utf-8',
  'text/plain',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
);

describe('POST /customer/campaigns/phishing/reports/ under random input', () => {
  it('never a 5xx, contract-shaped errors, another account’s simulations untouched', async () => {
    const before = await figuresOf(t.app, theirs.campaignId);
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonBody, messageBody), contentType, async (raw, type) => {
        const payload = resolve(raw);
        const res = await t.app.inject({
          method: 'POST',
          url: URL,
          headers: { apikey: key, 'content-type': type },
          payload,
        });
        seen.add(res.statusCode);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(ALLOWED.has(res.statusCode), `${res.statusCode} ${res.body}`).toBe(true);
        const body = res.json();
        if (res.statusCode === 202) {
          expect(body.reported_at).toEqual(expect.any(String));
        } else {
          const code = body.code as ErrorCode;
          expect(ERRORS[code]?.status).toBe(res.statusCode);
          expect(body).toMatchObject({ error: expect.any(String), status: res.statusCode });
          expect(res.body).not.toMatch(/at .*\.ts:|stack|node_modules/);
        }
      }),
      { numRuns: 300, plugins: [fc.interruptAfterTimeLimit(20_000)] },
    );
    expect(await figuresOf(t.app, theirs.campaignId)).toEqual(before);
    // The generators reach past parsing: matches, unknown tokens, bad bodies, wrong types.
    expect([...seen].sort()).toEqual(expect.arrayContaining([202, 400, 404, 415]));
  }, 60_000);
});
