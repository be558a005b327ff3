import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import {
  AccountParams,
  Body,
  IdParams,
  NoContent,
  responses,
  Timestamp,
} from '../../../core/http/admin-schemas.js';
import { linkTo, publicBaseUrl } from '../../../core/http/links.js';
import { ListOf } from '../../../core/http/schemas.js';
import { presentInvitation } from './invitations.presenter.js';
import { inviteAdmin, pendingInvitations, revokeInvitation } from './invitations.service.js';

const Invitation = Type.Object(
  {
    id: Type.Integer(),
    email: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    expires_at: Timestamp,
  },
  { title: 'Invitation' },
);
const CreatedInvitation = Type.Composite(
  [
    Invitation,
    Type.Object({ url: Type.String({ description: 'The link with its token: shown only this once.' }) }),
  ],
  { title: 'CreatedInvitation' },
);
/** An account's pending invitations; operators invite and revoke. */
export const invitationsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/invitations',
    {
      config: { adminPermission: 'admins:read' },
      schema: {
        tags: ['Administrators'],
        summary: "The account's pending invitations",
        params: AccountParams,
        response: responses({ 200: ListOf(Invitation) }),
      },
    },
    async (request) => {
      const results = (await pendingInvitations(app.db, accountOf(request).accountId)).map(presentInvitation);
      return { count: results.length, results };
    },
  );

  app.post(
    '/invitations',
    {
      schema: {
        tags: ['Administrators'],
        summary: 'Operators: invites an administrator of this account (the link is valid 7 days)',
        params: AccountParams,
        body: Body({ email: Type.String() }),
        response: responses({ 201: CreatedInvitation }),
      },
      config: { adminPermission: 'roles:write', operatorOnly: true },
    },
    async (request, reply) => {
      const { token, invitation } = await inviteAdmin(app.db, {
        accountId: accountOf(request).accountId,
        email: request.body.email,
        invitedBy: accountOf(request).user.id,
      });
      // From PUBLIC_URL or the listening address: a forged Host must not redirect the link.
      const url = linkTo(publicBaseUrl(app), `/admin/invite/${token}`);
      return reply.code(201).send({ ...presentInvitation(invitation), url });
    },
  );

  app.delete(
    '/invitations/:id',
    {
      schema: {
        tags: ['Administrators'],
        summary: 'Operators: revokes a pending invitation',
        params: IdParams,
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'roles:write', operatorOnly: true },
    },
    async (request, reply) => {
      await revokeInvitation(app.db, accountOf(request).accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
