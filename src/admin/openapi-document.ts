import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from '../core/http/validation.js';
import type { AdminOptions } from '../modules/access/sessions/sessions.options.model.js';
import { adminApiRoutes } from './api-routes.js';
import { ADMIN_API_BASE, registerAdminOpenApi } from './openapi.js';

// Registration reads none of these (the routes use them per request, and none is made here).
const UNUSED_OPTIONS = {
  lifetime: { idleMs: 0, maxMs: 0 },
  throttle: undefined,
  cookieSecret: undefined,
  defaultRateLimit: 0,
} as unknown as AdminOptions;

/**
 * The admin API's OpenAPI document without a server or a database: the same route
 * registration as the app's, in a bare Fastify instance. `npm run build` writes the web
 * interface's types from it (web/api-types.mjs); a test checks it equals the served one.
 */
export async function buildAdminOpenApiDocument(): Promise<Record<string, unknown>> {
  // The app's router options: a route's URL (and so its path in the document) depends on them.
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  app.setValidatorCompiler(validatorCompiler);
  let scope: FastifyInstance | undefined;
  await app.register(
    async (api) => {
      await registerAdminOpenApi(api);
      await adminApiRoutes(api, UNUSED_OPTIONS);
      scope = api;
    },
    { prefix: ADMIN_API_BASE },
  );
  await app.ready();
  const document = scope!.adminSwagger();
  await app.close();
  return document;
}
