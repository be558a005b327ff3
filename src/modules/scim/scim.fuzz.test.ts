import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { makeEmployee, makeGroup } from '../../../test/helpers/factories.js';
import { filter, makeScimToken, type ScimClient, scimClient } from '../../../test/helpers/scim.js';

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
