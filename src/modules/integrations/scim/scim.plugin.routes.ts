import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { LastUsedTracker } from '../../../core/auth/last-used.js';
import type { RateLimiter } from '../../../core/auth/rate-limit.js';
import { AppError, rateLimited } from '../../../core/errors.js';
import { refuseAuthentication, setBudgetHeaders } from '../../../core/http/auth-refusal.js';
import { acceptBodies } from '../../../core/http/bodies.js';
import { toAppError } from '../../../core/http/errors.js';
import { jsonBodyParser } from '../../../core/http/json-body.js';
import { scimErrorBody } from './scim.errors.model.js';
import { scimRoutes } from './scim.routes.js';
import { authenticateScimToken } from './scim.tokens.service.js';

export interface ScimAuth {
  accountId: number;
  tokenId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The account and token of a SCIM request (set by the SCIM plugin's hook). */
    scim: ScimAuth;
  }
}

export interface ScimPluginOptions {
  limiter: RateLimiter;
  lastUsed: LastUsedTracker;
  /** Requests a minute per token (the default budget of an API key). */
  perMinute: number;
  failedAuthPerMinute: number;
}

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="scim"' };
// The discovery documents hold nothing of an account's: identity providers read them before
// they are configured with a token.
const PUBLIC_PATHS = new Set(['/ServiceProviderConfig', '/ResourceTypes', '/Schemas']);

function sendScimError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.status(error.status).type(SCIM_CONTENT_TYPE).send(scimErrorBody(error));
}

/**
 * `/scim/v2/`: SCIM 2.0 for identity providers. Everything here answers in SCIM's terms: bodies
 * as `application/scim+json` (read as `application/json` too), errors in SCIM's error schema
 * (never the Customer API's shape), 401 for a missing or unknown bearer token. The token names
 * the account; every later step is confined to it. Budgets: per token, as per API key, and the
 * same per-address limit on failed authentication.
 */
export const scimPlugin: FastifyPluginAsync<ScimPluginOptions> = async (app, options) => {
  app.decorateRequest('scim', null as unknown as ScimAuth);
  // JSON by either name, up to BODY_LIMIT, read by the app's one JSON parser (its depth limit included).
  const limit = app.config.bodyLimit;
  acceptBodies(app, () => ({ accepts: { 'application/scim+json': limit, 'application/json': limit } }));
  app.addContentTypeParser('application/scim+json', { parseAs: 'string' }, jsonBodyParser(app));

  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err, request);
    if (error.status >= 500) request.log[error.status === 503 ? 'warn' : 'error']({ err }, error.message);
    return sendScimError(reply, error);
  });
  // Unknown paths under /scim/v2 (the root's routing hook names 404 or 405) answer in SCIM's shape.
  app.setNotFoundHandler(async () => {
    throw new AppError('not_found');
  });

  const refuse = (request: FastifyRequest, code: 'scim_token_required' | 'invalid_scim_token') =>
    refuseAuthentication(
      options.limiter,
      request,
      options.failedAuthPerMinute,
      new AppError(code, { headers: CHALLENGE }),
    );

  app.addHook('onRequest', async (request, reply) => {
    reply.type(SCIM_CONTENT_TYPE);
    if (request.is404) return;
    const path = request.routeOptions.url?.replace(/^\/scim\/v2/, '') ?? '';
    if (PUBLIC_PATHS.has(path)) return;
    const header = request.headers.authorization;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(typeof header === 'string' ? header : '');
    if (!match?.[1]) return refuse(request, 'scim_token_required');
    // Cross-account by design: the token alone decides the account every later step is confined to.
    const token = await authenticateScimToken(app.db, match[1]);
    if (!token) return refuse(request, 'invalid_scim_token');
    request.scim = { accountId: token.accountId, tokenId: token.tokenId };
    request.auditActor = { kind: 'scim_token', id: token.tokenId, label: token.label };
    const now = Date.now();
    options.lastUsed.touch(token.tokenId, now);
    const budget = await options.limiter.consume(token.budgetId, options.perMinute);
    setBudgetHeaders(reply, budget);
    if (!budget.allowed) throw rateLimited(budget.resetSeconds);
  });

  await app.register(scimRoutes);
};
