import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AdminClient } from '../admin.js';
import { acct } from './admin-access-rows.js';
import { NEVER, na, type Row, row } from './matrix.js';
import { freshAdmin, type Side } from './world.js';

/**
 * The admin API's rows about sessions (issue 23, item 5): each administrator's own sessions,
 * and an account's administrators' sessions and status as an owner sees and changes them.
 */

const API = '/admin/api';
const noAccountData = na('names no account: it acts on the signed-in administrator’s own sessions');
const BAD_SESSION_ID = 'not-a-session-id';
const MISSING_SESSION = '0'.repeat(24);

/** An administrator of the side, signed in, and the public id of their session. */
async function adminWithSession(
  app: FastifyInstance,
  side: Side,
): Promise<{ admin: AdminClient; sessionId: string }> {
  const admin = await freshAdmin(app, side);
  const res = await app.inject({ method: 'GET', url: `${API}/session/sessions`, headers: admin.headers });
  return { admin, sessionId: res.json().results[0].id };
}

const sessionsView = (body: unknown) => (body as { count: number }).count;
const statusView = (body: unknown) =>
  (body as { results: { id: number; disabled_at: string | null }[] }).results.map(({ id, disabled_at }) => ({
    id,
    disabled: disabled_at !== null,
  }));

export const adminSessionRows: Row[] = [
  row({
    route: `GET ${API}/session/sessions`,
    as: 'admin',
    call: (side) => ({ url: `${API}/session/sessions`, headers: side.admin.headers }),
    success: { status: 200, check: (res) => expect(res.json().results[0]).toMatchObject({ current: true }) },
    otherAccount: noAccountData,
    invalid: na('takes no input'),
  }),
  row<{ admin: AdminClient; sessionId: string }>({
    route: `DELETE ${API}/session/sessions/:sessionId`,
    as: 'admin',
    object: (w, side) => adminWithSession(w.app, side),
    call: (_side, o) => ({ url: `${API}/session/sessions/${o.sessionId}`, headers: o.admin.headers }),
    success: { status: 204 },
    otherAccount: noAccountData,
    invalid: {
      call: (_side, o) => ({ url: `${API}/session/sessions/${BAD_SESSION_ID}`, headers: o.admin.headers }),
    },
  }),
  row<number>({
    route: `GET ${API}/accounts/:accountId/admins/:id/sessions`,
    as: 'admin',
    object: async (w, side) => (await freshAdmin(w.app, side)).user.id,
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}/sessions` }),
    success: { status: 200, check: (res) => expect(res.json().count).toBe(1) },
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: na('no input but the path (text that is no id is a 404, like any unknown id)'),
  }),
  row<number>({
    route: `DELETE ${API}/accounts/:accountId/admins/:id/sessions`,
    as: 'admin',
    object: async (w, side) => (await freshAdmin(w.app, side)).user.id,
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}/sessions` }),
    success: { status: 200, check: (res) => expect(res.json()).toEqual({ ended: 1 }) },
    read: (side) => ({ url: `${acct(side)}/admins`, view: (body) => (body as { count: number }).count }),
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: na('no input but the path (text that is no id is a 404, like any unknown id)'),
  }),
  row<{ admin: AdminClient; sessionId: string }>({
    route: `DELETE ${API}/accounts/:accountId/admins/:id/sessions/:sessionId`,
    as: 'admin',
    object: (w, side) => adminWithSession(w.app, side),
    call: (side, o) => ({ url: `${acct(side)}/admins/${o.admin.user.id}/sessions/${o.sessionId}` }),
    success: { status: 204 },
    read: (_side) => ({ url: `${API}/session/sessions`, view: sessionsView }),
    otherAccount: {
      kind: 'object',
      notFound: 'admin_not_found',
      missing: (o) => ({
        admin: { ...o.admin, user: { ...o.admin.user, id: NEVER } },
        sessionId: MISSING_SESSION,
      }),
    },
    invalid: {
      call: (side, o) => ({ url: `${acct(side)}/admins/${o.admin.user.id}/sessions/${BAD_SESSION_ID}` }),
    },
  }),
  row<number>({
    route: `POST ${API}/accounts/:accountId/admins/:id/disable`,
    as: 'admin',
    object: async (w, side) => (await freshAdmin(w.app, side)).user.id,
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}/disable` }),
    success: { status: 200, check: (res) => expect(res.json().disabled_at).not.toBeNull() },
    read: (side) => ({ url: `${acct(side)}/admins`, view: statusView }),
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: na('no input but the path (text that is no id is a 404, like any unknown id)'),
  }),
  row<number>({
    route: `POST ${API}/accounts/:accountId/admins/:id/enable`,
    as: 'admin',
    // A disabled administrator of the side: enabling them is the change.
    object: async (w, side) => {
      const { id } = (await freshAdmin(w.app, side)).user;
      const res = await w.app.inject({
        method: 'POST',
        url: `${acct(side)}/admins/${id}/disable`,
        headers: side.admin.headers,
      });
      expect(res.statusCode).toBe(200);
      return id;
    },
    call: (side, id) => ({ url: `${acct(side)}/admins/${id}/enable` }),
    success: { status: 200, check: (res) => expect(res.json().disabled_at).toBeNull() },
    read: (side) => ({ url: `${acct(side)}/admins`, view: statusView }),
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => NEVER },
    invalid: na('no input but the path (text that is no id is a 404, like any unknown id)'),
  }),
];
