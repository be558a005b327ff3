import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';
import { type AppError, methodNotAllowed, notFound } from '../errors.js';

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
  const routingError = (request: FastifyRequest): AppError => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => shadow.find(method as never, path) !== null);
    return allowed.length > 0 ? methodNotAllowed(allowed) : notFound();
  };
  // Routing comes before everything the request carries: answer before its body is parsed
  // (Fastify would otherwise parse it for the not-found handler and answer 400/413 first).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.is404) done(routingError(request));
    else done(null, payload);
  });
  app.setNotFoundHandler(async (request) => {
    throw routingError(request);
  });
}
