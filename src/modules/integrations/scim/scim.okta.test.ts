import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { client, makeKey } from '../../../../test/helpers/factories.js';
import {
  filter,
  makeScimToken,
  type ScimClient,
  scimClient,
  scimErrorOf,
} from '../../../../test/helpers/scim.js';

/**
 * The request sequences Okta's "SCIM 2.0 protocol" reference describes, with the bodies as Okta
 * sends them: provisioning a user (look-up by userName first), reading, updating, deactivating
 * (PATCH and PUT with active false), pushing a group and changing its members and name.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

async function okta(): Promise<{ scim: ScimClient; accountId: number }> {
  const { token, accountId } = await makeScimToken(t.app);
  return { scim: scimClient(t.app, token), accountId };
}

/** Okta's create-user body (its reference's example, with an address of this test). */
const oktaUser = (userName: string) => ({
  schemas: [USER],
  userName,
  name: { givenName: 'Test', familyName: 'User' },
  emails: [{ primary: true, value: userName, type: 'work' }],
  displayName: 'Test User',
  locale: 'en-US',
  externalId: '00ujl29u0le5T6Aj10h7',
  groups: [],
  password: '1mz050nq',
  active: true,
});

async function provision(scim: ScimClient, userName: string): Promise<string> {
  // 1. Okta asks whether the user exists, by userName, with its paging parameters.
  const lookup = await scim.get(`/Users?${filter(`userName eq "${userName}"`)}&startIndex=1&count=100`);
  expect(lookup.statusCode).toBe(200);
  expect(lookup.json()).toEqual({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
    totalResults: 0,
    startIndex: 1,
    itemsPerPage: 0,
    Resources: [],
  });
  // 2. Not found: it creates the user.
  const created = await scim.post('/Users', oktaUser(userName));
  expect(created.statusCode, created.body).toBe(201);
  expect(created.headers['content-type']).toBe('application/scim+json; charset=utf-8');
  return created.json().id;
}

describe('Okta: user lifecycle', () => {
  it('looks the user up by userName, creates them, and finds them by userName afterwards', async () => {
    const { scim, accountId } = await okta();
    const id = await provision(scim, 'test.user@okta.local');
    const user = (await scim.get(`/Users/${id}`)).json();
    expect(user).toMatchObject({
      schemas: [USER],
      id,
      externalId: '00ujl29u0le5T6Aj10h7',
      userName: 'test.user@okta.local',
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ value: 'test.user@okta.local', type: 'work', primary: true }],
      active: true,
      meta: { resourceType: 'User', location: expect.stringMatching(new RegExp(`/scim/v2/Users/${id}$`)) },
    });
    expect(typeof id).toBe('string');
    // Okta matches userName case-insensitively.
    const found = await scim.get(
      `/Users?${filter('userName eq "TEST.user@okta.local"')}&startIndex=1&count=100`,
    );
    expect(found.json()).toMatchObject({ totalResults: 1, Resources: [{ id }] });
    // The employee is in the Customer API, with exactly the v2.2.0 fields.
    const { key } = await makeKey(t.app, { accountId });
    const employee = (await client(t.app, key).get(`/customer/employees/${id}/`)).json();
    expect(Object.keys(employee).sort()).toEqual([
      'created_at',
      'email',
      'first_name',
      'id',
      'last_name',
      'updated_at',
    ]);
  });

  it('a second create of the same userName is 409 uniqueness', async () => {
    const { scim } = await okta();
    await provision(scim, 'dup@okta.local');
    const again = await scim.post('/Users', oktaUser('DUP@okta.local'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(scimErrorOf(409, 'uniqueness'));
  });

  it('updates the profile with PATCH (path-less replace) and with PUT', async () => {
    const { scim } = await okta();
    const id = await provision(scim, 'update.me@okta.local');
    const patched = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { name: { givenName: 'Another', familyName: 'Name' } } }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().name).toMatchObject({ givenName: 'Another', familyName: 'Name' });

    const put = await scim.put(`/Users/${id}`, {
      ...oktaUser('updated.address@okta.local'),
      id,
      name: { givenName: 'Put', familyName: 'Person' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      userName: 'updated.address@okta.local',
      name: { givenName: 'Put', familyName: 'Person' },
      emails: [{ value: 'updated.address@okta.local' }],
      active: true,
    });
  });

  it('deactivates with PATCH active false, and with PUT active false; the user stays readable', async () => {
    const { scim, accountId } = await okta();
    const id = await provision(scim, 'leaver@okta.local');
    const deactivated = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(deactivated.json().active).toBe(false);
    expect((await scim.get(`/Users/${id}`)).json().active).toBe(false);
    // Reactivated, then deactivated again the older way: PUT of the whole user.
    await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    const put = await scim.put(`/Users/${id}`, { ...oktaUser('leaver@okta.local'), id, active: false });
    expect(put.json().active).toBe(false);
    const { key } = await makeKey(t.app, { accountId });
    expect((await client(t.app, key).get(`/customer/employees/${id}/`)).statusCode).toBe(200);
  });

  it('deletes a user: 204, then 404', async () => {
    const { scim } = await okta();
    const id = await provision(scim, 'gone@okta.local');
    expect((await scim.delete(`/Users/${id}`)).statusCode).toBe(204);
    const after = await scim.get(`/Users/${id}`);
    expect(after.statusCode).toBe(404);
    expect(after.json()).toEqual(scimErrorOf(404));
  });
});

describe('Okta: group push', () => {
  it('creates the group, adds members, removes one with a members[value eq] path, renames it, deletes it', async () => {
    const { scim } = await okta();
    const alice = await provision(scim, 'alice@okta.local');
    const bob = await provision(scim, 'bob@okta.local');

    // Okta looks the group up by name first.
    const lookup = await scim.get(`/Groups?${filter('displayName eq "Test SCIMv2"')}&startIndex=1&count=100`);
    expect(lookup.json().totalResults).toBe(0);
    const created = await scim.post('/Groups', { schemas: [GROUP], displayName: 'Test SCIMv2', members: [] });
    expect(created.statusCode, created.body).toBe(201);
    const groupId = created.json().id;
    expect(created.json()).toMatchObject({ schemas: [GROUP], displayName: 'Test SCIMv2', members: [] });

    const added = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [
        {
          op: 'add',
          path: 'members',
          value: [
            { value: alice, display: 'alice@okta.local' },
            { value: bob, display: 'bob@okta.local' },
          ],
        },
      ],
    });
    expect(added.statusCode, added.body).toBe(204);
    const members = (await scim.get(`/Groups/${groupId}`))
      .json()
      .members.map((m: { value: string }) => m.value);
    expect(members.sort()).toEqual([alice, bob].sort());

    const removed = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${alice}"]` }],
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await scim.get(`/Groups/${groupId}`)).json().members).toEqual([
      expect.objectContaining({ value: bob, display: 'bob@okta.local' }),
    ]);

    // Rename: a path-less replace whose value carries the id too.
    const renamed = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { id: groupId, displayName: 'Test SCIMv2 renamed' } }],
    });
    expect(renamed.statusCode, renamed.body).toBe(204);
    expect((await scim.get(`/Groups/${groupId}?excludedAttributes=members`)).json()).toEqual(
      expect.not.objectContaining({ members: expect.anything() }),
    );
    expect((await scim.get(`/Groups/${groupId}`)).json().displayName).toBe('Test SCIMv2 renamed');

    expect((await scim.delete(`/Groups/${groupId}`)).statusCode).toBe(204);
    expect((await scim.get(`/Groups/${groupId}`)).statusCode).toBe(404);
  });

  it('replaces the whole group with PUT', async () => {
    const { scim } = await okta();
    const alice = await provision(scim, 'put.alice@okta.local');
    const groupId = (await scim.post('/Groups', { schemas: [GROUP], displayName: 'Put group' })).json().id;
    const put = await scim.put(`/Groups/${groupId}`, {
      schemas: [GROUP],
      id: groupId,
      displayName: 'Put group 2',
      members: [{ value: alice }],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ displayName: 'Put group 2', members: [{ value: alice }] });
  });
});
