import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { PhishingFixture } from '../phishing-fixtures.js';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { phishingCampaignOf } from './phishing-world.js';
import { adminApi } from './world.js';

/** The admin API's phishing results rows: summary, recipients, CSV, a person's events, an employee's history and training. */

const A = '/admin/api/accounts/:accountId';
const noInput = na('no input but the path (text that is no id is a 404)');
const results = (side: Parameters<typeof acct>[0], fx: PhishingFixture) =>
  `${acct(side)}/phishing/campaigns/${fx.campaignId}/results`;
const missingCampaign = { kind: 'object' as const, notFound: 'campaign_not_found' as const };
const recipientIds = (res: LightMyRequestResponse): number[] =>
  res.json().results.map((r: { id: number }) => r.id);

export const adminPhishingResultsRows: Row[] = [
  row<PhishingFixture>({
    route: `GET ${A}/phishing/campaigns/:campaignId/results`,
    as: 'admin',
    object: (w, side) => phishingCampaignOf(w, side),
    call: (side, fx) => ({ url: results(side, fx) }),
    success: {
      status: 200,
      check: (res, _side, fx) => expect(res.json().all.recipients).toBe(fx.recipients.length),
    },
    otherAccount: { ...missingCampaign, missing: (fx) => ({ ...fx, campaignId: NEVER }) },
    invalid: { call: (side, fx) => ({ url: `${results(side, fx)}?bucket=week` }) },
  }),
  row<PhishingFixture>({
    route: `GET ${A}/phishing/campaigns/:campaignId/results/recipients`,
    as: 'admin',
    object: (w, side) => phishingCampaignOf(w, side),
    call: (side, fx) => ({ url: `${results(side, fx)}/recipients?page_size=200` }),
    success: {
      status: 200,
      check: (res, _side, fx) =>
        expect(recipientIds(res).sort()).toEqual(fx.recipients.map((r) => r.id).sort()),
    },
    otherAccount: { ...missingCampaign, missing: (fx) => ({ ...fx, campaignId: NEVER }) },
    invalid: { call: (side, fx) => ({ url: `${results(side, fx)}/recipients?status=nope` }) },
  }),
  row<PhishingFixture>({
    route: `GET ${A}/phishing/campaigns/:campaignId/results/recipients.csv`,
    as: 'admin',
    object: (w, side) => phishingCampaignOf(w, side),
    call: (side, fx) => ({ url: `${results(side, fx)}/recipients.csv` }),
    success: {
      status: 200,
      check: (res, _side, fx) => expect(res.body.trim().split('\n')).toHaveLength(fx.recipients.length + 1),
    },
    otherAccount: { ...missingCampaign, missing: (fx) => ({ ...fx, campaignId: NEVER }) },
    invalid: noInput,
  }),
  row<PhishingFixture>({
    route: `GET ${A}/employees/:employeeId/phishing`,
    as: 'admin',
    object: (w, side) => phishingCampaignOf(w, side),
    call: (side, fx) => ({ url: `${acct(side)}/employees/${fx.recipients[3]?.employeeId}/phishing` }),
    success: {
      status: 200,
      check: (res, _side, fx) =>
        expect(res.json().results.map((r: { campaign: { id: number } }) => r.campaign.id)).toEqual([
          fx.campaignId,
        ]),
    },
    otherAccount: {
      kind: 'object',
      notFound: 'employee_not_found',
      missing: (fx) => ({
        ...fx,
        recipients: fx.recipients.map((r) => ({ ...r, employeeId: NEVER })),
      }),
    },
    invalid: {
      call: (side, fx) => ({
        url: `${acct(side)}/employees/${fx.recipients[3]?.employeeId}/phishing?page=0`,
      }),
    },
  }),
  row<number>({
    route: `GET ${A}/employees/:employeeId/training`,
    as: 'admin',
    // Someone enrolled in the side's launched training campaign.
    object: async (w, side) => {
      const res = await adminApi(
        w.app,
        side.admin,
        'GET',
        `/accounts/${side.accountId}/campaigns/${side.active.campaignId}/enrollments`,
        200,
      );
      return res.json().results[0].employee.id as number;
    },
    call: (side, employeeId) => ({ url: `${acct(side)}/employees/${employeeId}/training` }),
    success: {
      status: 200,
      // Other rows launch more campaigns on the same group: this one is among them.
      check: (res, side) =>
        expect(res.json().results.map((r: { campaign: { id: number } }) => r.campaign.id)).toContain(
          side.active.campaignId,
        ),
    },
    otherAccount: { kind: 'object', notFound: 'employee_not_found', missing: () => NEVER },
    invalid: {
      call: (side, employeeId) => ({ url: `${acct(side)}/employees/${employeeId}/training?page_size=x` }),
    },
  }),
];
