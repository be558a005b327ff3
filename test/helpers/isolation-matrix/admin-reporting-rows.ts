import { expect } from 'vitest';
import { na, type Row, row } from './matrix.js';
import type { Side } from './world.js';

/**
 * The account's reporting address (the Integration area): under `/accounts/:accountId`, so
 * another account's path answers as a nonexistent account's, and its address is never shown.
 */

const API = '/admin/api';
const address = (side: Side) => `${API}/accounts/${side.accountId}/reporting/address`;
const ADDRESS = /^report\+[a-z2-7]{10}@reports\.example\.com$/;

export const adminReportingRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/reporting/address`,
    as: 'admin',
    call: (side) => ({ url: address(side) }),
    success: { status: 200, check: (res) => expect(res.json().address).toMatch(ADDRESS) },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `POST ${API}/accounts/:accountId/reporting/address/regenerate`,
    as: 'admin',
    call: (side) => ({ url: `${address(side)}/regenerate` }),
    success: { status: 200, check: (res) => expect(res.json().address).toMatch(ADDRESS) },
    read: (side) => address(side),
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
];
