import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf, sessionOf } from '../../../core/http/admin-request.js';
import { IdParams, NoContent, PathId, responses, Timestamp } from '../../../core/http/admin-schemas.js';
import { ListOf } from '../../../core/http/schemas.js';
import { iso } from '../../../core/time.js';
import { getAccountAdmin } from '../admins/admins.service.js';
import { type DeviceSession, endSessionsOfAdmin, sessionsOfAdmin } from './sessions.devices.service.js';

const tags = ['Sessions'];

const SessionId = Type.String({ pattern: '^[0-9a-f]{24}$', description: 'The session’s public id.' });

const DeviceSessionItem = Type.Object(
  {
    id: SessionId,
    device: Type.String({
      description: 'The browser and system, from its User-Agent: "Chrome 156 on Linux".',
    }),
    address: Type.Union([Type.String(), Type.Null()], { description: 'The address it signed in from.' }),
    method: Type.Union([Type.String(), Type.Null()], {
      description: 'How it signed in: password, link, oidc, saml (null: before sessions recorded it).',
    }),
    created_at: Timestamp,
    last_seen_at: Timestamp,
    expires_at: Timestamp,
    current: Type.Boolean({ description: 'The session this request comes from.' }),
  },
  { title: 'DeviceSession' },
);

const present = (s: DeviceSession) => ({
  ...s,
  created_at: iso(s.created_at),
  last_seen_at: iso(s.last_seen_at),
  expires_at: iso(s.expires_at),
});

/** The signed-in administrator's own sessions: each lists and ends theirs (any account, operators too). */
export const ownSessionsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/session/sessions',
    {
      schema: {
        tags,
        summary: 'Your signed-in sessions: device, address, how, first and last use; the current one marked',
        response: responses({ 200: ListOf(DeviceSessionItem) }),
      },
      config: { adminPermission: 'signed-in' },
    },
    async (request) => {
      const { admin, idHash } = sessionOf(request);
      const results = (await sessionsOfAdmin(app.db, admin.account_id, admin.id, idHash)).map(present);
      return { count: results.length, results };
    },
  );

  app.delete(
    '/session/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'Ends one of your sessions (the current one too: that signs you out). 404 session_not_found',
        params: Type.Object({ sessionId: SessionId }),
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'signed-in' },
    },
    async (request, reply) => {
      const { admin } = sessionOf(request);
      await endSessionsOfAdmin(app.db, {
        accountId: admin.account_id,
        admin,
        sessionId: request.params.sessionId,
        own: true,
      });
      return reply.code(204).send();
    },
  );
};

/** An account's administrators' sessions, as an owner sees and ends them. */
export const adminSessionsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/admins/:id/sessions',
    {
      schema: {
        tags,
        summary: "An administrator's signed-in sessions",
        params: IdParams,
        response: responses({ 200: ListOf(DeviceSessionItem) }),
      },
      config: { adminPermission: 'admins:read' },
    },
    async (request) => {
      const { accountId } = accountOf(request);
      const admin = await getAccountAdmin(app.db, accountId, request.params.id);
      const current = sessionOf(request).idHash;
      const results = (await sessionsOfAdmin(app.db, accountId, admin.id, current)).map(present);
      return { count: results.length, results };
    },
  );

  app.delete(
    '/admins/:id/sessions',
    {
      schema: {
        tags,
        summary: 'Ends every session of an administrator (they sign in again); the count ended',
        params: IdParams,
        response: responses({ 200: Type.Object({ ended: Type.Integer() }, { title: 'SessionsEnded' }) }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request) => {
      const { accountId } = accountOf(request);
      const admin = await getAccountAdmin(app.db, accountId, request.params.id);
      return { ended: await endSessionsOfAdmin(app.db, { accountId, admin, own: false }) };
    },
  );

  app.delete(
    '/admins/:id/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'Ends one session of an administrator. 404 session_not_found',
        params: Type.Object({ accountId: PathId, id: PathId, sessionId: SessionId }),
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request, reply) => {
      const { accountId } = accountOf(request);
      const admin = await getAccountAdmin(app.db, accountId, request.params.id);
      await endSessionsOfAdmin(app.db, { accountId, admin, sessionId: request.params.sessionId, own: false });
      return reply.code(204).send();
    },
  );
};
