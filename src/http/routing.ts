import type { FastifyInstance, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';
import { methodNotAllowed, notFound } from '../errors.js';

const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/**
 * Unknown routes answer 404 `Not found`; a known path with another method answers 405
 * `Method not allowed` with an `Allow` header. Fastify itself only knows 404, so a shadow
 * router (the same engine Fastify uses) remembers which methods each path has.
 * Must be registered before the routes.
 */
export function registerRouteFallbacks(app: FastifyInstance): void {
  const shadow = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: false });
  const noop = () => {};
  app.addHook('onRoute', (route) => {
    for (const method of ([] as string[]).concat(route.method)) {
      if (!METHODS.includes(method as HTTPMethods) || shadow.hasRoute(method as never, route.url)) continue;
      shadow.on(method as never, route.url, noop);
    }
  });
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => shadow.find(method as never, path) !== null);
    if (allowed.length > 0) throw methodNotAllowed(allowed);
    throw notFound();
  });
}
