import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf } from '../../admin/list.js';
import type { AdminOptions } from '../../admin/plugin.js';
import { IdParams, SignedIn, Timestamp } from '../../admin/schemas.js';
import { csrfTokenFor, setSessionCookie } from '../../admin/session-cookie.js';
import { linkTo, publicBaseUrl } from '../../http/links.js';
import { presentUser } from '../admins/admins.presenter.js';
import { endSession, startSession } from '../sessions/sessions.service.js';
import { presentInvitation, presentLink } from './invitations.presenter.js';
import {
  acceptInvitation,
  inviteAdmin,
  openInvitation,
  pendingInvitations,
  revokeInvitation,
} from './invitations.service.js';

const Invitation = Type.Object({
  id: Type.Integer(),
  email: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  expires_at: Timestamp,
});
const TokenParams = Type.Object({ token: Type.String() });

/** The pages behind setup and invitation links: no session needed, the token is the credential. */
export const invitationLinkRoutes: FastifyPluginAsyncTypebox<AdminOptions> = async (app, options) => {
  app.get(
    '/invitations/:token',
    { schema: { hide: true, params: TokenParams }, config: { adminPublic: true, secretParams: ['token'] } },
    async (request) => {
      const { invitation, account } = await openInvitation(app.db, request.params.token);
      return presentLink(invitation, account);
    },
  );

  app.post(
    '/invitations/:token/accept',
    {
      schema: {
        hide: true,
        params: TokenParams,
        body: Type.Object({
          email: Type.Optional(Type.String()),
          password: Type.String(),
          name: Type.Optional(Type.String()),
        }),
        response: { 200: SignedIn },
      },
      config: { adminPublic: true, secretParams: ['token'] },
    },
    async (request, reply) => {
      const admin = await acceptInvitation(app.db, request.params.token, request.body);
      if (request.adminSession) await endSession(app.db, request.adminSession.idHash);
      const session = await startSession(app.db, admin.id, options.lifetime);
      setSessionCookie(reply, session.token, options.lifetime.maxMs);
      return { user: presentUser(admin), csrf_token: csrfTokenFor(reply, session.idHash) };
    },
  );
};

/** An account's pending invitations; operators invite and revoke. */
export const invitationsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/invitations',
    { schema: { hide: true, response: { 200: ListOf(Invitation) } } },
    async (request) => {
      const results = (await pendingInvitations(app.db, request.admin.accountId)).map(presentInvitation);
      return { count: results.length, results };
    },
  );

  app.post(
    '/invitations',
    {
      schema: {
        hide: true,
        body: Type.Object({ email: Type.String() }),
        response: { 201: Type.Composite([Invitation, Type.Object({ url: Type.String() })]) },
      },
      config: { operatorOnly: true },
    },
    async (request, reply) => {
      const { token, invitation } = await inviteAdmin(app.db, {
        accountId: request.admin.accountId,
        email: request.body.email,
        invitedBy: request.admin.user.id,
      });
      // From PUBLIC_URL or the listening address: a forged Host must not redirect the link.
      const url = linkTo(publicBaseUrl(app), `/admin/invite/${token}`);
      return reply.code(201).send({ ...presentInvitation(invitation), url });
    },
  );

  app.delete(
    '/invitations/:id',
    { schema: { hide: true, params: IdParams }, config: { operatorOnly: true } },
    async (request, reply) => {
      await revokeInvitation(app.db, request.admin.accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
