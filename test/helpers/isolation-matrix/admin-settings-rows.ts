import { expect } from 'vitest';
import { pngLogo } from '../logos.js';
import { na, type Row, row } from './matrix.js';
import type { Side, World } from './world.js';

/**
 * The account settings employees see (display name, logo): under `/accounts/:accountId`, so
 * another account's path answers as a nonexistent account's.
 */

const API = '/admin/api';
const settings = (side: Side) => `${API}/accounts/${side.accountId}/settings`;
const LOGO = pngLogo(16, 8);
const png = (side: Side) => ({ ...side.admin.headers, 'content-type': 'image/png' });

/** The side's account with a logo (for the routes that read or remove one). */
async function withLogo(w: World, side: Side) {
  const res = await w.app.inject({
    method: 'PUT',
    url: `${settings(side)}/logo`,
    headers: png(side),
    payload: LOGO,
  });
  expect(res.statusCode, res.body).toBe(200);
  return side;
}

export const adminSettingsRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/settings`,
    as: 'admin',
    call: (side) => ({ url: settings(side) }),
    success: { status: 200, check: (res) => expect(res.json().shown_name).toEqual(expect.any(String)) },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `PATCH ${API}/accounts/:accountId/settings`,
    as: 'admin',
    call: (side) => ({ url: settings(side), payload: { display_name: 'Shown name' } }),
    success: { status: 200, check: (res) => expect(res.json().shown_name).toBe('Shown name') },
    read: (side) => settings(side),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: settings(side), payload: { display_name: 'x'.repeat(151) } }) },
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/settings/logo`,
    as: 'admin',
    // The body's type beside the caller's own credentials, never the side's (A's administrator
    // on B's path must be A's).
    call: (side) => ({ url: `${settings(side)}/logo`, contentType: 'image/png', payload: LOGO }),
    success: { status: 200, check: (res) => expect(res.json().logo.content_type).toBe('image/png') },
    read: (side) => settings(side),
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({
        url: `${settings(side)}/logo`,
        contentType: 'image/png',
        payload: Buffer.from('<svg/>'),
      }),
    },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/settings/logo`,
    as: 'admin',
    object: (w, side) => withLogo(w, side),
    call: (side) => ({ url: `${settings(side)}/logo` }),
    success: { status: 200, check: (res) => expect(res.rawPayload.equals(LOGO)).toBe(true) },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/settings/logo`,
    as: 'admin',
    object: (w, side) => withLogo(w, side),
    call: (side) => ({ url: `${settings(side)}/logo` }),
    success: { status: 204 },
    read: (side) => settings(side),
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
];
