import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AdminOptions } from '../../admin/plugin.js';
import { SignedIn, User } from '../../admin/schemas.js';
import { clearSessionCookie, csrfTokenFor, setSessionCookie } from '../../admin/session-cookie.js';
import { presentUser } from '../admins/admins.presenter.js';
import { changePassword, checkCredentials, hasOperator } from '../admins/admins.service.js';
import { endOtherSessions, endSession, pruneSessions, startSession } from './sessions.service.js';

/** Sign-in, the current session (and its CSRF token), sign-out. */
export const sessionsAdminRoutes: FastifyPluginAsyncTypebox<AdminOptions> = async (app, options) => {
  app.get(
    '/session',
    {
      schema: {
        hide: true,
        response: {
          200: Type.Object({
            user: Type.Union([User, Type.Null()]),
            csrf_token: Type.String(),
            setup_required: Type.Boolean(),
          }),
        },
      },
      config: { adminPublic: true },
    },
    async (request, reply) => {
      const session = request.adminSession;
      return {
        user: session ? presentUser(session.admin) : null,
        csrf_token: csrfTokenFor(reply, session?.idHash ?? null),
        setup_required: !(await hasOperator(app.db)),
      };
    },
  );

  app.post(
    '/session',
    {
      schema: {
        hide: true,
        body: Type.Object({ email: Type.String(), password: Type.String() }),
        response: { 200: SignedIn },
      },
      config: { adminPublic: true },
    },
    async (request, reply) => {
      await options.throttle.attempt(request.ip, request.body.email);
      const admin = await checkCredentials(app.db, request.body.email, request.body.password);
      // A new session id at every sign-in; whatever session the browser had ends.
      if (request.adminSession) await endSession(app.db, request.adminSession.idHash);
      const session = await startSession(app.db, admin.id, options.lifetime);
      // Sign-ins are rare: a good moment to forget sessions that ended without a sign-out.
      await pruneSessions(app.db, options.lifetime);
      setSessionCookie(reply, session.token, options.lifetime.maxMs);
      return { user: presentUser(admin), csrf_token: csrfTokenFor(reply, session.idHash) };
    },
  );

  app.post(
    '/session/password',
    {
      schema: {
        hide: true,
        body: Type.Object({ current_password: Type.String(), new_password: Type.String() }),
      },
    },
    async (request, reply) => {
      const session = request.adminSession!;
      // Guessing the current password here is throttled like signing in.
      await options.throttle.attempt(request.ip, session.admin.email);
      await changePassword(app.db, session.admin.id, request.body);
      await endOtherSessions(app.db, session);
      return reply.code(204).send();
    },
  );

  app.delete('/session', { schema: { hide: true } }, async (request, reply) => {
    if (request.adminSession) await endSession(app.db, request.adminSession.idHash);
    clearSessionCookie(reply);
    return reply.code(204).send();
  });
};
