import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import {
  AccountParams,
  AccountRoleSchema,
  Body,
  IdParams,
  NoContent,
  responses,
  Timestamp,
} from '../../../core/http/admin-schemas.js';
import { linkTo, publicBaseUrl } from '../../../core/http/links.js';
import { ListOf, MAX_ID } from '../../../core/http/schemas.js';
import { presentInvitation } from './invitations.presenter.js';
import { inviteAdmin, pendingInvitations, revokeInvitation } from './invitations.service.js';

const Invitation = Type.Object(
  {
    id: Type.Integer(),
    email: Type.Union([Type.String(), Type.Null()]),
    account_role: AccountRoleSchema,
    group_ids: Type.Array(Type.Integer(), {
      description: 'The groups the role is limited to; empty: every group.',
    }),
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
/** An account's pending invitations; owners (and operators) invite and revoke. */
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
      const results = (await pendingInvitations(app.db, accountOf(request).accountId)).map(
        ({ invitation, groups }) => presentInvitation(invitation, groups),
      );
      return { count: results.length, results };
    },
  );

  app.post(
    '/invitations',
    {
      schema: {
        tags: ['Administrators'],
        summary:
          'Owners: invites an administrator of this account with a role (default: administrator) and group scope (the link is valid 7 days)',
        params: AccountParams,
        body: Body({
          email: Type.String(),
          role: Type.Optional(AccountRoleSchema),
          group_ids: Type.Optional(
            Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 500 }),
          ),
        }),
        response: responses({ 201: CreatedInvitation }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request, reply) => {
      const { token, invitation, groups } = await inviteAdmin(app.db, {
        accountId: accountOf(request).accountId,
        email: request.body.email,
        invitedBy: accountOf(request).user.id,
        role: request.body.role,
        group_ids: request.body.group_ids,
      });
      // From PUBLIC_URL or the listening address: a forged Host must not redirect the link.
      const url = linkTo(publicBaseUrl(app), `/admin/invite/${token}`);
      return reply.code(201).send({ ...presentInvitation(invitation, groups), url });
    },
  );

  app.delete(
    '/invitations/:id',
    {
      schema: {
        tags: ['Administrators'],
        summary: 'Owners: revokes a pending invitation',
        params: IdParams,
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request, reply) => {
      await revokeInvitation(app.db, accountOf(request).accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
