import { beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { makeEmployee } from '../../../../test/helpers/factories.js';
import { filter, makeScimToken, scimClient, scimErrorOf } from '../../../../test/helpers/scim.js';

// What SCIM answers besides the vendors' sequences: authentication, the error schema for every
// kind of bad input, content types, paging, tenancy, and the admin routes of the tokens.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('SCIM authentication', () => {
  it('401 in SCIM’s error schema without a token, with a wrong one, an API key, or a revoked one', async () => {
    const { token, accountId, tokenId } = await makeScimToken(t.app);
    for (const authorization of [
      undefined,
      'Bearer',
      'Bearer vgs_nope',
      `Basic ${token}`,
      'Bearer vgl_abc',
    ]) {
      const res = await t.app.inject({
        url: '/scim/v2/Users',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['content-type']).toBe('application/scim+json; charset=utf-8');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="scim"');
      expect(res.json()).toEqual(scimErrorOf(401));
    }
    const admin = await signInAs(t.app, { role: 'account_admin', accountId });
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${accountId}/scim-tokens/${tokenId}/revoke`,
      headers: admin.headers,
    });
    expect(revoked.json()).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    expect((await scimClient(t.app, token).get('/Users')).statusCode).toBe(401);
  });

  it('makes a token once (shown once), lists it without its secret, with the base URL and its last use', async () => {
    const { accountId } = await makeScimToken(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId });
    const made = await t.app.inject({
      method: 'POST',
      url: `/admin/api/accounts/${accountId}/scim-tokens`,
      headers: admin.headers,
      payload: { name: 'Entra' },
    });
    expect(made.statusCode).toBe(201);
    const { token, id } = made.json();
    expect(token).toMatch(/^vgs_[0-9A-Za-z]{40}$/);
    expect((await scimClient(t.app, token).get('/Users')).statusCode).toBe(200);
    const list = await t.app.inject({
      url: `/admin/api/accounts/${accountId}/scim-tokens`,
      headers: admin.headers,
    });
    expect(list.json().base_url).toMatch(/^http.*\/scim\/v2$/);
    expect(list.json().results[0]).toMatchObject({
      id,
      name: 'Entra',
      prefix: token.slice(0, 12),
      status: 'active',
    });
    expect(list.body).not.toContain(token);
    const row = await t.app.db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('the discovery documents need no token and say what is supported', async () => {
    const config = (await t.app.inject({ url: '/scim/v2/ServiceProviderConfig' })).json();
    expect(config).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      etag: { supported: false },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    });
    const types = (await t.app.inject({ url: '/scim/v2/ResourceTypes' })).json();
    expect(types.Resources.map((r: { endpoint: string }) => r.endpoint)).toEqual(['/Users', '/Groups']);
    const schemas = (await t.app.inject({ url: '/scim/v2/Schemas' })).json();
    expect(schemas.totalResults).toBe(2);
  });
});

describe('SCIM requests and errors', () => {
  it('never shows or changes another account’s users and groups', async () => {
    const mine = scimClient(t.app, (await makeScimToken(t.app)).token);
    const { token, accountId } = await makeScimToken(t.app);
    const theirs = scimClient(t.app, token);
    const them = await makeEmployee(t.app, accountId, { email: 'them@other.example' });
    expect((await mine.get(`/Users/${them.id}`)).json()).toEqual(scimErrorOf(404));
    expect((await mine.get(`/Users?${filter('userName eq "them@other.example"')}`)).json().totalResults).toBe(
      0,
    );
    expect(
      (await mine.patch(`/Users/${them.id}`, { Operations: [{ op: 'replace', value: { active: false } }] }))
        .statusCode,
    ).toBe(404);
    expect((await mine.delete(`/Users/${them.id}`)).statusCode).toBe(404);
    expect((await theirs.get(`/Users/${them.id}`)).json().active).toBe(true);
    // Their user cannot join my group.
    const group = (await mine.post('/Groups', { displayName: 'Mine' })).json().id;
    const add = await mine.patch(`/Groups/${group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: String(them.id) }] }],
    });
    expect(add.json()).toEqual(scimErrorOf(400, 'invalidValue'));
  });

  it('accepts application/json, refuses other media types and malformed JSON in SCIM’s terms', async () => {
    const { token } = await makeScimToken(t.app);
    const headers = { authorization: `Bearer ${token}` };
    const json = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: { userName: 'json@scim.example', name: { givenName: 'J', familyName: 'Son' } },
    });
    expect(json.statusCode, json.body).toBe(201);
    const text = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual(scimErrorOf(415));
    const broken = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { ...headers, 'content-type': 'application/scim+json' },
      payload: '{"userName":',
    });
    expect(broken.json()).toEqual(scimErrorOf(400, 'invalidSyntax'));
    const unknownPath = await scimClient(t.app, token).get('/Nope');
    expect(unknownPath.json()).toEqual(scimErrorOf(404));
  });

  it('pages with startIndex (1-based) and count, and refuses filters it does not evaluate', async () => {
    const { token, accountId } = await makeScimToken(t.app);
    const scim = scimClient(t.app, token);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(String((await makeEmployee(t.app, accountId)).id));
    const page = (await scim.get('/Users?startIndex=2&count=2')).json();
    expect(page).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((r: { id: string }) => r.id)).toEqual(ids.slice(1, 3));
    expect((await scim.get('/Users?startIndex=0&count=1')).json()).toMatchObject({
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect((await scim.get('/Users?count=0')).json()).toMatchObject({
      totalResults: 5,
      itemsPerPage: 0,
      Resources: [],
    });
    expect((await scim.get('/Users?count=abc')).json()).toEqual(scimErrorOf(400, 'invalidValue'));
    for (const bad of [
      'userName sw "a"',
      'userName eq',
      'name.givenName eq "x"',
      '((',
      'userName eq "a" or userName eq "b"',
    ]) {
      const res = await scim.get(`/Users?${filter(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual(scimErrorOf(400, 'invalidFilter'));
    }
  });

  it('refuses a PATCH that would reach an object’s prototype, and changes nothing', async () => {
    const { token, accountId } = await makeScimToken(t.app);
    const scim = scimClient(t.app, token);
    const { id } = await makeEmployee(t.app, accountId);
    for (const op of [
      { op: 'replace', value: { '__proto__.polluted': 'yes' } },
      { op: 'add', path: '__proto__.polluted', value: 'yes' },
      { op: 'replace', path: 'constructor.prototype.polluted', value: 'yes' },
      { op: 'replace', value: { name: { 'constructor.prototype.polluted': 'yes' } } },
    ]) {
      const res = await scim.patch(`/Users/${id}`, { schemas: [PATCH], Operations: [op] });
      expect(res.statusCode, JSON.stringify(op)).toBe(400);
      expect(res.json().schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers id and meta changes with mutability, and a remove without a path with noTarget', async () => {
    const { token, accountId } = await makeScimToken(t.app);
    const scim = scimClient(t.app, token);
    const { id } = await makeEmployee(t.app, accountId);
    const idChange = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'id', value: '1' }],
    });
    expect(idChange.json()).toEqual(scimErrorOf(400, 'mutability'));
    const remove = await scim.patch(`/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Remove' }] });
    expect(remove.json()).toEqual(scimErrorOf(400, 'noTarget'));
    const lowerEverything = await scim.patch(`/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'REPLACE', path: 'NAME.GIVENNAME', value: 'Shouted' }],
    });
    expect(lowerEverything.json().name.givenName).toBe('Shouted');
  });
});
