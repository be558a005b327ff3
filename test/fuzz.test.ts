import { METHODS } from 'node:http';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/core/errors.js';
import { revokeKey } from '../src/modules/access/keys/keys.service.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { client, makeCampaign, makeEmployee, makeGroup, makeKey } from './helpers/factories.js';

/**
 * Bad input changes nothing: random bodies, paths, query strings and headers at every route
 * never give a 5xx, always give the contract's error shape without internal detail, and a
 * request that is not a successful POST/PUT leaves the data exactly as it was.
 */

const API = '/api/api_gateway';

let t: TestApp;
let accountId: number;
let key: string;
/** Keys of the same account that fail at other stages: permission (403), revoked (401). */
let otherKeys: string[];
let own: { employeeIds: number[]; emails: string[]; groupIds: number[] };
let other: { employeeIds: number[]; groupIds: number[] };
/** Each own group's ETag at the start: stale once the group changes. */
const firstEtags = new Map<string, string>();

beforeAll(async () => {
  t = await buildTestApp();
  ({ accountId, key } = await makeKey(t.app, { rateLimit: 1_000_000 }));
  const employees = [];
  for (let i = 0; i < 6; i++) employees.push(await makeEmployee(t.app, accountId));
  const groups = [];
  for (let i = 0; i < 3; i++) groups.push(await makeGroup(t.app, accountId, `Fuzz ${i}`, 'fuzzed'));
  const api = client(t.app, key);
  await api.put(`/customer/groups/${groups[0]!.id}/`, {
    employee_ids: employees.slice(0, 3).map((e) => e.id),
  });
  await api.put(`/customer/groups/${groups[1]!.id}/`, { employee_ids: employees.slice(2).map((e) => e.id) });
  await makeCampaign(t.app, accountId, [groups[0]!.id]);
  for (const { id } of groups)
    firstEtags.set(String(id), String((await api.get(`/customer/groups/${id}/`)).headers.etag));
  own = {
    employeeIds: employees.map((e) => e.id),
    emails: employees.map((e) => e.email),
    groupIds: groups.map((g) => g.id),
  };

  const stranger = await makeKey(t.app);
  const theirEmployee = await makeEmployee(t.app, stranger.accountId);
  const theirGroup = await makeGroup(t.app, stranger.accountId);
  other = { employeeIds: [theirEmployee.id], groupIds: [theirGroup.id] };

  const readOnly = await makeKey(t.app, { accountId, grants: ['employees:r', 'groups:r', 'campaigns:r'] });
  const writeOnly = await makeKey(t.app, { accountId, grants: ['employees:w', 'groups:w'] });
  const revoked = await makeKey(t.app, { accountId });
  await revokeKey(t.app.db, accountId, revoked.keyId);
  otherKeys = [readOnly.key, writeOnly.key, revoked.key];
});

// ---------------------------------------------------------------- the properties checked

/** Everything a request could change: this account's rows, and how many rows every table holds. */
async function snapshot() {
  const db = t.app.db;
  const [employees, groups, members, totals] = await Promise.all([
    db.selectFrom('employees').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),
    db.selectFrom('groups').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),
    db
      .selectFrom('group_members as gm')
      .innerJoin('groups as g', 'g.id', 'gm.group_id')
      .select(['gm.group_id', 'gm.employee_id'])
      .where('g.account_id', '=', accountId)
      .orderBy('gm.group_id')
      .orderBy('gm.employee_id')
      .execute(),
    sql<Record<string, number | string>>`select
        (select count(*) from accounts) as accounts,
        (select count(*) from api_keys) as api_keys,
        (select count(*) from employees) as employees,
        (select count(*) from groups) as groups,
        (select count(*) from group_members) as group_members,
        (select count(*) from training_campaigns) as campaigns,
        (select count(*) from campaign_groups) as campaign_groups,
        (select count(*) from tombstones) as tombstones`.execute(db),
  ]);
  const counts = Object.fromEntries(Object.entries(totals.rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
  return { employees, groups, members, counts };
}

// Internal detail that must never reach a client: SQL and driver names, stack frames, file paths.
const LEAKS = [
  /sql/i,
  /postgres/i,
  /kysely/i,
  /node_modules/i,
  /\bat\s+\S+\s+\(/,
  /\n\s*at\s/,
  /\bat\s.*:\d+:\d+/,
  /(?:^|[\s"'(=])\/(?:[\w.@-]+\/)+[\w.@-]*/,
  /[A-Za-z]:\\/,
  /\.[cm]?[jt]s:\d+/,
  /file:\/\//,
];
// Headers that echo what the client sent (its own Host and request id).
const ECHO_HEADERS = new Set(['location', 'x-request-id']);

function expectNoLeak(text: string, where: string) {
  for (const pattern of LEAKS) expect(pattern.test(text), `${where}: matches ${pattern}`).toBe(false);
}

function expectErrorShape(res: LightMyRequestResponse, where: string) {
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  let body: unknown;
  expect(() => {
    body = JSON.parse(res.body);
  }, where).not.toThrow();
  const error = body as Record<string, unknown>;
  expect(typeof error, where).toBe('object');
  expect(error, where).not.toBeNull();
  expect(
    Object.keys(error).filter((k) => !['error', 'status', 'code', 'details', 'request_id'].includes(k)),
    where,
  ).toEqual([]);
  expect(typeof error.error, where).toBe('string');
  expect((error.error as string).length, where).toBeGreaterThan(0);
  expect(error.status, where).toBe(res.statusCode);
  if ('details' in error) {
    expect(typeof error.details, where).toBe('object');
    expect(error.details, where).not.toBeNull();
    expect(Array.isArray(error.details), where).toBe(false);
  }
  // Every error has a code of the catalogue with this status (the Customer API's 401s and 403 excepted).
  if ('code' in error || ![401, 403].includes(res.statusCode)) {
    expect(ERRORS[error.code as ErrorCode]?.status, `${where}: code`).toBe(res.statusCode);
    // The request id echoes the client's X-Request-Id when it sent a usable one, like the header.
    expect(error.request_id, where).toBe(res.headers['x-request-id']);
  }
  expectNoLeak(JSON.stringify({ ...error, request_id: undefined }), where);
}

interface Req {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress?: string;
}

const statuses = new Map<string, Map<number, number>>();

/**
 * Checks begun and not yet done. A property's time limit (`interruptAfterTimeLimit`) ends its
 * run without waiting for the check in flight, whose request may then commit during the next
 * test's snapshots (seen on a busy CI machine): each test waits for the last ones first.
 */
const inFlight = new Set<Promise<unknown>>();
afterEach(async () => {
  await Promise.allSettled([...inFlight]);
});

/** Sends one request and checks every property; returns the response for further checks. */
function check(name: string, req: Req): Promise<LightMyRequestResponse> {
  const checking = checkNow(name, req);
  inFlight.add(checking);
  const done = () => inFlight.delete(checking);
  checking.then(done, done);
  return checking;
}

async function checkNow(name: string, req: Req): Promise<LightMyRequestResponse> {
  const before = await snapshot();
  const res = await t.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
    ...(req.remoteAddress ? { remoteAddress: req.remoteAddress } : {}),
  });
  const seen = statuses.get(name) ?? new Map<number, number>();
  statuses.set(name, seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1));

  const where = `${req.method} ${req.url.slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  // 2.2.0 unless the route is new in 2.3.0 (see src/core/http/api-version.ts).
  expect(res.headers['x-api-version'], where).toMatch(/^2\.[23]\.0$/);
  for (const [header, value] of Object.entries(res.headers)) {
    if (!ECHO_HEADERS.has(header)) expectNoLeak(`${header}: ${String(value)}`, where);
  }
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  if (!ok && req.method !== 'HEAD') expectErrorShape(res, where);
  if (!(ok && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method))) {
    expect(await snapshot(), `data changed by ${where}`).toEqual(before);
  }
  return res;
}

function statusesOf(name: string): number[] {
  return [...(statuses.get(name)?.keys() ?? [])].sort();
}

// ---------------------------------------------------------------- generators

/** A list written as one line: "a b c" → ['a', 'b', 'c']. */
const words = (text: string) => text.split(' ');

// Characters that break naive handling: controls (NUL), lone surrogates, separators, BOM, quoting.
const ODD_CHARS = [
  ...['\0', '\u0001', '\u001f', '\u007f', '\u0085', '\u2028', '\u2029', '\ufeff', '\uffff', '\u200b'],
  ...['\ud800', '\udbff', '\udc00', '\udfff'],
  ...[' ', '\t', '\n', '"', '\\', '/', '%', '&', '=', '?', '#', '@', '.', "'", ';'],
  ...['é', 'İ', 'ß', '😀', 'a', 'Z', '0', '9'],
];
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...ODD_CHARS), maxLength: 40 }),
  fc.constantFrom(
    ...['', '   ', 'ann@example.com', ' ANN@Example.COM ', 'a@b', 'a@b.c', '@x.com', 'x@', 'a\0@x.com'],
    ...['\ud800@x.com', 'a'.repeat(151), `${'a'.repeat(250)}@x.com`],
    ...words('NaN Infinity 1e3 -1 1.5 null __proto__ {{7*7}}'),
    ...["' OR 1=1 --", "Robert'); DROP TABLE employees;--"],
  ),
  fc.string({ unit: 'grapheme', minLength: 140, maxLength: 2100 }),
);

const jsonKey = fc.oneof(
  fc.constantFrom(
    ...words('employee_ids name description first_name last_name email'),
    ...words('__proto__ constructor prototype toString hasOwnProperty'),
    '',
  ),
  oddString,
);

// Number literals JSON.stringify cannot write: beyond double range, beyond 2^53, -0, exponents.
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.constantFrom(
    ...words('1e400 -1e400 1e-400 1E+2 -0 0.0 1.0 5e-324 1.5 2147483648'),
    ...words('9007199254740991 9007199254740992 9007199254740993 18446744073709551616'),
    '99999999999999999999999999999999999999',
  ),
);

const objectText = (entries: [string, string][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/** Random JSON text: any nesting of arrays and objects (duplicate and prototype keys included). */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'json' },
    numberText,
    fc.constantFrom('true', 'false', 'null'),
    oddString.map((s) => JSON.stringify(s)),
    tie('array'),
    tie('object'),
  ),
  array: fc
    .array(tie('value'), { maxLength: 6, depthIdentifier: 'json' })
    .map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(jsonKey, tie('value')), { maxLength: 6, depthIdentifier: 'json' })
    .map(objectText),
})).value;

const stringOrJunk = fc.oneof(
  { arbitrary: oddString.map((s) => JSON.stringify(s)), weight: 3 },
  { arbitrary: jsonText, weight: 1 },
);
const extraFields = fc.array(fc.tuple(jsonKey, jsonText), { maxLength: 3 });

const fieldsText = ({ extra, ...fields }: { extra: [string, string][] } & Record<string, unknown>) =>
  objectText([
    ...Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ...extra,
  ]);

/** Employee bodies: valid new or duplicate employees, or the right fields with odd values. */
const employeeBody = () => {
  const freshEmail = fc
    .stringMatching(/^[a-z0-9]{1,12}$/)
    .map((local) => JSON.stringify(` Fuzz.${local}@Example.com `));
  const takenEmail = fc.constantFrom(...own.emails).map((e) => JSON.stringify(e.toUpperCase()));
  const valid = fc.record({
    first_name: fc.constant('" Ann "'),
    last_name: fc.constant('"Lee"'),
    email: fc.oneof(freshEmail, takenEmail),
    extra: fc.constant([] as [string, string][]),
  });
  const odd = fc.record({
    first_name: fc.option(fc.oneof(fc.constant('"Ann"'), stringOrJunk), { nil: undefined }),
    last_name: fc.option(fc.oneof(fc.constant('"Lee"'), stringOrJunk), { nil: undefined }),
    email: fc.option(fc.oneof(freshEmail, takenEmail, stringOrJunk), { nil: undefined }),
    extra: extraFields,
  });
  return fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: odd, weight: 2 }).map(fieldsText);
};

/** Membership bodies: own ids, or employee_ids of mixed types (another account's, unknown, junk), odd names. */
const membershipBody = () => {
  const idEntry = fc.oneof(
    { arbitrary: fc.constantFrom(...own.employeeIds).map(String), weight: 4 },
    { arbitrary: fc.constantFrom(...other.employeeIds).map(String), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: 2 ** 40 }).map(String), weight: 1 },
    { arbitrary: numberText, weight: 2 },
    { arbitrary: jsonText, weight: 1 },
  );
  const ownIds = fc.subarray(own.employeeIds).map((ids) => JSON.stringify(ids));
  const valid = fc.record({
    employee_ids: ownIds,
    name: fc.option(fc.constantFrom('"Renamed"', '" Fuzz 0 "'), { nil: undefined, freq: 2 }),
    description: fc.option(fc.constantFrom('""', '"line\nbreak"'), { nil: undefined, freq: 2 }),
    extra: fc.constant([] as [string, string][]),
  });
  const odd = fc.record({
    employee_ids: fc.option(
      fc.oneof(
        { arbitrary: fc.array(idEntry, { maxLength: 30 }).map((items) => `[${items.join(',')}]`), weight: 5 },
        { arbitrary: jsonText, weight: 1 },
      ),
      { nil: undefined, freq: 8 },
    ),
    name: fc.option(fc.oneof(fc.constant('"Renamed"'), stringOrJunk), { nil: undefined, freq: 2 }),
    description: fc.option(stringOrJunk, { nil: undefined, freq: 2 }),
    extra: extraFields,
  });
  return fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: odd, weight: 2 }).map(fieldsText);
};

/** Bulk upsert bodies: `{"employees": [...]}` of employee bodies (repeats and junk rows among them), or odd shapes. */
const bulkBody = () => {
  const rows = fc.array(
    fc.oneof({ arbitrary: employeeBody(), weight: 8 }, { arbitrary: jsonText, weight: 1 }),
    {
      maxLength: 12,
    },
  );
  const valid = rows.map((items) => `{"employees":[${items.join(',')}]}`);
  const odd = fc.record({
    employees: fc.option(
      fc.oneof(
        rows.map((items) => `[${items.join(',')}]`),
        jsonText,
      ),
      { nil: undefined, freq: 6 },
    ),
    extra: extraFields,
  });
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: odd.map(fieldsText), weight: 1 });
};

/** A body: usually well-formed JSON, else random JSON, text, bytes, truncated JSON or nothing. */
const body = (targeted: fc.Arbitrary<string>) =>
  fc.oneof(
    { arbitrary: targeted, weight: 10 },
    { arbitrary: jsonText, weight: 3 },
    { arbitrary: oddString, weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), weight: 1 },
    {
      arbitrary: fc.tuple(targeted, fc.nat()).map(([s, n]) => s.slice(0, n % (s.length + 1)) || '{'),
      weight: 1,
    },
    { arbitrary: fc.constantFrom(undefined, '', ' ', 'null', '[]', '{}'), weight: 1 },
  );

// Header values as HTTP can carry them: tab, visible ASCII, and bytes 0x80–0xFF read as Latin-1.
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff }))
  .map((c) => String.fromCharCode(c));
const headerValue = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 60 }),
  fc.constantFrom(
    '',
    ' ',
    '*',
    'W/"x"',
    '"g1v1"',
    'W/"g1v1", *',
    ',,,',
    'W/',
    '"',
    'null',
    '[object Object]',
  ),
  fc.string({ unit: headerChar, minLength: 1000, maxLength: 4000 }),
);

const contentType = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      ...[undefined, '', '*/*', 'json', 'text/plain', 'text/json', 'APPLICATION/JSON', 'application/json;;'],
      ...['application/json; charset=latin1', 'application/json; charset=utf-16', 'application/jsonx'],
      ...['application/vnd.api+json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'],
    ),
    weight: 3,
  },
  { arbitrary: headerValue, weight: 1 },
);

// Host feeds `next`, `previous` and `Location`: hosts a URL parser accepts but a URI cannot hold,
// encoded ones, IDN, IP literals, ports, and any header text.
const hostHeader = fc.oneof(
  headerValue,
  fc.constantFrom(...words('" { ` | ^ %22 %7B a%2Fb é [::1]:8080 [zz] a:99999 x: \' a,b')),
);

/** Junk in other request headers: If-Match, Accept, Host (used for links), request ids, proxies. */
const junkHeaders = fc.record(
  {
    'if-match': headerValue,
    'if-none-match': headerValue,
    accept: headerValue,
    'accept-encoding': headerValue,
    host: hostHeader,
    'x-request-id': headerValue,
    'x-forwarded-for': headerValue,
    'x-forwarded-host': headerValue,
    'x-forwarded-proto': headerValue,
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x'),
    'transfer-encoding': fc.constantFrom('chunked', 'gzip', 'x'),
  },
  { requiredKeys: [] },
);
const extraHeaders = fc.oneof(
  { arbitrary: fc.constant({} as Record<string, string>), weight: 2 },
  { arbitrary: junkHeaders, weight: 1 },
);

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as in any client). */
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

// Malformed, overlong and odd percent-escapes, passed through as they are.
const RAW_ESCAPES = words(
  '%00 %2F %2e%2e .. . % %zz %C0%AF %ED%A0%80 %FF %E2%80%A8 %F0%9F%98%80 %25 %3F %23',
);

const pathParam = () =>
  fc.oneof(
    {
      arbitrary: fc.constantFrom(...own.employeeIds, ...own.groupIds, ...other.groupIds).map(String),
      weight: 4,
    },
    {
      arbitrary: fc.constantFrom(
        ...words('0 -1 1.5 1e3 01 +1 0x1 NaN Infinity null 1;1 1,2 [1]'),
        ...words('9007199254740991 9007199254740992 9007199254740993 99999999999999999999'),
        ...RAW_ESCAPES,
      ),
      weight: 3,
    },
    { arbitrary: fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).map(String), weight: 1 },
    { arbitrary: oddString.map(encode), weight: 2 },
    { arbitrary: fc.integer({ min: 990, max: 3000 }).map((n) => '9'.repeat(n)), weight: 1 },
  );

const queryString = () => {
  const number = fc.oneof(
    fc.constantFrom(
      '',
      ...words('1 2 3 0 -1 1.5 1e2 1e308 1e400 %20 abc 1000 1001 1000000 0x10 Infinity NaN true +1 1+1 %2B1'),
      ...words('9007199254740991 9007199254740993 99999999999999999999'),
      ...RAW_ESCAPES,
    ),
    fc.integer().map(String),
  );
  const address = fc.oneof(
    fc.constantFrom(...own.emails).map((e) => encode(` ${e.toUpperCase()}`)),
    fc.constantFrom('%00', 'a%00b%40x.com', '%ED%A0%80%40x.com', '%FF%FE', '%C0%80', '%E2%80%A8', 'a%40b'),
    oddString.map(encode),
  );
  const junkName = fc.oneof(
    fc.constantFrom('Page', 'page[]', 'page[0]', 'email[]', '__proto__', 'constructor', 'apiKey', '', 'x'),
    oddString.map(encode),
  );
  const instant = fc.oneof(
    fc.constantFrom(
      '2026-11-22T09:14:03.512Z',
      '2026-11-22T10:14:03%2B01:00',
      '2026-11-22T10:14:03+01:00',
      '2026-02-30T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999999999Z',
      '2026-11-22',
      '1764000000000',
    ),
    fc.date({ noInvalidDate: true }).map((d) => encode(d.toISOString())),
    oddString.map(encode),
  );
  const param = fc.oneof(
    { arbitrary: fc.tuple(fc.constantFrom('page', 'page_size'), number), weight: 4 },
    { arbitrary: fc.tuple(fc.constant('email'), address), weight: 3 },
    { arbitrary: fc.tuple(fc.constantFrom('updated_since', 'since'), instant), weight: 2 },
    { arbitrary: fc.tuple(junkName, fc.oneof(number, address)), weight: 1 },
  );
  return fc
    .tuple(
      fc.array(fc.tuple(param, fc.nat(9)), { maxLength: 6 }),
      fc.constantFrom('&', '&', '&&', ';'),
      fc.boolean(),
    )
    .map(([pairs, sep, mark]) => {
      // Now and then a parameter without "=" (an empty value).
      const text = pairs.map(([[n, v], bare]) => (bare === 0 && n !== '' ? n : `${n}=${v}`)).join(sep);
      return mark || text ? `?${text}` : '';
    });
};

/** Slash, no slash, doubled slashes. */
const trailing = fc.constantFrom('/', '/', '', '//');

// ---------------------------------------------------------------- the suites

const RUNS = { writes: 250, reads: 150, lists: 200, anything: 250, auth: 150 };
// Bounds a property's time (shrinking a failure included) so the file stays well under a minute;
// a failure found before the limit is still reported with its smallest counterexample so far.
const run = (numRuns: number) => ({ numRuns, plugins: [fc.interruptAfterTimeLimit(15_000)] });

describe('random input at every route', () => {
  it('POST /customer/employees/: never a 5xx, contract-shaped errors, rejected creates write nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        body(employeeBody()),
        contentType,
        extraHeaders,
        trailing,
        async (payload, type, headers, slash) => {
          const res = await check('post', {
            method: 'POST',
            url: `${API}/customer/employees${slash}`,
            headers: { ...headers, apikey: key, ...(type !== undefined ? { 'content-type': type } : {}) },
            payload,
          });
          if (res.statusCode === 201) {
            const location = new URL(String(res.headers.location));
            expect(location.pathname).toBe(`${API}/customer/employees/${res.json().id}/`);
            const read = await t.app.inject({ url: location.pathname, headers: { apikey: key } });
            expect(read.json()).toEqual(res.json());
          }
        },
      ),
      run(RUNS.writes),
    );
    // The generators reach past parsing and validation.
    expect(statusesOf('post')).toEqual(expect.arrayContaining([201, 400, 409, 415]));
  });

  it('POST /customer/employees/bulk/: never a 5xx, one result per row, rows applied as reported, rejected bodies write nothing', async () => {
    await fc.assert(
      fc.asyncProperty(bulkBody(), contentType, extraHeaders, async (payload, type, headers) => {
        const res = await check('bulk', {
          method: 'POST',
          url: `${API}/customer/employees/bulk/`,
          headers: { ...headers, apikey: key, ...(type !== undefined ? { 'content-type': type } : {}) },
          payload,
        });
        if (res.statusCode !== 200) return;
        const { results, counts } = res.json();
        const sent = JSON.parse(payload).employees as unknown[];
        expect(results.map((r: { index: number }) => r.index)).toEqual(sent.map((_, i) => i));
        const tally = { created: 0, updated: 0, unchanged: 0, error: 0 } as Record<string, number>;
        for (const result of results) {
          tally[result.status] = (tally[result.status] ?? 0) + 1;
          if (result.status === 'error') {
            expect(result.id).toBeUndefined();
            expect(['validation_failed', 'duplicate_email']).toContain(result.error.code);
            continue;
          }
          const read = await t.app.inject({
            url: `${API}/customer/employees/${result.id}/`,
            headers: { apikey: key },
          });
          expect(read.json().email.toLowerCase()).toBe(result.email.toLowerCase());
        }
        expect(counts).toEqual(tally);
      }),
      run(RUNS.writes),
    );
    expect(statusesOf('bulk')).toEqual(expect.arrayContaining([200, 400, 415]));
  });

  it('PUT /customer/groups/{id}/: never a 5xx, contract-shaped errors, rejected replacements change nothing', async () => {
    const ifMatch = fc.oneof(fc.constantFrom(undefined, 'current', 'stale', '*'), headerValue);
    const groupId = fc.oneof(
      { arbitrary: fc.constantFrom(...own.groupIds).map(String), weight: 4 },
      { arbitrary: fc.constantFrom(...other.groupIds, 999_999_999).map(String), weight: 2 },
      { arbitrary: pathParam(), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(
        groupId,
        body(membershipBody()),
        contentType,
        ifMatch,
        extraHeaders,
        async (id, payload, type, match, headers) => {
          const { 'if-match': _junk, ...rest } = headers;
          let condition = match;
          if (match === 'current' || match === 'stale') {
            const read = await t.app.inject({
              url: `${API}/customer/groups/${id}/`,
              headers: { apikey: key },
            });
            const etag = read.statusCode === 200 ? String(read.headers.etag) : '"none"';
            condition = match === 'current' ? etag : (firstEtags.get(id) ?? '"none"');
          }
          const res = await check('put', {
            method: 'PUT',
            url: `${API}/customer/groups/${id}/`,
            headers: {
              ...rest,
              apikey: key,
              ...(type !== undefined ? { 'content-type': type } : {}),
              ...(condition !== undefined ? { 'if-match': condition } : {}),
            },
            payload,
          });
          if (res.statusCode === 200) {
            // All of it was written: a fresh read shows exactly what the PUT answered.
            const read = await t.app.inject({
              url: `${API}/customer/groups/${id}/`,
              headers: { apikey: key },
            });
            expect(read.json()).toEqual(res.json());
            expect(read.headers.etag).toBe(res.headers.etag);
            expect(res.json().employee_count).toBe(res.json().employees.length);
          }
        },
      ),
      run(RUNS.writes),
    );
    expect(statusesOf('put')).toEqual(expect.arrayContaining([200, 400, 404, 412, 415]));
  });

  it('GET /customer/employees/{id}/ and /customer/groups/{id}/: random ids are 404s, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('employees', 'groups'),
        pathParam(),
        trailing,
        queryString(),
        extraHeaders,
        async (resource, id, slash, query, headers) => {
          const res = await check('item', {
            method: 'GET',
            url: `${API}/customer/${resource}/${id}${slash}${query}`,
            headers: { ...headers, apikey: key },
          });
          // "", "." and ".." leave (or are path segments a URL resolves away to) the list itself,
          // whose 404 is a page past the last ("Invalid page").
          if (res.statusCode === 404 && !/^[1-9]\d*$/.test(id) && !['', '.', '..'].includes(id)) {
            const body = res.json();
            expect(['Not found', resource === 'groups' ? 'Group not found' : 'Employee not found']).toContain(
              body.error,
            );
          }
        },
      ),
      {
        ...run(RUNS.reads),
        // Reached first, whatever the time limit leaves of the random runs on a loaded machine.
        examples: [
          ['employees', String(own.employeeIds[0]), '/', '', {}],
          ['groups', String(other.groupIds[0]), '/', '', {}],
        ],
      },
    );
    expect(statusesOf('item')).toEqual(expect.arrayContaining([200, 404]));
  });

  it('GET lists: random page, page_size, email and repeated parameters are 400s or pages, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/customer/employees',
          '/customer/groups',
          '/customer/campaigns/training',
          '/customer/employees/deleted',
          '/customer/groups/deleted',
        ),
        trailing,
        fc.oneof(
          { arbitrary: queryString(), weight: 4 },
          // Pages with links, which are built from the request's Host and query.
          {
            arbitrary: fc.constantFrom('?page_size=1', '?page=2&page_size=1', '?page_size=1&x=%7B%22'),
            weight: 1,
          },
        ),
        fc.oneof(extraHeaders, fc.record({ host: hostHeader })),
        async (path, slash, query, headers) => {
          const res = await check('list', {
            method: 'GET',
            url: `${API}${path}${slash}${query}`,
            headers: { ...headers, apikey: key },
          });
          if (res.statusCode === 400 && headers.host === undefined)
            expect(res.json().error).toBe('Validation failed');
          if (res.statusCode === 200)
            expect(res.json()).toMatchObject({ count: expect.any(Number), results: expect.any(Array) });
        },
      ),
      run(RUNS.lists),
    );
    expect(statusesOf('list')).toEqual(expect.arrayContaining([200, 400, 404]));
  });

  it('random methods, paths and bodies under the API prefix: never a 5xx, errors contract-shaped, nothing changes unless a write succeeds', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'customer',
        'employees',
        'groups',
        'campaigns',
        'training',
        'admin',
        'docs',
        'static',
        'json',
        'openapi.json',
        'api_gateway',
        'bulk',
        'deleted',
        'members',
        '',
      ),
      pathParam(),
    );
    const known = fc.constantFrom(
      '/customer/employees/',
      '/customer/groups/',
      '/customer/campaigns/training/',
      '/customer/employees/bulk/',
      '/customer/employees/deleted/',
      '/customer/groups/deleted/',
      `/customer/employees/${own.employeeIds[0]}/`,
      `/customer/groups/${own.groupIds[0]}/`,
      `/customer/groups/${other.groupIds[0]}/`,
      '/customer/',
      '/',
      '',
    );
    const path = fc.oneof(
      known,
      fc.array(segment, { maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
    );
    const method = fc.oneof(
      { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), weight: 4 },
      { arbitrary: fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT')), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        queryString(),
        body(fc.oneof(membershipBody(), employeeBody(), bulkBody())),
        contentType,
        extraHeaders,
        async (verb, p, query, payload, type, headers) => {
          await check('anything', {
            method: verb,
            url: `${API}${p}${query}`,
            headers: { ...headers, apikey: key, ...(type !== undefined ? { 'content-type': type } : {}) },
            ...(verb === 'GET' || verb === 'HEAD' ? {} : { payload }),
          });
        },
      ),
      run(RUNS.anything),
    );
    expect(statusesOf('anything')).toEqual(expect.arrayContaining([200, 404, 405]));
  });

  it('random apiKey headers at every route: 401/403/429 in the contract shape, never 5xx', async () => {
    const base62 = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    const apiKey = fc.oneof(
      { arbitrary: fc.constantFrom(key, ` ${key}\t`, ...otherKeys), weight: 3 },
      {
        arbitrary: fc.constantFrom(
          undefined,
          '',
          ' ',
          '\t',
          key.toUpperCase(),
          key.toLowerCase(),
          key.slice(0, -1),
          `${key}x`,
          key.replace('vgl_', 'VGL_'),
          `Bearer ${key}`,
          'vgl_',
        ),
        weight: 2,
      },
      {
        arbitrary: fc
          .tuple(fc.nat({ max: key.length - 1 }), base62)
          .map(([i, c]) => key.slice(0, i) + c + key.slice(i + 1)),
        weight: 1,
      },
      { arbitrary: fc.string({ unit: base62, maxLength: 140 }).map((s) => `vgl_${s}`), weight: 1 },
      { arbitrary: headerValue, weight: 1 },
    );
    const route = fc.constantFrom(
      ['POST', '/customer/employees/'],
      ['GET', '/customer/employees/'],
      ['GET', `/customer/employees/${own.employeeIds[0]}/`],
      ['GET', '/customer/groups/'],
      ['GET', `/customer/groups/${own.groupIds[0]}/`],
      ['PUT', `/customer/groups/${own.groupIds[0]}/`],
      ['GET', '/customer/campaigns/training/'],
    );
    await fc.assert(
      fc.asyncProperty(
        apiKey,
        route,
        body(fc.oneof(membershipBody(), employeeBody())),
        extraHeaders,
        fc.ipV4(),
        async (presented, [verb, p], payload, headers, ip) => {
          const res = await check('auth', {
            method: verb,
            url: `${API}${p}`,
            headers: {
              ...headers,
              'content-type': 'application/json',
              ...(presented !== undefined ? { apikey: presented } : {}),
            },
            ...(verb === 'GET' ? {} : { payload }),
            remoteAddress: ip,
          });
          const trimmed = presented?.trim() ?? '';
          if (trimmed !== key && !otherKeys.includes(trimmed)) {
            expect([401, 429]).toContain(res.statusCode);
            if (res.statusCode === 401)
              expect(res.json().error).toBe(trimmed === '' ? 'API key required' : 'Invalid API key');
          }
        },
      ),
      run(RUNS.auth),
    );
    expect(statusesOf('auth')).toEqual(expect.arrayContaining([401, 403]));
  });

  it('answers deeply nested and very wide bodies without a 5xx and writes nothing', async () => {
    const depth = 100_000;
    const nested = '['.repeat(depth) + ']'.repeat(depth);
    const nestedObject = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const wide = `[${Array.from({ length: 200_000 }, (_, i) => (i % 3 ? '"x"' : 'null')).join(',')}]`;
    const bodies = [
      `{"employee_ids":${nested}}`,
      `{"employee_ids":[1,${nested}],"name":${nested}}`,
      `{"employee_ids":${wide},"description":${nestedObject}}`,
      `{"employee_ids":"x","__proto__":${nestedObject}}`,
    ];
    for (const payload of bodies) {
      for (const [verb, p] of [
        ['PUT', `/customer/groups/${own.groupIds[0]}/`],
        ['POST', '/customer/employees/'],
      ] as const) {
        const res = await check('nested', {
          method: verb,
          url: `${API}${p}`,
          headers: { apikey: key, 'content-type': 'application/json' },
          payload: verb === 'POST' ? payload.replace('"employee_ids"', '"first_name"') : payload,
        });
        expect(res.statusCode, payload.slice(0, 40)).toBe(400);
      }
    }
  });

  it('answers a body above the limit with 413 and writes nothing', async () => {
    const huge = JSON.stringify({ employee_ids: [], name: 'x'.repeat(9 * 1024 * 1024) });
    for (const [verb, p] of [
      ['PUT', `/customer/groups/${own.groupIds[0]}/`],
      ['POST', '/customer/employees/'],
    ] as const) {
      const res = await check('limit', {
        method: verb,
        url: `${API}${p}`,
        headers: { apikey: key, 'content-type': 'application/json' },
        payload: huge,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: 'Payload too large', status: 413, ...coded('payload_too_large') });
    }
  });
});
