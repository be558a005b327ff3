import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { payloadTooLarge, unsupportedMediaType } from '../errors.js';
import { type JsonShapeRules, jsonBodyParser } from './json-body.js';

/**
 * What a route's body may be: every route whose method can carry a body declares the media
 * types it accepts and the largest body of each (`config.body`, or its surface's default set
 * with `acceptBodies`); the app refuses to start with a route that declares none. A body of
 * another type is refused (415) and one over its type's limit (413) before a byte of it is
 * parsed, after routing and authentication (the contract's order). Public routes take only
 * what their forms send; the Customer API takes JSON up to BODY_LIMIT. JSON is parsed by one
 * parser with a depth limit (json-body.ts).
 */
export interface BodyPolicy extends JsonShapeRules {
  /** Each accepted media type (lower case, no parameters) with its largest body in bytes; `{}`: no body. */
  readonly accepts: Readonly<Record<string, number>>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body this route accepts; routes of a surface take its default (acceptBodies). */
    body?: BodyPolicy;
  }
}

export const KIB = 1024;
export const MIB = 1024 * KIB;
/** What an HTML form of ours sends (names and a few values): public pages take no more. */
export const FORM_BODY_LIMIT = 64 * KIB;
/** The body of a route that reads none (a client library's `{}` on a DELETE, say). */
export const UNUSED_BODY_LIMIT = 16 * KIB;

/** JSON up to `limit` bytes (and the default depth). */
export const jsonBody = (limit: number): BodyPolicy => ({ accepts: { 'application/json': limit } });

/** An HTML form's url-encoded body, as public pages post it. */
export const FORM_BODY: BodyPolicy = { accepts: { 'application/x-www-form-urlencoded': FORM_BODY_LIMIT } };

/** Methods whose requests Fastify reads a body for. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY']);

const carriesBody = (route: Pick<RouteOptions, 'method'>) =>
  [route.method].flat().some((method) => BODY_METHODS.has(method));

/**
 * Routes registered in `scope` (and its children) that declare no body of their own take the
 * one `policyOf` gives them. Call it first thing in the scope's plugin, before its routes.
 */
export function acceptBodies(scope: FastifyInstance, policyOf: (route: RouteOptions) => BodyPolicy): void {
  scope.addHook('onRoute', (route) => {
    if (!carriesBody(route) || route.config?.body) return;
    const policy = policyOf(route);
    route.config = { ...route.config, body: policy };
    route.bodyLimit = largestAccepted(policy);
  });
}

/** Nothing larger than the policy's largest type is ever read (Fastify's own limit of the route). */
function largestAccepted(policy: BodyPolicy): number {
  return Math.max(1, ...Object.values(policy.accepts));
}

/** The media type of a Content-Type header: lower case, without parameters. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const end = header.indexOf(';');
  return (end === -1 ? header : header.slice(0, end)).trim().toLowerCase();
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** A stream that fails with 413 once more than `limit` bytes went through it. */
function limited(payload: NodeJS.ReadableStream, limit: number): Transform {
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limit) callback(payloadTooLarge());
      else callback(null, chunk);
    },
  });
  payload.on('error', (err) => counter.destroy(err));
  return payload.pipe(counter);
}

/**
 * Installs the JSON parser and the check of every request's body against its route's policy,
 * and returns the check that every route declared one (call it once every route is registered:
 * it throws, naming the first route that did not).
 */
export function registerBodyPolicies(app: FastifyInstance): () => void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (!carriesBody(route)) return;
    routes.push(route);
    // Declared by the route itself (a surface's default is set, with its limit, by acceptBodies).
    if (route.config?.body) route.bodyLimit = largestAccepted(route.config.body);
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser(app));

  app.addHook('preParsing', (request, _reply, payload, done) => {
    const policy = request.routeOptions.config?.body;
    if (!policy || !hasBody(request)) return done(null, payload);
    const type = mediaTypeOf(request.headers['content-type']);
    const limit =
      type !== undefined && Object.hasOwn(policy.accepts, type) ? policy.accepts[type] : undefined;
    if (limit === undefined) return done(unsupportedMediaType());
    const length = request.headers['content-length'];
    if (length !== undefined) {
      // Fastify checks the length against the route's largest limit while reading; this type's may be lower.
      return Number(length) > limit ? done(payloadTooLarge()) : done(null, payload);
    }
    done(null, limited(payload, limit));
  });

  return () => {
    for (const route of routes) {
      const policy = route.config?.body;
      if (!policy) {
        throw new Error(
          `route ${[route.method].flat().join(',')} ${route.url} declares no body (config.body or acceptBodies)`,
        );
      }
    }
  };
}
