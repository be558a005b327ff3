import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getOrCreateSecret } from '../core/auth/secrets.repository.js';
import { mfaRequired, operatorRequired, signInRequired } from '../core/errors.js';
import type { AccountContext } from '../core/http/admin-request.js';
import { acceptBodies, FORM_BODY_LIMIT, jsonBody } from '../core/http/bodies.js';
import {
  ADMIN_PATH,
  CSRF_COOKIE,
  NO_SESSION,
  SESSION_COOKIE,
} from '../modules/access/sessions/sessions.cookie.service.js';
import type { AdminOptions } from '../modules/access/sessions/sessions.options.model.js';
import { resumeSession } from '../modules/access/sessions/sessions.service.js';
import { adminApiRoutes } from './api-routes.js';
import { registerAdminOpenApi } from './openapi.js';
import { spaRoutes } from './spa.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The administrator web interface: the single-page app at /admin/ and its JSON API at
 * /admin/api/. The API accepts only a session cookie (never `apiKey`); every state-changing
 * request must carry the session's CSRF token; account routes check the account is the user's.
 */
export async function adminPlugin(app: FastifyInstance, registered: AdminOptions): Promise<void> {
  // Handed on to route files: without Fastify's own `prefix`, which would apply to them again.
  const { lifetime, throttle, cookieSecret, defaultRateLimit } = registered;
  const options: AdminOptions = { lifetime, throttle, cookieSecret, defaultRateLimit };
  const secret = options.cookieSecret ?? (await getOrCreateSecret(app.db, 'cookie'));
  await app.register(fastifyCookie, { secret, hook: 'onRequest' });
  await app.register(fastifyCsrf, {
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: ADMIN_PATH, httpOnly: true, sameSite: 'strict', secure: 'auto', signed: true },
    getToken: (request: FastifyRequest) => request.headers['x-csrf-token'] as string | undefined,
    // Tokens are bound to the session: a token from before sign-in is useless after it.
    getUserInfo: (request: FastifyRequest) => request.adminSession?.idHash ?? NO_SESSION,
    csrfOpts: { hmacKey: secret },
  });

  await app.register(
    async (api) => {
      // JSON; the routes open to anyone (sign-in, invitation links) take what their forms send.
      acceptBodies(api, (route) =>
        jsonBody(route.config?.adminPublic ? FORM_BODY_LIMIT : app.config.bodyLimit),
      );
      // The document of this API, made from the schemas of the routes registered below.
      await registerAdminOpenApi(api);
      api.decorateRequest('adminSession', null);
      // Set by the account routes' own hook (api-routes.ts): no other route has an account.
      api.decorateRequest('admin', null as unknown as AccountContext);
      api.addHook('onRequest', async (request) => {
        if (request.is404) return;
        request.adminSession = await resumeSession(app.db, request.cookies[SESSION_COOKIE], options.lifetime);
        const config = request.routeOptions.config;
        if (!request.adminSession && !config?.adminPublic) throw signInRequired();
        // A session still waiting for its second step (or a first factor) can do nothing else.
        const pending = request.adminSession?.mfaPending;
        if (pending && !config?.adminPublic && !config?.mfaPending?.includes(pending))
          throw mfaRequired(pending);
        const admin = request.adminSession?.admin;
        if (admin) {
          request.auditActor = {
            kind: admin.role === 'operator' ? 'operator' : 'admin',
            id: admin.id,
            label: admin.email,
          };
        }
      });
      // The plugin answers a missing or wrong token itself (403, rendered by the error handler).
      api.addHook('onRequest', (request, reply, done) => {
        if (request.is404 || SAFE_METHODS.has(request.method)) return done();
        api.csrfProtection(request, reply, done);
      });
      api.addHook('onRequest', async (request) => {
        if (request.routeOptions.config?.operatorOnly && request.adminSession?.admin.role !== 'operator') {
          throw operatorRequired();
        }
      });

      await adminApiRoutes(api, options);
    },
    { prefix: '/api' },
  );
  await app.register(spaRoutes);
}
