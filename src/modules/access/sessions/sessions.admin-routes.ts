import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sessionOf } from '../../../core/http/admin-request.js';
import {
  Body,
  GroupScope,
  MfaPending,
  NoContent,
  responses,
  SignedIn,
  User,
} from '../../../core/http/admin-schemas.js';
import { presentUser } from '../admins/admins.presenter.js';
import { hasOperator } from '../admins/admins.service.js';
import { secondStepMethodsOf } from '../mfa/mfa.service.js';
import { groupScopesOfAccount } from '../roles/roles.repository.js';
import { clearSessionCookie, csrfTokenFor, sendSignedIn } from './sessions.cookie.service.js';
import type { AdminOptions } from './sessions.options.model.js';
import { changeOwnPassword, endSession, signIn } from './sessions.service.js';

/** Sign-in, the current session (and its CSRF token), sign-out. */
export const sessionsAdminRoutes: FastifyPluginAsyncTypebox<AdminOptions> = async (app, options) => {
  app.get(
    '/session',
    {
      schema: {
        tags: ['Session'],
        summary:
          'The signed-in user (or null), the CSRF token to send on writes, and whether Vigil still needs its first operator',
        response: responses({
          200: Type.Object(
            {
              user: Type.Union([
                Type.Composite([User, Type.Object({ groups: GroupScope })], { title: 'SessionUser' }),
                Type.Null(),
              ]),
              csrf_token: Type.String(),
              setup_required: Type.Boolean(),
              mfa_pending: MfaPending,
              mfa_methods: Type.Array(
                Type.Union([Type.Literal('totp'), Type.Literal('passkey'), Type.Literal('recovery_code')]),
                { description: 'The second steps the user can take, while `mfa_pending` is `verify`' },
              ),
            },
            { title: 'Session' },
          ),
        }),
      },
      config: { adminPermission: 'public', adminPublic: true },
    },
    async (request, reply) => {
      const session = request.adminSession;
      const admin = session?.admin;
      const groups =
        admin?.account_id != null
          ? ((await groupScopesOfAccount(app.db, admin.account_id, admin.id)).get(admin.id) ?? null)
          : null;
      return {
        user: admin ? { ...presentUser(admin), groups } : null,
        csrf_token: csrfTokenFor(reply, session?.idHash ?? null),
        setup_required: !(await hasOperator(app.db)),
        mfa_pending: session?.mfaPending ?? null,
        mfa_methods:
          session?.mfaPending === 'verify' ? await secondStepMethodsOf(app.db, session.admin.id) : [],
      };
    },
  );

  app.post(
    '/session',
    {
      schema: {
        tags: ['Session'],
        summary:
          'Signs in: a new session cookie and CSRF token. 401 for a wrong email or password; 429 (Retry-After) when throttled. With a second factor (or where MFA is required) the session waits for it (`mfa_pending`)',
        body: Body({ email: Type.String(), password: Type.String() }),
        response: responses({ 200: SignedIn }),
      },
      config: { adminPermission: 'public', adminPublic: true },
    },
    async (request, reply) => {
      const signedIn = await signIn(app.db, {
        proof: { email: request.body.email, password: request.body.password },
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

  app.post(
    '/session/password',
    {
      config: { adminPermission: 'signed-in' },
      schema: {
        tags: ['Session'],
        summary:
          "Changes the signed-in user's password; their other sessions end, this one stays. Throttled like sign-in",
        body: Body({ current_password: Type.String(), new_password: Type.String() }),
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await changeOwnPassword(app.db, {
        session: sessionOf(request),
        input: request.body,
        clientAddress: request.ip,
        throttle: options.throttle,
      });
      return reply.code(204).send();
    },
  );

  app.delete(
    '/session',
    {
      config: { adminPermission: 'signed-in', mfaPending: ['verify', 'enrol'] },
      schema: {
        tags: ['Session'],
        summary: 'Signs out: the session ends and its cookie is cleared',
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      if (request.adminSession) await endSession(app.db, request.adminSession);
      clearSessionCookie(reply);
      return reply.code(204).send();
    },
  );
};
