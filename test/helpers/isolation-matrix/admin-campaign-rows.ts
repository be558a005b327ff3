import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { acct } from './admin-access-rows.js';
import { type Call, isNa, NEVER, type NotApplicable, na, type Row, row } from './matrix.js';
import { freshActive, freshDraft, freshMessages, freshScheduled, type Side, type World } from './world.js';

/** The admin API's rows for training campaigns: their life cycle, progress and enrollments. */

const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const noInput = na('no input but the path (text that is no id is a 404; a wrong status is a 409)');
const campaign = (side: Side, id: number) => `${acct(side)}/campaigns/${id}`;
const status = (expected: string) => (res: LightMyRequestResponse) =>
  expect(res.json().status).toBe(expected);

/**
 * A status change (`POST …/campaigns/:campaignId/<action>`) of a campaign made for the case.
 * Launch and schedule take no body, but a draft that lacks what they need is their 400 (the
 * missing fields in details).
 */
function transition(
  action: string,
  make: (app: World['app'], side: Side) => Promise<number>,
  after: string,
  invalid: 'incomplete draft' | NotApplicable,
): Row {
  return row<number>({
    route: `POST /admin/api/accounts/:accountId/campaigns/:campaignId/${action}`,
    as: 'admin',
    object: (w, side, c) => (c === '400' ? freshDraft(w.app, side) : make(w.app, side)),
    call: (side, id): Call => ({ url: `${campaign(side, id)}/${action}` }),
    success: { status: 200, check: status(after) },
    read: (side, id) => campaign(side, id),
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: isNa(invalid) ? invalid : { call: (side, id) => ({ url: `${campaign(side, id)}/${action}` }) },
  });
}

type Enrollment = { campaignId: number; enrollmentId: number };

export const adminCampaignRows: Row[] = [
  row({
    route: 'GET /admin/api/accounts/:accountId/campaigns',
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/campaigns?page_size=200` }),
    success: {
      status: 200,
      check: (res, side) =>
        expect(ids(res)).toEqual(expect.arrayContaining([side.draft, side.active.campaignId])),
    },
    otherAccount: { kind: 'list', ids, theirs: (w) => [w.b.draft, w.b.active.campaignId] },
    invalid: { call: (side) => ({ url: `${acct(side)}/campaigns?status=running` }) },
  }),
  row({
    route: 'POST /admin/api/accounts/:accountId/campaigns',
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/campaigns`, payload: { name: 'New campaign' } }),
    success: { status: 201, check: status('draft') },
    read: (side) => ({ url: `${acct(side)}/campaigns`, view: (body) => (body as { count: number }).count }),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/campaigns`, payload: { description: 'no name' } }) },
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/campaigns/:campaignId',
    as: 'admin',
    object: (_w, side) => side.draft,
    call: (side, id) => ({ url: campaign(side, id) }),
    success: { status: 200, check: status('draft') },
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: 'PATCH /admin/api/accounts/:accountId/campaigns/:campaignId',
    as: 'admin',
    object: (w, side) => freshDraft(w.app, side),
    call: (side, id) => ({ url: campaign(side, id), payload: { name: 'Renamed' } }),
    success: { status: 200, check: (res) => expect(res.json().name).toBe('Renamed') },
    read: (side, id) => campaign(side, id),
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: campaign(side, id), payload: { name: 5 } }) },
  }),
  row({
    route: 'DELETE /admin/api/accounts/:accountId/campaigns/:campaignId',
    as: 'admin',
    object: (w, side) => freshDraft(w.app, side),
    call: (side, id) => ({ url: campaign(side, id) }),
    success: { status: 204 },
    read: (side, id) => campaign(side, id),
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  transition('launch', (app, side) => freshDraft(app, side, 'launch'), 'active', 'incomplete draft'),
  transition('schedule', (app, side) => freshDraft(app, side, 'schedule'), 'scheduled', 'incomplete draft'),
  transition('unschedule', freshScheduled, 'draft', noInput),
  transition('stop', freshActive, 'completed', noInput),
  transition('archive', (app, side) => freshDraft(app, side), 'archived', noInput),
  row({
    route: 'GET /admin/api/accounts/:accountId/campaigns/:campaignId/progress',
    as: 'admin',
    object: (_w, side) => side.active.campaignId,
    call: (side, id) => ({ url: `${campaign(side, id)}/progress` }),
    success: { status: 200, check: (res) => expect(res.json().counts.enrolled).toBe(2) },
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/campaigns/:campaignId/enrollments',
    as: 'admin',
    object: (_w, side) => side.active.campaignId,
    call: (side, id) => ({ url: `${campaign(side, id)}/enrollments` }),
    success: {
      status: 200,
      check: (res, side) => expect(ids(res).sort()).toEqual([...side.active.enrollmentIds].sort()),
    },
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: { call: (side, id) => ({ url: `${campaign(side, id)}/enrollments?page=0` }) },
  }),
  row<Enrollment>({
    route: 'POST /admin/api/accounts/:accountId/campaigns/:campaignId/enrollments/:enrollmentId/resend',
    as: 'admin',
    // The first invitation has gone out (by hand: no mail worker here), so a new one may be sent.
    object: (w, side) => freshMessages(w.app, side, 'sent'),
    call: (side, { campaignId, enrollmentId }) => ({
      url: `${campaign(side, campaignId)}/enrollments/${enrollmentId}/resend`,
    }),
    success: { status: 200, check: (res) => expect(res.json().invitation.status).toBe('queued') },
    read: (side, { campaignId }) => `${campaign(side, campaignId)}/enrollments`,
    otherAccount: {
      kind: 'object',
      notFound: 'campaign_not_found',
      missing: () => ({ campaignId: NEVER, enrollmentId: NEVER }),
      // Their enrollment under one's own campaign, too.
      pairs: (w, theirs) => [
        [
          { campaignId: w.a.active.campaignId, enrollmentId: theirs.enrollmentId },
          { campaignId: w.a.active.campaignId, enrollmentId: NEVER },
          'enrollment_not_found',
        ],
      ],
    },
    invalid: noInput,
  }),
  row({
    route: 'GET /admin/api/accounts/:accountId/campaigns/:campaignId/enrollments.csv',
    as: 'admin',
    object: (_w, side) => side.active.campaignId,
    call: (side, id) => ({ url: `${campaign(side, id)}/enrollments.csv` }),
    success: { status: 200, check: (res) => expect(res.headers['content-type']).toContain('text/csv') },
    otherAccount: { kind: 'object', notFound: 'campaign_not_found', missing: () => NEVER },
    invalid: noInput,
  }),
];
