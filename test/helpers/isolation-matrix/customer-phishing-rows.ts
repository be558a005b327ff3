import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { PhishingFixture } from '../phishing-fixtures.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { known, phishingCampaignOf } from './phishing-world.js';

/** The Customer API's phishing rows: the key is the account, so another account's campaigns are unknown. */

const C = '/api/api_gateway/customer/campaigns/phishing';
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);
const noInput = na('no input but the path id (text that is no id is a 404, like any unknown id)');

export const customerPhishingRows: Row[] = [
  row<PhishingFixture>({
    route: `GET ${C}/`,
    as: 'key',
    object: (w, side) => phishingCampaignOf(w, side),
    call: () => ({ url: `${C}/?page_size=1000` }),
    success: { status: 200, check: (res, _side, fx) => expect(ids(res)).toContain(fx.campaignId) },
    otherAccount: {
      kind: 'list',
      ids,
      theirs: (w) => [known.get(w.b)?.campaignId ?? NEVER],
    },
    invalid: { call: () => ({ url: `${C}/?page=0` }) },
  }),
  row<PhishingFixture>({
    route: `GET ${C}/:campaign_id/`,
    as: 'key',
    object: (w, side) => phishingCampaignOf(w, side),
    call: (_side, fx) => ({ url: `${C}/${fx.campaignId}/` }),
    success: { status: 200, check: (res, _side, fx) => expect(res.json().id).toBe(fx.campaignId) },
    otherAccount: {
      kind: 'object',
      notFound: 'campaign_not_found',
      missing: (fx) => ({ ...fx, campaignId: NEVER }),
    },
    invalid: noInput,
  }),
  row<PhishingFixture>({
    route: `GET ${C}/:campaign_id/results/`,
    as: 'key',
    object: (w, side) => phishingCampaignOf(w, side),
    call: (_side, fx) => ({ url: `${C}/${fx.campaignId}/results/?page_size=1000` }),
    success: {
      status: 200,
      check: (res, _side, fx) =>
        expect(
          res
            .json()
            .results.map((r: { employee_id: number }) => r.employee_id)
            .sort(),
        ).toEqual(fx.recipients.map((r) => r.employeeId).sort()),
    },
    otherAccount: {
      kind: 'object',
      notFound: 'campaign_not_found',
      missing: (fx) => ({ ...fx, campaignId: NEVER }),
    },
    invalid: { call: (_side, fx) => ({ url: `${C}/${fx.campaignId}/results/?status=nope` }) },
  }),
];
