import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { expect } from 'vitest';
import { type AdminClient, signIn } from '../admin.js';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { freshAdmin, type Side } from './world.js';

/**
 * The admin API's rows about second factors: the second step of sign-in (a session waiting for
 * it), the signed-in user's own factors (they name no account: another's factor id is a 404,
 * mfa.test.ts), and an account's requirement and an owner's reset.
 */

const API = '/admin/api';
const ownFactors = na('names no account: it acts on the signed-in administrator’s own factors');
const noInput = na('takes no input');

const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function inject(
  app: FastifyInstance,
  client: AdminClient,
  method: 'POST' | 'GET',
  url: string,
  payload?: object,
) {
  return app.inject({
    method,
    url: `${API}${url}`,
    headers: client.headers,
    ...(payload ? { payload } : {}),
  });
}

/** A new administrator of the side with an authenticator app, signed in fully. */
async function enrolled(app: FastifyInstance, side: Side) {
  const client = await freshAdmin(app, side);
  const start = (await inject(app, client, 'POST', '/mfa/totp')).json();
  const done = await inject(app, client, 'POST', '/mfa/totp/confirm', {
    factor_id: start.factor_id,
    // This step's code: still accepted if the next step begins before the server checks it
    // (the previous step's was not, and failed once on a busy machine). The sign-in after it
    // (pending) uses the next step's, so it is never refused as a replay.
    code: await codeAt(start.secret, 0),
  });
  expect(done.statusCode).toBe(200);
  return { client, secret: start.secret as string, factorId: done.json().factor.id as number };
}

/** That administrator signed in again: a session waiting for its second step, and a code for it. */
async function pending(app: FastifyInstance, side: Side) {
  const { client, secret } = await enrolled(app, side);
  const waiting = await signIn(app, client.email);
  return { headers: waiting.headers, code: await codeAt(secret, 1) };
}

/** A full session with a factor: the route leaves it as it is (a session that must enrol: mfa.test.ts). */
async function enrolledWhileRequired(app: FastifyInstance, side: Side) {
  return (await enrolled(app, side)).client;
}

export const adminMfaRows: Row[] = [
  row({
    route: `POST ${API}/session/mfa/passkey-options`,
    as: 'admin',
    object: (w, side) => pending(w.app, side),
    call: (_side, p) => ({ url: `${API}/session/mfa/passkey-options`, headers: p.headers }),
    success: { status: 200, check: (res) => expect(res.json().challenge).toEqual(expect.any(String)) },
    otherAccount: ownFactors,
    invalid: noInput,
  }),
  row({
    route: `POST ${API}/session/mfa`,
    as: 'admin',
    object: (w, side) => pending(w.app, side),
    call: (_side, p) => ({ url: `${API}/session/mfa`, headers: p.headers, payload: { totp_code: p.code } }),
    success: { status: 200, check: (res) => expect(res.json().mfa_pending).toBeNull() },
    otherAccount: ownFactors,
    invalid: {
      call: (_side, p) => ({ url: `${API}/session/mfa`, headers: p.headers, payload: { totp_code: 123456 } }),
    },
  }),
  row({
    route: `POST ${API}/session/mfa/enrolled`,
    as: 'admin',
    object: (w, side) => enrolledWhileRequired(w.app, side),
    call: (_side, client) => ({ url: `${API}/session/mfa/enrolled`, headers: client.headers }),
    success: { status: 200, check: (res) => expect(res.json().mfa_pending).toBeNull() },
    otherAccount: ownFactors,
    invalid: noInput,
  }),
  row({
    route: `GET ${API}/mfa`,
    as: 'admin',
    call: () => ({ url: `${API}/mfa` }),
    success: { status: 200, check: (res) => expect(res.json().factors).toEqual(expect.any(Array)) },
    otherAccount: ownFactors,
    invalid: noInput,
  }),
  row({
    route: `POST ${API}/mfa/totp`,
    as: 'admin',
    call: () => ({ url: `${API}/mfa/totp` }),
    success: { status: 200, check: (res) => expect(res.json().qr_code).toMatch(/^data:image\/svg/) },
    otherAccount: ownFactors,
    invalid: noInput,
  }),
  row({
    route: `POST ${API}/mfa/totp/confirm`,
    as: 'admin',
    object: async (w, side) => {
      const client = await freshAdmin(w.app, side);
      const start = (await inject(w.app, client, 'POST', '/mfa/totp')).json();
      return {
        headers: client.headers,
        factorId: start.factor_id as number,
        code: await codeAt(start.secret, 0),
      };
    },
    call: (_side, e) => ({
      url: `${API}/mfa/totp/confirm`,
      headers: e.headers,
      payload: { factor_id: e.factorId, code: e.code, name: 'Phone' },
    }),
    success: { status: 200, check: (res) => expect(res.json().recovery_codes).toHaveLength(10) },
    otherAccount: ownFactors,
    invalid: {
      call: (_side, e) => ({
        url: `${API}/mfa/totp/confirm`,
        headers: e.headers,
        payload: { factor_id: e.factorId, code: '000000x' },
      }),
    },
  }),
  row({
    route: `POST ${API}/mfa/passkeys/options`,
    as: 'admin',
    call: () => ({ url: `${API}/mfa/passkeys/options` }),
    success: { status: 200, check: (res) => expect(res.json().rp.id).toBe('localhost') },
    otherAccount: ownFactors,
    invalid: noInput,
  }),
  row({
    route: `PATCH ${API}/mfa/factors/:factorId`,
    as: 'admin',
    object: (w, side) => enrolled(w.app, side),
    call: (_side, e) => ({
      url: `${API}/mfa/factors/${e.factorId}`,
      headers: e.client.headers,
      payload: { name: 'Renamed phone' },
    }),
    success: { status: 200, check: (res) => expect(res.json().name).toBe('Renamed phone') },
    otherAccount: ownFactors,
    invalid: {
      call: (_side, e) => ({
        url: `${API}/mfa/factors/${e.factorId}`,
        headers: e.client.headers,
        payload: { name: '' },
      }),
    },
  }),
  row({
    route: `DELETE ${API}/mfa/factors/:factorId`,
    as: 'admin',
    object: (w, side) => enrolled(w.app, side),
    call: (_side, e) => ({ url: `${API}/mfa/factors/${e.factorId}`, headers: e.client.headers }),
    success: { status: 204 },
    otherAccount: ownFactors,
    invalid: na('no input but the path (an unknown factor is a 404)'),
  }),
  row({
    route: `POST ${API}/mfa/recovery-codes`,
    as: 'admin',
    object: (w, side) => enrolled(w.app, side),
    call: (_side, e) => ({ url: `${API}/mfa/recovery-codes`, headers: e.client.headers }),
    success: { status: 200, check: (res) => expect(res.json().recovery_codes).toHaveLength(10) },
    otherAccount: ownFactors,
    invalid: noInput,
  }),
  row({
    route: `GET ${API}/accounts/:accountId/security/mfa`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/security/mfa` }),
    success: {
      status: 200,
      check: (res, side) =>
        expect(res.json().administrators.map((a: { id: number }) => a.id)).toContain(side.admin.user.id),
    },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/security/mfa`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/security/mfa`, payload: { require_mfa: false } }),
    success: { status: 200, check: (res) => expect(res.json().require_mfa).toBe(false) },
    read: (side) => `${acct(side)}/security/mfa`,
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/security/mfa`, payload: { require_mfa: 'yes' } }) },
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/admins/:id/mfa`,
    as: 'admin',
    // The world's administrators are their accounts' owners (an account administrator's default role).
    object: async (w, side) => (await enrolled(w.app, side)).client.user.id,
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}/mfa` }),
    success: { status: 204 },
    read: (side) => `${acct(side)}/security/mfa`,
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: na('no input but the path'),
  }),
];
