import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { na, type Row, row } from './matrix.js';
import { freshGroup, type World } from './world.js';

/**
 * The audit log, read through the Customer API (`audit:read`, v2.3.0) and the admin API (its page
 * and CSV export). Each lists its account's rows only: another account's groups, whose creation
 * its own log records, never appear in this one's.
 */

const C = '/api/api_gateway/customer';
const acct = (side: { accountId: number }) => `/admin/api/accounts/${side.accountId}`;
/** The groups a list's rows are about. */
const groupsOf = (res: LightMyRequestResponse): number[] =>
  res
    .json()
    .results.filter((r: { object: { type: string } }) => r.object.type === 'group')
    .map((r: { object: { id: string } }) => Number(r.object.id));
const groupsOfCsv = (res: LightMyRequestResponse): number[] =>
  res.body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter((cells) => cells[6] === 'group')
    .map((cells) => Number(cells[7]));
const theirGroups = (w: World) => w.b.groups;
const GROUP_ROWS = 'action=group.created';

export const auditRows: Row[] = [
  row<number>({
    route: `GET ${C}/audit-log/`,
    as: 'key',
    object: (w, side) => freshGroup(w.app, side),
    call: () => ({ url: `${C}/audit-log/?${GROUP_ROWS}&page_size=1000` }),
    success: { status: 200, check: (res, _side, id) => expect(groupsOf(res)).toContain(id) },
    otherAccount: { kind: 'list', ids: groupsOf, theirs: theirGroups },
    invalid: { call: () => ({ url: `${C}/audit-log/?since=yesterday` }) },
  }),
  row<number>({
    route: 'GET /admin/api/accounts/:accountId/audit-log',
    as: 'admin',
    object: (w, side) => freshGroup(w.app, side),
    call: (side) => ({ url: `${acct(side)}/audit-log?${GROUP_ROWS}&page_size=200` }),
    success: { status: 200, check: (res, _side, id) => expect(groupsOf(res)).toContain(id) },
    otherAccount: { kind: 'list', ids: groupsOf, theirs: theirGroups },
    invalid: { call: (side) => ({ url: `${acct(side)}/audit-log?action=DROP%20TABLE` }) },
  }),
  row<number>({
    route: 'GET /admin/api/accounts/:accountId/audit-log.csv',
    as: 'admin',
    object: (w, side) => freshGroup(w.app, side),
    call: (side) => ({ url: `${acct(side)}/audit-log.csv?${GROUP_ROWS}` }),
    success: {
      status: 200,
      check: (res, _side, id) => {
        expect(res.headers['content-type']).toContain('text/csv');
        expect(groupsOfCsv(res)).toContain(id);
      },
    },
    otherAccount: { kind: 'list', ids: groupsOfCsv, theirs: theirGroups },
    invalid: { call: (side) => ({ url: `${acct(side)}/audit-log.csv?until=tomorrow` }) },
  }),
  row({
    route: `GET /admin/api/accounts/:accountId/audit-log/settings`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/audit-log/settings` }),
    success: {
      status: 200,
      check: (res) => expect(res.json()).toMatchObject({ minimum_days: 180, maximum_days: 3650 }),
    },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `PUT /admin/api/accounts/:accountId/audit-log/settings`,
    as: 'admin',
    // Another value each time, so that every call is a change the log records.
    call: (side) => ({
      url: `${acct(side)}/audit-log/settings`,
      payload: { audit_retention_days: 200 + Math.floor(Math.random() * 1000) },
    }),
    success: { status: 200 },
    read: (side) => `${acct(side)}/audit-log/settings`,
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({ url: `${acct(side)}/audit-log/settings`, payload: { audit_retention_days: 30 } }),
    },
  }),
];
