import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { makeEmployee } from '../factories.js';
import { acct } from './admin-access-rows.js';
import { na, type Row, row } from './matrix.js';
import { adminApi, type Side } from './world.js';

/** The admin API's rows for delivery that lands: the allow-listing sheet and test sends. */

const API = '/admin/api';
const TEMPLATE = 'builtin:benefits-enrolment-deadline';
const sends = (side: Side) => `${acct(side)}/phishing/delivery/test-sends`;

/** A test send of the side's account to its first employee. */
async function freshTestSend(app: FastifyInstance, side: Side): Promise<number> {
  const email = (side.employees[0] as { email: string }).email;
  const res = await adminApi(
    app,
    side.admin,
    'POST',
    `/accounts/${side.accountId}/phishing/delivery/test-sends`,
    201,
    { email, template_key: TEMPLATE },
  );
  return res.json().id;
}

const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((s) => s.id);

export const adminPhishingDeliveryRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/phishing/delivery`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/phishing/delivery` }),
    success: {
      status: 200,
      check: (res) => expect(res.json().simulation_urls).toEqual([expect.stringMatching(/\/\*$/)]),
    },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `GET ${API}/accounts/:accountId/phishing/delivery/test-sends`,
    as: 'admin',
    call: (side) => ({ url: sends(side) }),
    success: { status: 200, check: (res) => expect(res.json().data).toEqual(expect.any(Array)) },
    otherAccount: {
      kind: 'custom',
      run: async (w) => {
        const theirs = await freshTestSend(w.app, w.b);
        const mine = await freshTestSend(w.app, w.a);
        const res = await adminApi(w.app, w.a.admin, 'GET', sends(w.a).slice(API.length), 200);
        expect(ids(res)).toContain(mine);
        expect(ids(res)).not.toContain(theirs);
      },
    },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `POST ${API}/accounts/:accountId/phishing/delivery/test-sends`,
    as: 'admin',
    call: (side) => ({
      url: sends(side),
      payload: { email: (side.employees[0] as { email: string }).email, template_key: TEMPLATE },
    }),
    success: { status: 201, check: (res) => expect(res.json().verdict).toBe('queued') },
    read: (side) => sends(side),
    otherAccount: {
      kind: 'custom',
      // Only an address is named: another account's employee is no employee of this one.
      run: async (w) => {
        // A fresh employee of theirs: earlier rows may have given the world's first ones addresses both accounts hold.
        const theirs = await makeEmployee(w.app, w.b.accountId);
        const before = await adminApi(w.app, w.b.admin, 'GET', sends(w.b).slice(API.length), 200);
        const res = await w.app.inject({
          method: 'POST',
          url: sends(w.a),
          headers: w.a.admin.headers,
          payload: { email: theirs.email, template_key: TEMPLATE },
        });
        expect(res.statusCode, res.body).toBe(400);
        const after = await adminApi(w.app, w.b.admin, 'GET', sends(w.b).slice(API.length), 200);
        expect(ids(after)).toEqual(ids(before));
      },
    },
    invalid: {
      call: (side) => ({
        url: sends(side),
        payload: { email: 'stranger@elsewhere.example', template_key: TEMPLATE },
      }),
    },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/phishing/delivery/test-sends/:testSendId`,
    as: 'admin',
    object: (w, side) => freshTestSend(w.app, side),
    call: (side, id) => ({ url: `${sends(side)}/${id}` }),
    success: { status: 200, check: (res, _side, id) => expect(res.json().id).toBe(id) },
    otherAccount: { kind: 'object', notFound: 'test_send_not_found', missing: () => 987_654_321 },
    invalid: na('takes no input but the path: a malformed id answers 404 as an unknown one'),
  }),
];
