import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import {
  changedBuiltins,
  restoreBuiltins,
  restoreBuiltinsOnUncaughtException,
  snapshotBuiltins,
} from '../../../../test/helpers/builtins.js';
import { makeEmployee, makeGroup } from '../../../../test/helpers/factories.js';
import { filter, makeScimToken, type ScimClient, scimClient } from '../../../../test/helpers/scim.js';

// Random filters and PATCH operations (well-formed, near-miss and garbage alike) never get a 5xx:
// every answer is a success or a 4xx in SCIM's error schema.

let t: TestApp;
let scim: ScimClient;
let userId: number;
let groupId: number;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_DEFAULT: '1000000' });
  const { token, accountId } = await makeScimToken(t.app);
  scim = scimClient(t.app, token);
  userId = (await makeEmployee(t.app, accountId, { email: 'fuzz@scim.example' })).id;
  groupId = (await makeGroup(t.app, accountId)).id;
});

const RUNS = Number(process.env.SCIM_FUZZ_RUNS ?? 150);

const attribute = fc.constantFrom(
  'userName',
  'USERNAME',
  'externalId',
  'emails',
  'emails.value',
  'emails.type',
  'name.givenName',
  'active',
  'id',
  'displayName',
  'members',
  'members.value',
  'meta.created',
  'urn:ietf:params:scim:schemas:core:2.0:User:userName',
  '__proto__',
  'constructor.prototype',
  'x',
  '',
);
const operator = fc.constantFrom(
  'eq',
  'ne',
  'co',
  'sw',
  'ew',
  'gt',
  'lt',
  'ge',
  'le',
  'pr',
  'EQ',
  'and',
  'or',
  'not',
  '[',
  ']',
);
const literal = fc.oneof(
  fc.string().map((s) => JSON.stringify(s)),
  fc.constantFrom('true', 'false', 'null', '1', '-1', '1e999', '"fuzz@scim.example"', '"\\u0000"', '"'),
  fc.integer().map(String),
);
const comparison = fc.tuple(attribute, operator, literal).map(([a, o, v]) => `${a} ${o} ${v}`);
const filterText = fc.oneof(
  comparison,
  fc.tuple(comparison, fc.constantFrom(' and ', ' or ', ' AND '), comparison).map(([a, j, b]) => a + j + b),
  fc.tuple(attribute, comparison, literal).map(([a, c, v]) => `${a}[${c}].value eq ${v}`),
  fc
    .tuple(fc.constantFrom('(', 'not (', ''), comparison, fc.constantFrom(')', '', '))'))
    .map((p) => p.join('')),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const pathText = fc.oneof(
  attribute,
  fc.tuple(attribute, comparison).map(([a, c]) => `${a}[${c}]`),
  fc.tuple(attribute, comparison, attribute).map(([a, c, s]) => `${a}[${c}].${s}`),
  fc.constant(`members[value eq "${'1'}"]`),
  fc.string({ maxLength: 30 }),
);
const operation = fc.record(
  {
    op: fc.oneof(
      fc.constantFrom('add', 'Add', 'REMOVE', 'replace', 'Replace', 'remove', 'copy'),
      fc.string(),
    ),
    path: fc.oneof(pathText, fc.constant(undefined), fc.integer()),
    value: fc.oneof(
      jsonValue,
      fc.constantFrom('False', 'True', 'maybe'),
      fc.dictionary(attribute, jsonValue, { maxKeys: 4 }),
      fc.array(fc.record({ value: fc.oneof(fc.string(), fc.integer().map(String), fc.constant('1')) }), {
        maxLength: 3,
      }),
    ),
  },
  { requiredKeys: ['op'] },
);
const patchBody = fc.oneof(
  fc.record({
    schemas: fc.constantFrom(['urn:ietf:params:scim:api:messages:2.0:PatchOp'], undefined, ['x']),
    Operations: fc.array(operation, { minLength: 0, maxLength: 4 }),
  }),
  jsonValue,
);

function expectScimAnswer(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  input: unknown,
) {
  expect(res.statusCode, `${JSON.stringify(input)} → ${res.body}`).toBeLessThan(500);
  expect(String(res.headers['content-type'])).toMatch(/^application\/scim\+json/);
  if (res.statusCode >= 400) {
    const body = JSON.parse(res.body);
    expect(body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    expect(body.status).toBe(String(res.statusCode));
  }
}

describe('SCIM under random input', () => {
  it('answers every filter on Users and Groups without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(filterText, fc.constantFrom('/Users', '/Groups'), async (text, resource) => {
        expectScimAnswer(await scim.get(`${resource}?${filter(text)}`), text);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers every PATCH of a user and of a group without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(patchBody, fc.boolean(), async (body, onUser) => {
        const path = onUser ? `/Users/${userId}` : `/Groups/${groupId}`;
        expectScimAnswer(await scim.patch(path, body), body);
      }),
      { numRuns: RUNS },
    );
    // The user still reads (whatever random PATCHes did to it, it is a valid user).
    const after = await scim.get(`/Users/${userId}`);
    expect(after.statusCode).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

// Paths made of the names every object, function, array and string inherits (issue 19: the path
// `hasOwnProperty.call` set Object.prototype.hasOwnProperty.call for the whole process), mixed
// with the attributes Vigil maps, joined with `.` and with value filters.
const inheritedNames = [
  ...new Set([
    ...[Object.prototype, Function.prototype, Array.prototype, String.prototype].flatMap((proto) =>
      Object.getOwnPropertyNames(proto),
    ),
    ...['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'call', 'apply', 'bind', 'length'],
  ]),
];
const mappedNames = [
  'userName',
  'name',
  'givenName',
  'emails',
  'value',
  'type',
  'displayName',
  'members',
  'active',
];
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...inheritedNames) },
  { weight: 1, arbitrary: fc.constantFrom(...mappedNames) },
);
const caseOf = (text: string, upper: boolean[]) =>
  [...text].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c.toLowerCase())).join('');
const builtinPath = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.')),
  fc
    .tuple(segment, segment, fc.constantFrom('eq', 'ne', 'pr', 'co'), segment, fc.option(segment))
    .map(
      ([attr, sub, op, value, after]) =>
        `${attr}[${sub} ${op}${op === 'pr' ? '' : ` "${value}"`}]${after ? `.${after}` : ''}`,
    ),
  segment.map((name) => `urn:ietf:params:scim:schemas:core:2.0:User:${name}.call`),
);
const builtinValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(builtinPath, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.array(fc.dictionary(segment, fc.string(), { maxKeys: 3 }), { maxLength: 2 }),
);
const builtinOperation = fc.oneof(
  fc.record({
    op: fc
      .tuple(fc.constantFrom('add', 'remove', 'replace'), fc.array(fc.boolean(), { minLength: 1 }))
      .map(([op, upper]) => caseOf(op, upper)),
    path: builtinPath,
    value: builtinValue,
  }),
  // Path-less: the value's keys are the paths.
  fc.record({
    op: fc.constantFrom('add', 'Replace', 'REPLACE'),
    value: fc.dictionary(builtinPath, builtinValue, { minKeys: 1, maxKeys: 3 }),
  }),
);

describe('SCIM PATCH over the names of built-ins', () => {
  const builtins = snapshotBuiltins();
  // A run that did change one would otherwise end the test worker at the next log line.
  const stopGuard = restoreBuiltinsOnUncaughtException(builtins);
  afterAll(stopGuard);

  it('never changes a built-in, answers 2xx or a 4xx in SCIM’s error schema, and keeps answering', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(builtinOperation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (operations, onUser) => {
          const path = onUser ? `/Users/${userId}` : `/Groups/${groupId}`;
          const body = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations };
          const res = await scim.patch(path, body);
          const changed = changedBuiltins(builtins);
          if (changed.length > 0) restoreBuiltins(builtins);
          expect(changed, JSON.stringify(body)).toEqual([]);
          expectScimAnswer(res, body);
          expect((await scim.get(path)).statusCode).toBe(200);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
