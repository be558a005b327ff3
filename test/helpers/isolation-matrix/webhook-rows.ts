import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  createEndpoint,
  sendTestEvent,
} from '../../../src/modules/integrations/webhooks/webhooks.service.js';
import { client } from '../factories.js';
import { NEVER, na, type Row, row } from './matrix.js';
import type { Side, World } from './world.js';

/**
 * Webhook endpoints and their deliveries, through the Customer API and the admin API. Each side
 * gets an endpoint with one delivery (a test event, never sent: no worker runs here); cases
 * that change an endpoint make their own.
 */

const C = '/api/api_gateway/customer/webhooks/endpoints';
const acct = (side: Side) => `/admin/api/accounts/${side.accountId}/webhooks`;
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const noInput = na('no input but the path ids (text that is no id is a 404, like any unknown id)');

interface Hook {
  endpointId: number;
  deliveryId: number;
}

const fixtures = new WeakMap<Side, Promise<Hook>>();
/** The fixtures once made (the matrix's synchronous callbacks read them). */
const made = new WeakMap<Side, Hook>();

/** An endpoint of the side's account, with one delivery. */
async function freshHook(w: World, side: Side): Promise<Hook> {
  const endpoint = await createEndpoint(w.app.db, {
    accountId: side.accountId,
    url: 'https://hooks.example.com/vigil',
    policy: w.app.config.webhooks,
  });
  const delivery = await sendTestEvent(w.app.db, side.accountId, endpoint.id);
  return { endpointId: endpoint.id, deliveryId: delivery.id };
}

function hookOf(w: World, side: Side): Promise<Hook> {
  let hook = fixtures.get(side);
  if (!hook) {
    hook = freshHook(w, side).then((h) => {
      made.set(side, h);
      return h;
    });
    fixtures.set(side, hook);
  }
  return hook;
}

const known = (side: Side): Hook => {
  const hook = made.get(side);
  if (!hook) throw new Error('webhook fixture not made yet');
  return hook;
};

/** Both sides' fixtures exist; this side's is the object (reads). */
async function shared(w: World, side: Side): Promise<Hook> {
  await hookOf(w, w.a);
  await hookOf(w, w.b);
  return hookOf(w, side);
}
/** A fresh endpoint for a case that changes one (the fixture for the other cases). */
const fresh = async (w: World, side: Side, c: string) => {
  const hook = await shared(w, side);
  return c === 'success' ? freshHook(w, side) : hook;
};
const objectCase = {
  kind: 'object' as const,
  notFound: 'webhook_endpoint_not_found' as const,
  missing: (): Hook => ({ endpointId: NEVER, deliveryId: NEVER }),
};
const deliveryCase = {
  ...objectCase,
  // Their delivery under one's own endpoint is as unknown as a delivery that never was.
  pairs: (w: World, theirs: Hook): [Hook, Hook, 'webhook_delivery_not_found'][] => [
    [
      { endpointId: known(w.a).endpointId, deliveryId: theirs.deliveryId },
      { endpointId: known(w.a).endpointId, deliveryId: NEVER },
      'webhook_delivery_not_found',
    ],
  ],
};

export const webhookRows: Row[] = [
  // ---- Customer API ----
  row({
    route: `GET ${C}/`,
    as: 'key',
    object: shared,
    call: () => ({ url: `${C}/?page_size=1000` }),
    success: { status: 200, check: (res, _side, hook) => expect(ids(res)).toContain(hook.endpointId) },
    otherAccount: { kind: 'list', ids, theirs: (w) => [known(w.b).endpointId] },
    invalid: { call: () => ({ url: `${C}/?page=0` }) },
  }),
  row({
    route: `POST ${C}/`,
    as: 'key',
    call: () => ({ url: `${C}/`, payload: { url: 'https://hooks.example.com/new' } }),
    success: { status: 201, check: (res) => expect(res.json().secret).toMatch(/^whsec_/) },
    read: () => `${C}/?page_size=1000`,
    otherAccount: {
      kind: 'custom',
      // Nothing of B's is named: what A creates is never B's.
      run: async (w) => {
        const made = await client(w.app, w.a.key).post('/customer/webhooks/endpoints/', {
          url: 'https://hooks.example.com/a-only',
        });
        expect(made.statusCode, made.body).toBe(201);
        const theirs = await client(w.app, w.b.key).get('/customer/webhooks/endpoints/?page_size=1000');
        expect(ids(theirs)).not.toContain(made.json().id);
      },
    },
    invalid: { call: () => ({ url: `${C}/`, payload: { url: 'https://127.0.0.1/hook' } }) },
  }),
  row({
    route: `GET ${C}/:endpoint_id/`,
    as: 'key',
    object: shared,
    call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/` }),
    success: { status: 200, check: (res, _side, hook) => expect(res.json().id).toBe(hook.endpointId) },
    otherAccount: objectCase,
    invalid: noInput,
  }),
  row({
    route: `PATCH ${C}/:endpoint_id/`,
    as: 'key',
    object: fresh,
    call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/`, payload: { description: 'changed' } }),
    success: { status: 200, check: (res) => expect(res.json().description).toBe('changed') },
    read: (_side, hook) => `${C}/${hook.endpointId}/`,
    otherAccount: objectCase,
    invalid: {
      call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/`, payload: { url: 'ftp://x.example.com/' } }),
    },
  }),
  row({
    route: `DELETE ${C}/:endpoint_id/`,
    as: 'key',
    object: fresh,
    call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/` }),
    success: { status: 204 },
    read: () => `${C}/?page_size=1000`,
    otherAccount: objectCase,
    invalid: noInput,
  }),
  row({
    route: `POST ${C}/:endpoint_id/rotate-secret/`,
    as: 'key',
    object: fresh,
    call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/rotate-secret/` }),
    success: { status: 200, check: (res) => expect(res.json().previous_secret_expires_at).not.toBeNull() },
    read: (_side, hook) => `${C}/${hook.endpointId}/`,
    otherAccount: objectCase,
    invalid: noInput,
  }),
  row({
    route: `GET ${C}/:endpoint_id/deliveries/`,
    as: 'key',
    object: shared,
    call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/deliveries/` }),
    success: { status: 200, check: (res, _side, hook) => expect(ids(res)).toContain(hook.deliveryId) },
    otherAccount: objectCase,
    invalid: { call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/deliveries/?page=0` }) },
  }),
  row({
    route: `POST ${C}/:endpoint_id/deliveries/:delivery_id/resend/`,
    as: 'key',
    object: shared,
    call: (_side, hook) => ({ url: `${C}/${hook.endpointId}/deliveries/${hook.deliveryId}/resend/` }),
    success: { status: 202, check: (res) => expect(res.json().status).toBe('queued') },
    read: (_side, hook) => `${C}/${hook.endpointId}/`,
    otherAccount: deliveryCase,
    invalid: noInput,
  }),

  // ---- Admin API ----
  row({
    route: 'GET /admin/api/accounts/:accountId/webhooks/settings',
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/settings` }),
    success: { status: 200, check: (res) => expect(res.json().event_types.length).toBeGreaterThan(10) },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/webhooks/endpoints',
    as: 'admin',
    object: shared,
    call: (side) => ({ url: `${acct(side)}/endpoints` }),
    success: { status: 200, check: (res, _side, hook) => expect(ids(res)).toContain(hook.endpointId) },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: 'POST /admin/api/accounts/:accountId/webhooks/endpoints',
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/endpoints`, payload: { url: 'https://hooks.example.com/admin' } }),
    success: { status: 201, check: (res) => expect(res.json().secret).toMatch(/^whsec_/) },
    read: (side) => `${acct(side)}/endpoints`,
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/endpoints`, payload: { url: 'https://localhost/' } }) },
  }),
  row({
    route: 'PATCH /admin/api/accounts/:accountId/webhooks/endpoints/:id',
    as: 'admin',
    object: fresh,
    call: (side, hook) => ({
      url: `${acct(side)}/endpoints/${hook.endpointId}`,
      payload: { enabled: false },
    }),
    success: {
      status: 200,
      check: (res) => expect(res.json()).toMatchObject({ enabled: false, disabled_reason: 'manual' }),
    },
    read: (side) => `${acct(side)}/endpoints`,
    otherAccount: objectCase,
    invalid: {
      call: (side, hook) => ({
        url: `${acct(side)}/endpoints/${hook.endpointId}`,
        payload: { event_types: ['nope'] },
      }),
    },
  }),
  row({
    route: 'DELETE /admin/api/accounts/:accountId/webhooks/endpoints/:id',
    as: 'admin',
    object: fresh,
    call: (side, hook) => ({ url: `${acct(side)}/endpoints/${hook.endpointId}` }),
    success: { status: 204 },
    read: (side) => `${acct(side)}/endpoints`,
    otherAccount: objectCase,
    invalid: noInput,
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/webhooks/endpoints/:id/secret',
    as: 'admin',
    object: shared,
    call: (side, hook) => ({ url: `${acct(side)}/endpoints/${hook.endpointId}/secret` }),
    success: { status: 200, check: (res) => expect(res.json().secret).toMatch(/^whsec_/) },
    otherAccount: objectCase,
    invalid: noInput,
  }),
  row({
    route: 'POST /admin/api/accounts/:accountId/webhooks/endpoints/:id/rotate-secret',
    as: 'admin',
    object: fresh,
    call: (side, hook) => ({ url: `${acct(side)}/endpoints/${hook.endpointId}/rotate-secret` }),
    success: { status: 200, check: (res) => expect(res.json().secret).toMatch(/^whsec_/) },
    read: (side) => `${acct(side)}/endpoints`,
    otherAccount: objectCase,
    invalid: noInput,
  }),
  row({
    route: 'POST /admin/api/accounts/:accountId/webhooks/endpoints/:id/test',
    as: 'admin',
    object: shared,
    call: (side, hook) => ({ url: `${acct(side)}/endpoints/${hook.endpointId}/test` }),
    success: { status: 202, check: (res) => expect(res.json().event_type).toBe('webhook.test') },
    read: (side, hook) => `${acct(side)}/endpoints/${hook.endpointId}/deliveries`,
    otherAccount: objectCase,
    invalid: noInput,
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/webhooks/endpoints/:id/deliveries',
    as: 'admin',
    object: shared,
    call: (side, hook) => ({ url: `${acct(side)}/endpoints/${hook.endpointId}/deliveries` }),
    success: { status: 200, check: (res, _side, hook) => expect(ids(res)).toContain(hook.deliveryId) },
    otherAccount: objectCase,
    invalid: {
      call: (side, hook) => ({ url: `${acct(side)}/endpoints/${hook.endpointId}/deliveries?page=0` }),
    },
  }),
  row({
    route: 'POST /admin/api/accounts/:accountId/webhooks/endpoints/:id/deliveries/:deliveryId/resend',
    as: 'admin',
    object: shared,
    call: (side, hook) => ({
      url: `${acct(side)}/endpoints/${hook.endpointId}/deliveries/${hook.deliveryId}/resend`,
    }),
    success: { status: 202, check: (res) => expect(res.json().status).toBe('queued') },
    read: (side, hook) => `${acct(side)}/endpoints/${hook.endpointId}/deliveries`,
    otherAccount: deliveryCase,
    invalid: noInput,
  }),
];
