import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type Call, NEVER, na, type Row, row } from './matrix.js';
import { emlOf, knownReports, phishMessage, reporterOf, reportOf, unique } from './report-world.js';
import type { Side } from './world.js';

/**
 * The Customer API's reports (v2.3.0): a report button files a message for one of the key's
 * account's people, and a SIEM reads the triage inbox. The key is the account: another account's
 * employee reports nothing (reporter_not_found, as an address nobody has), another account's
 * report is unknown and never listed.
 */

const C = '/api/api_gateway/customer';
const ids = (res: LightMyRequestResponse): number[] => res.json().results.map((r: { id: number }) => r.id);

/** Who reports, and how the message comes: JSON (the add-in's) or the message itself (a gateway's). */
interface Reporting {
  address: string;
  as: 'json' | 'rfc822';
}

function reportCall(r: Reporting): Call {
  return r.as === 'json'
    ? { url: `${C}/reports/`, payload: { reporter: r.address, eml: emlOf(phishMessage()) } }
    : {
        url: `${C}/reports/?reporter=${encodeURIComponent(r.address)}`,
        contentType: 'message/rfc822',
        payload: phishMessage(),
      };
}

/** The side's reports as its key lists them: what filing one would change. */
const reportsRead = (_side: Side) => ({
  url: `${C}/reports/?page_size=1000`,
  view: (body: unknown) => {
    const page = body as { count: number; results: { id: number; reporter_count: number }[] };
    return { count: page.count, reports: page.results.map((r) => [r.id, r.reporter_count]) };
  },
});

export const customerReportRows: Row[] = [
  row<Reporting>({
    route: `POST ${C}/reports/`,
    as: 'key',
    object: async (w, side) => ({ address: await reporterOf(w, side), as: 'json' }),
    call: (_side, r) => reportCall(r),
    success: {
      status: 202,
      check: (res) =>
        expect(res.json()).toEqual({
          outcome: 'real',
          report_id: expect.any(Number),
          message: expect.any(String),
        }),
    },
    read: (side) => reportsRead(side),
    otherAccount: {
      kind: 'object',
      notFound: 'reporter_not_found',
      missing: (r) => ({ ...r, address: `nobody.${unique()}@example.com` }),
      // The same employee of theirs named in `?reporter=` beside the message itself.
      pairs: (_w, theirs) => [
        [
          { ...theirs, as: 'rfc822' },
          { address: `nobody.${unique()}@example.com`, as: 'rfc822' },
          'reporter_not_found',
        ],
      ],
    },
    invalid: { call: (_side, r) => ({ url: `${C}/reports/`, payload: { reporter: r.address, eml: '***' } }) },
  }),
  row<number>({
    route: `GET ${C}/reports/`,
    as: 'key',
    object: (w, side) => reportOf(w, side),
    call: () => ({ url: `${C}/reports/?page_size=1000` }),
    success: { status: 200, check: (res, _side, id) => expect(ids(res)).toContain(id) },
    otherAccount: { kind: 'list', ids, theirs: (w) => knownReports(w.b) },
    invalid: { call: () => ({ url: `${C}/reports/?since=yesterday` }) },
  }),
  row<number>({
    route: `GET ${C}/reports/:report_id/`,
    as: 'key',
    object: (w, side) => reportOf(w, side),
    call: (_side, id) => ({ url: `${C}/reports/${id}/` }),
    success: {
      status: 200,
      check: (res, _side, id) =>
        expect(res.json()).toMatchObject({ id, message: { subject: expect.stringMatching(/^Mailbox /) } }),
    },
    otherAccount: { kind: 'object', notFound: 'report_not_found', missing: () => NEVER },
    invalid: na('no input but the path id (text that is no id is a 404, like any unknown id)'),
  }),
];
