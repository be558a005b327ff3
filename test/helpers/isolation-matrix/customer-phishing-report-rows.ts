import { expect } from 'vitest';
import { newSimulationToken } from '../../../src/modules/phishing/simulation/simulation.links.model.js';
import { seedPhishingCampaign } from '../phishing.js';
import { type Row, row } from './matrix.js';

/** The Customer API's phishing report: the token names the simulation; another account's is unknown. */

const C = '/api/api_gateway/customer';

export const customerPhishingReportRows: Row[] = [
  row<string>({
    route: `POST ${C}/campaigns/phishing/reports/`,
    as: 'key',
    object: async (w, side) =>
      (await seedPhishingCampaign(w.app, side.accountId, { people: 1 })).people[0]!.token,
    call: (_side, token) => ({ url: `${C}/campaigns/phishing/reports/`, payload: { token } }),
    success: {
      status: 202,
      check: (res) => expect(res.json().reported_at).toEqual(expect.any(String)),
    },
    otherAccount: { kind: 'object', notFound: 'simulation_not_found', missing: () => newSimulationToken() },
    invalid: { call: () => ({ url: `${C}/campaigns/phishing/reports/`, payload: { token: 'not a token' } }) },
  }),
];
