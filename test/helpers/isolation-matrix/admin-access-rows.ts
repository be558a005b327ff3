import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ADMIN_PASSWORD } from '../admin.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { freshAdmin, freshInvitation, freshKeyId, type Side } from './world.js';

/**
 * The admin API's rows about access: the session, one-time links, accounts, administrators,
 * invitations and API keys. Under `/accounts/:accountId`, another account's path is a 404
 * Account not found (403 for operator-only routes, refused before the account is looked at).
 */

const API = '/admin/api';
export const acct = (side: Side) => `${API}/accounts/${side.accountId}`;
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const unique = () => `${Date.now()}.${Math.random().toString(36).slice(2)}`;
const noAccountData = na('names no account: it acts on the signed-in administrator alone');
const publicLink = na('public: the token in the path is the credential');
const noInput = na('no input but the path (text that is no id is a 404, like any unknown id)');
/** Keys as a list shows them, without `last_used_at`, which any use of a key moves. */
const keysView = (body: unknown) =>
  (body as { results: { id: number; status: string; rate_limit: number }[] }).results.map(
    ({ id, status, rate_limit }) => ({ id, status, rate_limit }),
  );

export const adminAccessRows: Row[] = [
  row({
    route: `GET ${API}/openapi.json`,
    as: 'admin',
    call: () => ({ url: `${API}/openapi.json` }),
    success: { status: 200, check: (res) => expect(res.json().openapi).toMatch(/^3\./) },
    otherAccount: na('the contract of the admin API: the same document for everyone signed in'),
    invalid: na('takes no input'),
  }),
  row({
    route: `GET ${API}/limits`,
    as: 'anyone',
    call: () => ({ url: `${API}/limits` }),
    success: { status: 200, check: (res) => expect(res.json().name_max).toBeGreaterThan(0) },
    otherAccount: na('the server’s constants, the same for everyone'),
    invalid: na('takes no input'),
  }),
  row({
    route: `GET ${API}/session`,
    as: 'anyone',
    call: () => ({ url: `${API}/session` }),
    success: { status: 200, check: (res) => expect(res.json().user).toBeNull() },
    otherAccount: noAccountData,
    invalid: na('takes no input'),
  }),
  row({
    route: `POST ${API}/session`,
    as: 'anyone',
    unauthenticated: na('public: signing in is how a session starts'),
    // A second session of the side's administrator: the first one goes on.
    call: (side) => ({
      url: `${API}/session`,
      payload: { email: side.admin.email, password: ADMIN_PASSWORD },
    }),
    success: { status: 200, check: (res, side) => expect(res.json().user.id).toBe(side.admin.user.id) },
    otherAccount: na('names no account: the email and password identify the administrator'),
    invalid: { call: () => ({ url: `${API}/session`, payload: { email: 'someone@example.com' } }) },
  }),
  row({
    route: `POST ${API}/session/password`,
    as: 'admin',
    // Changing the password ends the administrator's other sessions: someone of its own.
    object: (w, side, c) => (c === 'success' ? freshAdmin(w.app, side) : side.admin),
    call: (_side, admin) => ({
      url: `${API}/session/password`,
      headers: admin.headers,
      payload: { current_password: ADMIN_PASSWORD, new_password: 'another long passphrase' },
    }),
    success: { status: 204 },
    otherAccount: noAccountData,
    invalid: {
      call: (_side, admin) => ({
        url: `${API}/session/password`,
        headers: admin.headers,
        payload: { current_password: ADMIN_PASSWORD },
      }),
    },
  }),
  row({
    route: `DELETE ${API}/session`,
    as: 'admin',
    object: (w, side, c) => (c === 'success' ? freshAdmin(w.app, side) : side.admin),
    call: (_side, admin) => ({ url: `${API}/session`, headers: admin.headers }),
    success: { status: 204 },
    otherAccount: noAccountData,
    invalid: na('takes no input'),
  }),
  row({
    route: `GET ${API}/invitations/:token`,
    as: 'anyone',
    object: (w, side) => freshInvitation(w.app, w.operator, side.accountId),
    call: (_side, invitation) => ({ url: `${API}/invitations/${invitation.token}` }),
    success: { status: 200, check: (res, side) => expect(res.json().account.id).toBe(side.accountId) },
    otherAccount: publicLink,
    invalid: na('no input but the token (an unknown one is a 404)'),
  }),
  row({
    route: `POST ${API}/invitations/:token/accept`,
    as: 'anyone',
    object: (w, side) => freshInvitation(w.app, w.operator, side.accountId),
    call: (_side, invitation) => ({
      url: `${API}/invitations/${invitation.token}/accept`,
      payload: { password: 'a long enough passphrase', name: 'New Admin' },
    }),
    success: { status: 200, check: (res, side) => expect(res.json().user.account_id).toBe(side.accountId) },
    otherAccount: publicLink,
    invalid: {
      call: (_side, invitation) => ({ url: `${API}/invitations/${invitation.token}/accept`, payload: {} }),
    },
  }),
  row({
    route: `GET ${API}/accounts`,
    as: 'admin',
    call: () => ({ url: `${API}/accounts?page_size=200` }),
    success: { status: 200, check: (res, side) => expect(ids(res)).toEqual([side.accountId]) },
    otherAccount: { kind: 'list', ids, theirs: (w) => [w.b.accountId] },
    invalid: { call: () => ({ url: `${API}/accounts?page=0` }) },
  }),
  row({
    route: `POST ${API}/accounts`,
    as: 'operator',
    call: () => ({ url: `${API}/accounts`, payload: { name: `Account ${unique()}` } }),
    success: { status: 201 },
    read: () => `${API}/accounts?page_size=1`,
    otherAccount: na('operators create accounts; no account is named (an account administrator gets 403)'),
    invalid: { call: () => ({ url: `${API}/accounts`, payload: {} }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId`,
    as: 'admin',
    call: (side) => ({ url: acct(side) }),
    success: { status: 200, check: (res, side) => expect(res.json().id).toBe(side.accountId) },
    otherAccount: { kind: 'account' },
    invalid: noInput,
  }),
  row({
    route: `PATCH ${API}/accounts/:accountId`,
    as: 'operator',
    call: (side) => ({ url: acct(side), payload: { name: `Renamed ${unique()}` } }),
    success: { status: 200 },
    read: (side) => acct(side),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: acct(side), payload: { name: ' ' } }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/overview`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/overview` }),
    success: { status: 200, check: (res) => expect(res.json().employees).toBeGreaterThan(0) },
    otherAccount: { kind: 'account' },
    invalid: noInput,
  }),
  row({
    route: `GET ${API}/accounts/:accountId/admins`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/admins` }),
    success: { status: 200, check: (res, side) => expect(ids(res)).toContain(side.admin.user.id) },
    otherAccount: { kind: 'list', ids, theirs: (w) => [w.b.admin.user.id] },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/admins/:id`,
    as: 'admin',
    // Signed in: their sessions must end with them. Without credentials nothing can be removed.
    object: async (w, side, c) => (c === '401' ? side.admin : await freshAdmin(w.app, side)).user.id,
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}` }),
    success: { status: 204 },
    read: (side) => ({ url: `${acct(side)}/admins`, view: (body) => (body as { count: number }).count }),
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/admins/:id/role`,
    as: 'admin',
    object: async (w, side) => (await freshAdmin(w.app, side)).user.id,
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}/role`, payload: { role: 'auditor' } }),
    success: { status: 200, check: (res) => expect(res.json().account_role).toBe('auditor') },
    read: (side, id) => ({
      url: `${acct(side)}/admins`,
      view: (body) =>
        (body as { results: { id: number; account_role: string }[] }).results.find((a) => a.id === id),
    }),
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: `${acct(side)}/admins/${id}/role`, payload: { role: 'king' } }) },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/invitations`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/invitations` }),
    success: {
      status: 200,
      check: (res, side) => expect(ids(res)).toEqual(expect.arrayContaining(side.invitationIds)),
    },
    otherAccount: { kind: 'list', ids, theirs: (w) => w.b.invitationIds },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `POST ${API}/accounts/:accountId/invitations`,
    as: 'admin',
    call: (side) => ({
      url: `${acct(side)}/invitations`,
      payload: { email: `invitee.${unique()}@example.com` },
    }),
    success: { status: 201, check: (res) => expect(res.json().url).toContain('/admin/invite/') },
    read: (side) => `${acct(side)}/invitations`,
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/invitations`, payload: {} }) },
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/invitations/:id`,
    as: 'admin',
    object: async (w, side) => (await freshInvitation(w.app, w.operator, side.accountId)).id,
    call: (side, id) => ({ url: `${acct(side)}/invitations/${id}` }),
    success: { status: 204 },
    read: (side) => `${acct(side)}/invitations`,
    otherAccount: { kind: 'object', notFound: 'invitation_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `GET ${API}/accounts/:accountId/keys`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/keys` }),
    success: {
      status: 200,
      check: (res, side) => expect(ids(res)).toEqual(expect.arrayContaining(side.keyIds)),
    },
    otherAccount: { kind: 'list', ids, theirs: (w) => w.b.keyIds },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `POST ${API}/accounts/:accountId/keys`,
    as: 'admin',
    call: (side) => ({
      url: `${acct(side)}/keys`,
      payload: { name: 'New key', permissions: ['employees:read'] },
    }),
    success: { status: 201, check: (res) => expect(res.json().key).toEqual(expect.any(String)) },
    read: (side) => ({ url: `${acct(side)}/keys`, view: keysView }),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/keys`, payload: { name: 'New key' } }) },
  }),
  row({
    route: `POST ${API}/accounts/:accountId/keys/:id/revoke`,
    as: 'admin',
    object: (w, side) => freshKeyId(w.app, side),
    call: (side, id) => ({ url: `${acct(side)}/keys/${id}/revoke` }),
    success: { status: 200, check: (res) => expect(res.json().status).toBe('revoked') },
    read: (side) => ({ url: `${acct(side)}/keys`, view: keysView }),
    otherAccount: { kind: 'object', notFound: 'api_key_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: `PATCH ${API}/accounts/:accountId/keys/:id`,
    as: 'operator',
    object: (w, side) => freshKeyId(w.app, side),
    call: (side, id) => ({ url: `${acct(side)}/keys/${id}`, payload: { rate_limit: 5000 } }),
    success: { status: 200, check: (res) => expect(res.json().rate_limit).toBe(5000) },
    read: (side) => ({ url: `${acct(side)}/keys`, view: keysView }),
    otherAccount: { kind: 'object', notFound: 'api_key_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: `${acct(side)}/keys/${id}`, payload: { rate_limit: 'fast' } }) },
  }),
];
