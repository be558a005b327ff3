import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import {
  filter,
  makeScimToken,
  type ScimClient,
  scimClient,
  scimErrorOf,
} from '../../../../test/helpers/scim.js';

/**
 * The request sequences of Microsoft Entra's "SCIM request and response examples" (the
 * provisioning service's user and group operations), with the bodies as Entra sends them:
 * capitalised ops (`Add`, `Replace`, `Remove`), string booleans (`"False"`), `$ref: null` in
 * member values, look-ups by userName, externalId and `emails[type eq "work"].value`, and
 * `excludedAttributes=members` on group reads.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

async function entra(): Promise<ScimClient> {
  return scimClient(t.app, (await makeScimToken(t.app)).token);
}

/** Entra's create-user body (userName the userPrincipalName, which is an address). */
const entraUser = (userName: string, externalId: string) => ({
  schemas: [USER, ENTERPRISE],
  externalId,
  userName,
  active: true,
  emails: [{ primary: true, type: 'work', value: userName }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
});

describe('Microsoft Entra: users', () => {
  it('queries by userName (no match: an empty list), creates, then finds by userName, externalId and work email', async () => {
    const scim = await entra();
    const userName = 'Test_User_ab6490ee@contoso.example';
    const none = await scim.get(`/Users?${filter(`userName eq "${userName}"`)}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim.post('/Users', entraUser(userName, '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef'));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(created.json()).toMatchObject({
      id,
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      name: { givenName: 'givenName', familyName: 'familyName' },
      meta: { resourceType: 'User' },
    });

    for (const query of [
      `userName eq "${userName}"`,
      'externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"',
      `emails[type eq "work"].value eq "${userName.toLowerCase()}"`,
      `userName eq "${userName}" and externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"`,
    ]) {
      const found = await scim.get(`/Users?${filter(query)}`);
      expect(found.json(), query).toMatchObject({ totalResults: 1, Resources: [{ id }] });
    }
    // The same filter with the + Entra uses for spaces.
    const plus = await scim.get(`/Users?filter=userName+eq+"${encodeURIComponent(userName)}"`);
    expect(plus.json().totalResults).toBe(1);
    // A contradiction, or another type of address, matches nobody.
    const other = await scim.get(`/Users?${filter(`emails[type eq "home"].value eq "${userName}"`)}`);
    expect(other.json().totalResults).toBe(0);
  });

  it('updates with Replace ops on emails[type eq "work"].value and name.familyName', async () => {
    const scim = await entra();
    const id = (await scim.post('/Users', entraUser('update.me@contoso.example', 'ext-1'))).json().id;
    const res = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@contoso.example' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      userName: 'updatedEmail@contoso.example',
      emails: [{ value: 'updatedEmail@contoso.example', type: 'work', primary: true }],
      name: { givenName: 'givenName', familyName: 'updatedFamilyName' },
    });
  });

  it('adds attributes with Add ops, and a path-less Replace of a value object with dotted names', async () => {
    const scim = await entra();
    const id = (await scim.post('/Users', entraUser('add.attrs@contoso.example', 'ext-2'))).json().id;
    const added = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Add', path: 'externalId', value: 'ext-2b' },
        { op: 'Add', path: 'name.givenName', value: 'Added' },
      ],
    });
    expect(added.json()).toMatchObject({ externalId: 'ext-2b', name: { givenName: 'Added' } });
    const replaced = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        {
          op: 'Replace',
          value: {
            'name.givenName': 'Kkom',
            'name.familyName': 'Unua',
            [`${ENTERPRISE}:employeeNumber`]: 'Aklq',
          },
        },
      ],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().name).toMatchObject({ givenName: 'Kkom', familyName: 'Unua' });
  });

  it('disables with Replace active "False" (a string), and re-enables with "True"', async () => {
    const scim = await entra();
    const id = (await scim.post('/Users', entraUser('disable.me@contoso.example', 'ext-3'))).json().id;
    const disabled = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().active).toBe(false);
    const listed = await scim.get(`/Users?${filter('userName eq "disable.me@contoso.example"')}`);
    expect(listed.json().Resources[0].active).toBe(false);
    const enabled = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect(enabled.json().active).toBe(true);
    const bad = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'maybe' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(scimErrorOf(400, 'invalidValue'));
  });

  it('deletes a user', async () => {
    const scim = await entra();
    const id = (await scim.post('/Users', entraUser('delete.me@contoso.example', 'ext-4'))).json().id;
    expect((await scim.delete(`/Users/${id}`)).statusCode).toBe(204);
    expect((await scim.get(`/Users/${id}`)).statusCode).toBe(404);
  });
});

describe('Microsoft Entra: groups', () => {
  it('creates a group, reads it without members, adds and removes members with value arrays, renames and deletes it', async () => {
    const scim = await entra();
    const user = (await scim.post('/Users', entraUser('member@contoso.example', 'ext-5'))).json().id;
    const created = await scim.post('/Groups', {
      schemas: [GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const groupId = created.json().id;

    const withoutMembers = await scim.get(`/Groups/${groupId}?excludedAttributes=members`);
    expect(withoutMembers.json()).toEqual({
      schemas: [GROUP],
      id: groupId,
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: expect.objectContaining({ resourceType: 'Group' }),
    });
    const byName = await scim.get(
      `/Groups?excludedAttributes=members&${filter('displayName eq "displayName"')}`,
    );
    expect(byName.json()).toMatchObject({ totalResults: 1, Resources: [{ id: groupId }] });
    expect(byName.json().Resources[0].members).toBeUndefined();

    const add = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: user }] }],
    });
    expect(add.statusCode, add.body).toBe(204);
    expect((await scim.get(`/Groups/${groupId}`)).json().members).toEqual([
      expect.objectContaining({ value: user }),
    ]);

    const remove = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: user }] }],
    });
    expect(remove.statusCode, remove.body).toBe(204);
    expect((await scim.get(`/Groups/${groupId}`)).json().members).toEqual([]);

    const rename = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59updatedDisplayName' }],
    });
    expect(rename.statusCode, rename.body).toBe(204);
    expect((await scim.get(`/Groups/${groupId}`)).json().displayName).toBe('1879db59updatedDisplayName');

    expect((await scim.delete(`/Groups/${groupId}`)).statusCode).toBe(204);
    expect((await scim.get(`/Groups/${groupId}`)).json()).toEqual(scimErrorOf(404));
  });

  it('refuses to add a user that does not exist (400 invalidValue) and changes nothing', async () => {
    const scim = await entra();
    const groupId = (await scim.post('/Groups', { schemas: [GROUP], displayName: 'Strict' })).json().id;
    const res = await scim.patch(`/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Changed' },
        { op: 'Add', path: 'members', value: [{ value: '987654321' }] },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(scimErrorOf(400, 'invalidValue'));
    expect((await scim.get(`/Groups/${groupId}`)).json().displayName).toBe('Strict');
  });
});
