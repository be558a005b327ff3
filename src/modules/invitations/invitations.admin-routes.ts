import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AdminOptions } from '../../admin/options.js';
import { accountOf } from '../../admin/request.js';
import {
  AccountParams,
  Body,
  IdParams,
  NoContent,
  responses,
  SignedIn,
  Timestamp,
} from '../../admin/schemas.js';
import { sendSignedIn } from '../../admin/session-cookie.js';
import { linkTo, publicBaseUrl } from '../../http/links.js';
import { ListOf } from '../../http/schemas.js';
import { signIn } from '../sessions/sessions.service.js';
import { presentInvitation, presentLink } from './invitations.presenter.js';
import { inviteAdmin, openInvitation, pendingInvitations, revokeInvitation } from './invitations.service.js';

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
const InvitationLink = Type.Object(
  {
    kind: Type.Union([Type.Literal('setup'), Type.Literal('invite')]),
    email: Type.Union([Type.String(), Type.Null()]),
    role: Type.Union([Type.Literal('operator'), Type.Literal('account_admin')]),
    account: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
    expires_at: Timestamp,
  },
  { title: 'InvitationLink' },
);
const TokenParams = Type.Object({ token: Type.String() });

/** The pages behind setup and invitation links: no session needed, the token is the credential. */
export const invitationLinkRoutes: FastifyPluginAsyncTypebox<AdminOptions> = async (app, options) => {
  app.get(
    '/invitations/:token',
    {
      schema: {
        tags: ['Session'],
        summary:
          'What a setup or invitation link is for, before its password is chosen; 404 when it is not valid or has expired',
        params: TokenParams,
        response: responses({ 200: InvitationLink }),
      },
      config: { adminPublic: true, secretParams: ['token'] },
    },
    async (request) => {
      const { invitation, account } = await openInvitation(app.db, request.params.token);
      return presentLink(invitation, account);
    },
  );

  app.post(
    '/invitations/:token/accept',
    {
      schema: {
        tags: ['Session'],
        summary:
          'Accepts a link with a password and signs in. `email` is required for a setup link (an invitation has its own)',
        params: TokenParams,
        body: Body({
          email: Type.Optional(Type.String()),
          password: Type.String(),
          name: Type.Optional(Type.String()),
        }),
        response: responses({ 200: SignedIn }),
      },
      config: { adminPublic: true, secretParams: ['token'] },
    },
    async (request, reply) => {
      const signedIn = await signIn(app.db, {
        proof: { ...request.body, linkToken: request.params.token },
        previous: request.adminSession?.idHash ?? null,
        clientAddress: request.ip,
        throttle: options.throttle,
        lifetime: options.lifetime,
      });
      return sendSignedIn(reply, signedIn, options.lifetime);
    },
  );
};

/** An account's pending invitations; operators invite and revoke. */
export const invitationsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/invitations',
    {
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
      config: { operatorOnly: true },
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
      config: { operatorOnly: true },
    },
    async (request, reply) => {
      await revokeInvitation(app.db, accountOf(request).accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
