import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { makeScimToken } from '../scim.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { freshEmployee, freshGroup, type Side } from './world.js';

/**
 * SCIM (`/scim/v2/`, the account named by its bearer token) and the admin API's SCIM tokens.
 * Another account's users and groups are 404 as nonexistent ones (SCIM's error schema) and are
 * never listed.
 */

const SCIM = '/scim/v2';
const API = '/admin/api';
const acct = (side: Side) => `${API}/accounts/${side.accountId}`;
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const resourceIds = (res: LightMyRequestResponse): string[] =>
  res.json().Resources.map((r: { id: string }) => r.id);
const adminIds = (res: LightMyRequestResponse): number[] =>
  res.json().results.map((r: { id: number }) => r.id);
const discovery = na('public: the service’s own description (RFC 7644 §4), nothing of an account');
const pathOnly = na('no input but the path (text that is no id is a 404, like any unknown id)');
const user = (email: string) => ({ userName: email, name: { givenName: 'Sam', familyName: 'Scim' } });
const unique = () => `${Date.now()}.${Math.random().toString(36).slice(2)}`;
const tokensView = (body: unknown) =>
  (body as { results: { id: number; status: string }[] }).results.map(({ id, status }) => ({ id, status }));
/** A user or group as its owner reads it. */
const readUser = (_side: Side, id: number) => `${SCIM}/Users/${id}`;
const readGroup = (_side: Side, id: number) => `${SCIM}/Groups/${id}`;
const userObject = { kind: 'object' as const, notFound: 'employee_not_found' as const, missing: () => NEVER };
const groupObject = { kind: 'object' as const, notFound: 'group_not_found' as const, missing: () => NEVER };

export const scimRows: Row[] = [
  ...['ServiceProviderConfig', 'ResourceTypes', 'Schemas'].map((name) =>
    row({
      route: `GET ${SCIM}/${name}`,
      as: 'anyone',
      call: () => ({ url: `${SCIM}/${name}` }),
      success: {
        status: 200,
        check: (res) => expect(res.json().schemas[0]).toMatch(/^urn:ietf:params:scim:/),
      },
      otherAccount: discovery,
      invalid: na('takes no input'),
    }),
  ),
  row({
    route: `GET ${SCIM}/Users`,
    as: 'scim',
    call: () => ({ url: `${SCIM}/Users` }),
    success: {
      status: 200,
      check: (res, side) =>
        expect(resourceIds(res)).toEqual(expect.arrayContaining(side.employees.map((e) => String(e.id)))),
    },
    otherAccount: { kind: 'list', ids: resourceIds, theirs: (w) => w.b.employees.map((e) => String(e.id)) },
    invalid: {
      call: () => ({ url: `${SCIM}/Users?filter=${encodeURIComponent('userName co "x"')}` }),
      code: 'scim_invalid_filter',
    },
  }),
  row({
    route: `POST ${SCIM}/Users`,
    as: 'scim',
    call: () => ({ url: `${SCIM}/Users`, payload: user(`new.${unique()}@scim.example`) }),
    success: { status: 201, check: (res) => expect(res.json().id).toEqual(expect.any(String)) },
    read: () => `${SCIM}/Users`,
    otherAccount: na('names no object: the token decides the account it is made in'),
    invalid: {
      call: () => ({ url: `${SCIM}/Users`, payload: user('not an address') }),
      code: 'validation_failed',
    },
  }),
  row({
    route: `GET ${SCIM}/Users/:id`,
    as: 'scim',
    object: (_w, side) => side.employees[0]?.id as number,
    call: (_side, id) => ({ url: `${SCIM}/Users/${id}` }),
    success: { status: 200, check: (res, _side, id) => expect(res.json().id).toBe(String(id)) },
    otherAccount: userObject,
    invalid: na('no input but the path (and attributes to show, any of which is accepted)'),
  }),
  row({
    route: `PUT ${SCIM}/Users/:id`,
    as: 'scim',
    object: (w, side) => freshEmployee(w.app, side),
    call: (_side, id) => ({ url: `${SCIM}/Users/${id}`, payload: user(`put.${unique()}@scim.example`) }),
    success: { status: 200, check: (res) => expect(res.json().name.givenName).toBe('Sam') },
    read: readUser,
    otherAccount: userObject,
    invalid: {
      call: (_side, id) => ({
        url: `${SCIM}/Users/${id}`,
        payload: { name: { givenName: 'No', familyName: 'Address' } },
      }),
      code: 'scim_invalid_value',
    },
  }),
  row({
    route: `PATCH ${SCIM}/Users/:id`,
    as: 'scim',
    object: (w, side) => freshEmployee(w.app, side),
    call: (_side, id) => ({
      url: `${SCIM}/Users/${id}`,
      payload: { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
    }),
    success: { status: 200, check: (res) => expect(res.json().active).toBe(false) },
    read: readUser,
    otherAccount: userObject,
    invalid: {
      call: (_side, id) => ({ url: `${SCIM}/Users/${id}`, payload: { schemas: [PATCH], Operations: [] } }),
      code: 'scim_invalid_syntax',
    },
  }),
  row({
    route: `DELETE ${SCIM}/Users/:id`,
    as: 'scim',
    object: (w, side) => freshEmployee(w.app, side),
    call: (_side, id) => ({ url: `${SCIM}/Users/${id}` }),
    success: { status: 204 },
    read: readUser,
    otherAccount: userObject,
    invalid: pathOnly,
  }),
  row({
    route: `GET ${SCIM}/Groups`,
    as: 'scim',
    call: () => ({ url: `${SCIM}/Groups?excludedAttributes=members` }),
    success: {
      status: 200,
      check: (res, side) => expect(resourceIds(res)).toEqual(expect.arrayContaining(side.groups.map(String))),
    },
    otherAccount: { kind: 'list', ids: resourceIds, theirs: (w) => w.b.groups.map(String) },
    invalid: {
      call: () => ({ url: `${SCIM}/Groups?filter=${encodeURIComponent('displayName sw "x"')}` }),
      code: 'scim_invalid_filter',
    },
  }),
  row({
    route: `POST ${SCIM}/Groups`,
    as: 'scim',
    call: () => ({ url: `${SCIM}/Groups`, payload: { displayName: `SCIM group ${unique()}` } }),
    success: { status: 201, check: (res) => expect(res.json().members).toEqual([]) },
    read: () => `${SCIM}/Groups`,
    otherAccount: {
      kind: 'custom',
      // Another account's user as a member is unknown here: 400, and nothing is made.
      run: async (w) => {
        const res = await w.app.inject({
          method: 'POST',
          url: `${SCIM}/Groups`,
          headers: { authorization: `Bearer ${w.a.scimToken}` },
          payload: { displayName: 'Theirs', members: [{ value: String(w.b.employees[0]?.id) }] },
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().scimType).toBe('invalidValue');
      },
    },
    invalid: {
      call: () => ({ url: `${SCIM}/Groups`, payload: { members: [] } }),
      code: 'scim_invalid_value',
    },
  }),
  row({
    route: `GET ${SCIM}/Groups/:id`,
    as: 'scim',
    object: (_w, side) => side.groups[0] as number,
    call: (_side, id) => ({ url: `${SCIM}/Groups/${id}` }),
    success: { status: 200, check: (res, _side, id) => expect(res.json().id).toBe(String(id)) },
    otherAccount: groupObject,
    invalid: na('no input but the path (and attributes to show, any of which is accepted)'),
  }),
  row({
    route: `PUT ${SCIM}/Groups/:id`,
    as: 'scim',
    object: (w, side) => freshGroup(w.app, side),
    call: (_side, id) => ({ url: `${SCIM}/Groups/${id}`, payload: { displayName: `Renamed ${unique()}` } }),
    success: { status: 200, check: (res) => expect(res.json().displayName).toMatch(/^Renamed/) },
    read: readGroup,
    otherAccount: groupObject,
    invalid: {
      call: (_side, id) => ({ url: `${SCIM}/Groups/${id}`, payload: { displayName: 7 } }),
      code: 'scim_invalid_value',
    },
  }),
  row({
    route: `PATCH ${SCIM}/Groups/:id`,
    as: 'scim',
    object: (w, side) => freshGroup(w.app, side),
    call: (side, id) => ({
      url: `${SCIM}/Groups/${id}`,
      payload: {
        schemas: [PATCH],
        Operations: [{ op: 'add', path: 'members', value: [{ value: String(side.employees[0]?.id) }] }],
      },
    }),
    success: { status: 204 },
    read: readGroup,
    otherAccount: groupObject,
    invalid: {
      call: (_side, id) => ({
        url: `${SCIM}/Groups/${id}`,
        payload: { schemas: [PATCH], Operations: [{ op: 'remove', path: 'members[display co "x"]' }] },
      }),
      code: 'scim_invalid_filter',
    },
  }),
  row({
    route: `DELETE ${SCIM}/Groups/:id`,
    as: 'scim',
    object: (w, side) => freshGroup(w.app, side),
    call: (_side, id) => ({ url: `${SCIM}/Groups/${id}` }),
    success: { status: 204 },
    read: readGroup,
    otherAccount: groupObject,
    invalid: pathOnly,
  }),
  row({
    route: `GET ${API}/accounts/:accountId/scim-tokens`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/scim-tokens` }),
    success: {
      status: 200,
      check: (res, side) => {
        expect(adminIds(res)).toEqual(expect.arrayContaining(side.scimTokenIds));
        expect(res.json().base_url).toMatch(/\/scim\/v2$/);
      },
    },
    otherAccount: { kind: 'list', ids: adminIds, theirs: (w) => w.b.scimTokenIds },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `POST ${API}/accounts/:accountId/scim-tokens`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/scim-tokens`, payload: { name: 'Okta' } }),
    success: { status: 201, check: (res) => expect(res.json().token).toMatch(/^vgs_/) },
    read: (side) => ({ url: `${acct(side)}/scim-tokens`, view: tokensView }),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/scim-tokens`, payload: { name: '' } }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/scim-tokens/:id/revoke`,
    as: 'admin',
    object: async (w, side) => (await makeScimToken(w.app, side.accountId)).tokenId,
    call: (side, id) => ({ url: `${acct(side)}/scim-tokens/${id}/revoke` }),
    success: { status: 200, check: (res) => expect(res.json().status).toBe('revoked') },
    read: (side) => ({ url: `${acct(side)}/scim-tokens`, view: tokensView }),
    otherAccount: { kind: 'object', notFound: 'scim_token_not_found', missing: () => NEVER },
    invalid: pathOnly,
  }),
];
