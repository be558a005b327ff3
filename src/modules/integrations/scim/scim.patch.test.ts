import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import {
  changedBuiltins,
  restoreBuiltins,
  restoreBuiltinsOnUncaughtException,
  snapshotBuiltins,
} from '../../../../test/helpers/builtins.js';
import { makeEmployee, makeGroup } from '../../../../test/helpers/factories.js';
import { makeScimToken, type ScimClient, scimClient, scimErrorOf } from '../../../../test/helpers/scim.js';

/**
 * Issue 19, item 2: a PATCH names only attributes Vigil maps. `hasOwnProperty.call` once set
 * Object.prototype.hasOwnProperty.call for the whole process, and the next log line ended it.
 */

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const builtins = snapshotBuiltins();
const stopGuard = restoreBuiltinsOnUncaughtException(builtins);
afterAll(stopGuard);
afterEach(() => restoreBuiltins(builtins));

let t: TestApp;
let scim: ScimClient;
let accountId: number;
beforeAll(async () => {
  t = await buildTestApp();
  const made = await makeScimToken(t.app);
  scim = scimClient(t.app, made.token);
  accountId = made.accountId;
});

const patch = (operations: unknown[]) => ({ schemas: [PATCH], Operations: operations });

describe('SCIM PATCH paths', () => {
  it('answers hasOwnProperty.call with 400 invalidPath, changes no built-in, and the app keeps logging and answering', async () => {
    const { id } = await makeEmployee(t.app, accountId, { email: 'proto@scim.example' });
    const res = await scim.patch(
      `/Users/${id}`,
      patch([{ op: 'add', path: 'hasOwnProperty.call', value: 'x' }]),
    );
    // Read, then put back before asserting: the test runner itself calls hasOwnProperty.call.
    const changed = changedBuiltins(builtins);
    restoreBuiltins(builtins);
    expect(changed).toEqual([]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(scimErrorOf(400, 'invalidPath'));
    expect(res.json().detail).toContain('hasOwnProperty.call');

    // The next warning is written, and the next request is answered (and logged).
    t.app.log.warn({ after: 'hasOwnProperty.call' }, 'a warning after the PATCH');
    const next = await scim.get(`/Users/${id}`);
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ userName: 'proto@scim.example', active: true });
    const lines = t.logs.map((line) => JSON.parse(line));
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'a warning after the PATCH' }));
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'request completed', url: `/scim/v2/Users/${id}`, status: 200 }),
    );
  });

  it('refuses every name Vigil does not map, in paths and path-less values, and changes nothing', async () => {
    const { id } = await makeEmployee(t.app, accountId, { email: 'strict@scim.example' });
    const before = (await scim.get(`/Users/${id}`)).json();
    for (const operation of [
      { op: 'replace', path: 'toString', value: 'x' },
      { op: 'add', path: 'name.valueOf', value: 'x' },
      { op: 'add', path: 'emails.map.call', value: 'x' },
      { op: 'replace', path: 'emails[type eq "work"].constructor', value: 'x' },
      { op: 'replace', path: 'emails[hasOwnProperty eq "x"].value', value: 'x' },
      { op: 'remove', path: 'userName.length' },
      { op: 'replace', path: 'title.call', value: 'Engineer' },
      { op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:nickName.toString', value: 'x' },
      { op: 'replace', path: 'addresses[constructor eq "x"].locality', value: 'x' },
      { op: 'replace', path: 'phoneNumbers[type eq "work"].__proto__', value: 'x' },
      { op: 'replace', path: 'jobTitle', value: 'x' },
      {
        op: 'replace',
        path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:toString',
        value: 1,
      },
      { op: 'replace', path: 'urn:example:custom:2.0:User:x', value: 'x' },
      { op: 'replace', value: { 'name.givenName': 'Ok', 'hasOwnProperty.call': 'x' } },
      { op: 'replace', value: { name: { givenName: 'Ok', __proto__x: 'x', toString: 'x' } } },
      { op: 'add', value: { emails: [{ value: 'a@scim.example', valueOf: 'x' }] } },
      { op: 'add', value: { 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { toString: 1 } } },
    ]) {
      const res = await scim.patch(`/Users/${id}`, patch([operation]));
      expect(res.statusCode, JSON.stringify(operation)).toBe(400);
      expect(res.json(), JSON.stringify(operation)).toEqual(scimErrorOf(400, 'invalidPath'));
    }
    expect((await scim.get(`/Users/${id}`)).json()).toEqual(before);
    expect(changedBuiltins(builtins)).toEqual([]);
  });

  it('accepts and ignores the core attributes Vigil does not keep, as Entra’s default mappings send them', async () => {
    const { id } = await makeEmployee(t.app, accountId, { email: 'defaults@scim.example' });
    const before = (await scim.get(`/Users/${id}`)).json();
    const res = await scim.patch(
      `/Users/${id}`,
      patch([
        { op: 'Add', path: 'title', value: 'Engineer' },
        { op: 'Add', path: 'preferredLanguage', value: 'en-GB' },
        { op: 'Add', path: 'addresses[type eq "work"].streetAddress', value: '1 Main St' },
        { op: 'Add', path: 'addresses[type eq "work"].locality', value: 'Springfield' },
        { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:core:2.0:User:nickName', value: 'Def' },
        { op: 'Replace', path: 'name.middleName', value: 'M' },
        { op: 'Replace', value: { title: 'Lead', name: { givenName: 'Defa', honorificPrefix: 'Dr' } } },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...before,
      name: { ...before.name, givenName: 'Defa', formatted: expect.any(String) },
      displayName: expect.any(String),
      meta: expect.any(Object),
    });
    expect(res.json()).not.toHaveProperty('title');
    expect(changedBuiltins(builtins)).toEqual([]);
  });

  it('takes the mapped attributes in any case, with or without their schema, as Okta and Entra send them', async () => {
    const { id } = await makeEmployee(t.app, accountId, { email: 'mapped@scim.example' });
    const res = await scim.patch(
      `/Users/${id}`,
      patch([
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:NAME.givenname', value: 'Ada' },
        { op: 'replace', path: 'Emails[Type EQ "WORK"].Value', value: 'ada@scim.example' },
        { op: 'add', value: { ExternalID: 'ext-ada', 'name.FamilyName': 'Lovelace' } },
        {
          op: 'replace',
          value: {
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'Research',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { manager: { value: '1' } },
          },
        },
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      userName: 'ada@scim.example',
      externalId: 'ext-ada',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
    });
    expect(res.json()).not.toHaveProperty('department');
  });

  it('answers a filter that selects nothing with noTarget, and a group path it does not map with invalidPath', async () => {
    const { id } = await makeEmployee(t.app, accountId);
    const none = await scim.patch(
      `/Users/${id}`,
      patch([
        { op: 'replace', path: 'emails[type eq "home" and primary eq false]', value: { value: 'x@y.z' } },
      ]),
    );
    expect(none.json()).toEqual(scimErrorOf(400, 'noTarget'));
    const group = await makeGroup(t.app, accountId);
    for (const path of [
      'valueOf',
      'members.call',
      'displayName.length',
      'urn:ietf:params:scim:schemas:core:2.0:User:displayName',
    ]) {
      const res = await scim.patch(`/Groups/${group.id}`, patch([{ op: 'add', path, value: 'x' }]));
      expect(res.json(), path).toEqual(scimErrorOf(400, 'invalidPath'));
    }
    expect((await scim.get(`/Groups/${group.id}`)).json().displayName).toBe(group.name);
  });

  it('answers a filter holding line feeds with 400 invalidFilter, in a list and in a PATCH path', async () => {
    // The filter parser's pattern for quoted text backtracks exponentially on line feeds: 30 of
    // them held a request (and its process) for seconds, 40 for hours.
    const feeds = '\n'.repeat(30);
    const listed = await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${feeds}`)}`);
    expect(listed.json()).toEqual(scimErrorOf(400, 'invalidFilter'));
    const { id } = await makeEmployee(t.app, accountId);
    const patched = await scim.patch(
      `/Users/${id}`,
      patch([{ op: 'replace', path: `emails[value eq "${feeds}].value`, value: 'x@scim.example' }]),
    );
    expect(patched.json()).toEqual(scimErrorOf(400, 'invalidFilter'));
  });
});
