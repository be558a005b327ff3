import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { acct } from './admin-access-rows.js';
import { type Call, isNa, NEVER, type NotApplicable, na, type Row, row } from './matrix.js';
import { adminApi, inDays, type Side } from './world.js';

/** The admin API's rows for phishing campaigns: their life cycle. Each case makes its own campaign. */

const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const noInput = na('no input but the path (text that is no id is a 404; a wrong status is a 409)');
const campaign = (side: Side, id: number) => `${acct(side)}/phishing/campaigns/${id}`;
const status = (expected: string) => (res: LightMyRequestResponse) =>
  expect(res.json().status).toBe(expected);

type Base = Pick<Side, 'accountId' | 'admin' | 'groups'>;

/** A phishing draft: empty, or ready to schedule and launch (a window from tomorrow, every day and hour). */
export async function freshPhishingDraft(app: FastifyInstance, side: Base, ready = false): Promise<number> {
  const body = {
    name: `Phishing ${Date.now()}`,
    ...(ready
      ? {
          group_ids: [side.groups[0]],
          template_keys: ['builtin:invoice-final-notice'],
          window_start_at: inDays(1),
          window_end_at: inDays(8),
          weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          hour_start: 0,
          hour_end: 24,
        }
      : {}),
  };
  const res = await adminApi(
    app,
    side.admin,
    'POST',
    `/accounts/${side.accountId}/phishing/campaigns`,
    201,
    body,
  );
  return res.json().id as number;
}

async function freshPhishing(
  app: FastifyInstance,
  side: Base,
  action: 'schedule' | 'launch',
): Promise<number> {
  const id = await freshPhishingDraft(app, side, true);
  await adminApi(
    app,
    side.admin,
    'POST',
    `/accounts/${side.accountId}/phishing/campaigns/${id}/${action}`,
    200,
  );
  return id;
}

function transition(
  action: string,
  make: (app: FastifyInstance, side: Side) => Promise<number>,
  after: string,
  invalid: 'incomplete draft' | NotApplicable,
): Row {
  return row<number>({
    route: `POST /admin/api/accounts/:accountId/phishing/campaigns/:campaignId/${action}`,
    as: 'admin',
    object: (w, side, c) => (c === '400' ? freshPhishingDraft(w.app, side) : make(w.app, side)),
    call: (side, id): Call => ({ url: `${campaign(side, id)}/${action}` }),
    success: { status: 200, check: status(after) },
    read: (side, id) => campaign(side, id),
    otherAccount: { kind: 'object', notFound: 'phishing_campaign_not_found', missing: () => NEVER },
    invalid: isNa(invalid) ? invalid : { call: (side, id) => ({ url: `${campaign(side, id)}/${action}` }) },
  });
}

export const adminPhishingCampaignRows: Row[] = [
  row({
    route: 'GET /admin/api/accounts/:accountId/phishing/campaigns',
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/phishing/campaigns?page_size=200` }),
    success: { status: 200 },
    otherAccount: {
      kind: 'custom',
      run: async (w) => {
        const theirs = await freshPhishingDraft(w.app, w.b);
        const mine = await freshPhishingDraft(w.app, w.a);
        const res = await adminApi(
          w.app,
          w.a.admin,
          'GET',
          `/accounts/${w.a.accountId}/phishing/campaigns?page_size=200`,
          200,
        );
        expect(ids(res)).toContain(mine);
        expect(ids(res)).not.toContain(theirs);
      },
    },
    invalid: { call: (side) => ({ url: `${acct(side)}/phishing/campaigns?status=active` }) },
  }),
  row({
    route: 'POST /admin/api/accounts/:accountId/phishing/campaigns',
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/phishing/campaigns`, payload: { name: 'New phishing campaign' } }),
    success: { status: 201, check: status('draft') },
    read: (side) => ({
      url: `${acct(side)}/phishing/campaigns`,
      view: (body) => (body as { count: number }).count,
    }),
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({
        url: `${acct(side)}/phishing/campaigns`,
        payload: { name: 'x', time_zone: 'Nowhere/Else' },
      }),
    },
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/phishing/campaigns/:campaignId',
    as: 'admin',
    object: (w, side) => freshPhishingDraft(w.app, side),
    call: (side, id) => ({ url: campaign(side, id) }),
    success: { status: 200, check: status('draft') },
    otherAccount: { kind: 'object', notFound: 'phishing_campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/phishing/campaigns/:campaignId/launch-preview',
    as: 'admin',
    object: (w, side) => freshPhishingDraft(w.app, side, true),
    call: (side, id) => ({ url: `${campaign(side, id)}/launch-preview` }),
    success: { status: 200, check: (res) => expect(res.json().recipients).toEqual(expect.any(Number)) },
    otherAccount: { kind: 'object', notFound: 'phishing_campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: 'PATCH /admin/api/accounts/:accountId/phishing/campaigns/:campaignId',
    as: 'admin',
    object: (w, side) => freshPhishingDraft(w.app, side),
    call: (side, id) => ({ url: campaign(side, id), payload: { name: 'Renamed' } }),
    success: { status: 200, check: (res) => expect(res.json().name).toBe('Renamed') },
    read: (side, id) => campaign(side, id),
    otherAccount: { kind: 'object', notFound: 'phishing_campaign_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: campaign(side, id), payload: { hour_start: 99 } }) },
  }),
  row({
    route: 'DELETE /admin/api/accounts/:accountId/phishing/campaigns/:campaignId',
    as: 'admin',
    object: (w, side) => freshPhishingDraft(w.app, side),
    call: (side, id) => ({ url: campaign(side, id) }),
    success: { status: 204 },
    read: (side, id) => campaign(side, id),
    otherAccount: { kind: 'object', notFound: 'phishing_campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  transition('launch', (app, side) => freshPhishingDraft(app, side, true), 'running', 'incomplete draft'),
  transition('schedule', (app, side) => freshPhishingDraft(app, side, true), 'scheduled', 'incomplete draft'),
  transition('unschedule', (app, side) => freshPhishing(app, side, 'schedule'), 'draft', noInput),
  transition('stop', (app, side) => freshPhishing(app, side, 'launch'), 'completed', noInput),
  transition('archive', (app, side) => freshPhishingDraft(app, side), 'archived', noInput),
];
