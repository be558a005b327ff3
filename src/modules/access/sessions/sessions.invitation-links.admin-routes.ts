import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Body, responses, SignedIn, Timestamp } from '../../../core/http/admin-schemas.js';
import { presentLink } from '../invitations/invitations.presenter.js';
import { openInvitation } from '../invitations/invitations.service.js';
import { sendSignedIn } from './sessions.cookie.service.js';
import type { AdminOptions } from './sessions.options.model.js';
import { signIn } from './sessions.service.js';

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
      config: { adminPermission: 'public', adminPublic: true, secretParams: ['token'] },
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
      config: { adminPermission: 'public', adminPublic: true, secretParams: ['token'] },
    },
    async (request, reply) => {
      const signedIn = await signIn(app.db, {
        proof: { ...request.body, linkToken: request.params.token },
        previous: request.adminSession?.idHash ?? null,
        clientAddress: request.ip,
        userAgent: request.headers['user-agent'],
        throttle: options.throttle,
        lifetime: options.lifetime,
        mfaRequiredEverywhere: app.config.admin.mfaRequired,
      });
      return sendSignedIn(reply, signedIn, options.lifetime);
    },
  );
};
