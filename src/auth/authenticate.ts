import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { apiKeyRequired, forbidden, invalidApiKey, rateLimited } from '../errors.js';
import { authenticateKey } from '../modules/keys/keys.service.js';
import type { LastUsedTracker } from './last-used.js';
import { isGranted, missingPermissionMessage, type Permission } from './permissions.js';
import type { Budget, RateLimiter } from './rate-limit.js';

export interface RequestAuth {
  accountId: number;
  keyId: number;
  permissions: Permission[];
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
  interface FastifyContextConfig {
    /** What the route needs from the API key. Routes without it must say `public: true`. */
    permission?: Permission;
    public?: boolean;
  }
}

export interface AuthOptions {
  db: Db;
  limiter: RateLimiter;
  lastUsed: LastUsedTracker;
  failedAuthPerMinute: number;
  /** How long an authenticated key is remembered (0: ask the database every time). */
  keyCacheMs: number;
  /** Told of every 429 given here: a key's budget spent, or an address failing authentication too often. */
  onRateLimited?: (kind: 'key' | 'address') => void;
}

/** The key's (or token's) budget, on every answer after it was counted. */
export function setBudgetHeaders(reply: FastifyReply, budget: Budget): void {
  reply.header('RateLimit-Limit', budget.limit);
  reply.header('RateLimit-Remaining', budget.remaining);
  reply.header('RateLimit-Reset', budget.resetSeconds);
}

/**
 * Refuses a request whose credentials are missing or wrong with `error`, or with a 429 once its
 * address has failed `perMinute` times this minute (guessing keys or tokens is rate limited).
 */
export async function refuseAuthentication(
  limiter: RateLimiter,
  request: FastifyRequest,
  perMinute: number,
  error: Error,
  onRateLimited?: (kind: 'address') => void,
): Promise<never> {
  const budget = await limiter.consume(`ip:${request.ip}`, perMinute);
  if (!budget.allowed) {
    onRateLimited?.('address');
    throw rateLimited(budget.resetSeconds);
  }
  throw error;
}

/**
 * Every route declares `config.permission` (or `config.public`). One hook checks, in the
 * contract's order: authentication (401) → the key's budget (429) → permission (403). Routing
 * (404/405) has already happened; body parsing and validation (400) come after.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthOptions): void {
  app.decorateRequest('auth', null as unknown as RequestAuth);

  app.addHook('onRoute', (route) => {
    if (!route.config?.permission && !route.config?.public) {
      throw new Error(`route ${route.method} ${route.url} declares neither a permission nor public: true`);
    }
  });

  const rejectAuthentication = (request: FastifyRequest, error: Error) =>
    refuseAuthentication(options.limiter, request, options.failedAuthPerMinute, error, options.onRateLimited);

  app.addHook('onRequest', async (request, reply) => {
    const needed = request.routeOptions.config?.permission;
    if (request.is404 || !needed) return;

    const raw = request.headers.apikey;
    const presented = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!presented) return rejectAuthentication(request, apiKeyRequired());
    const now = Date.now();
    // Cross-account by design: the key alone decides the account every later step is confined to.
    const key = await authenticateKey(options.db, presented, now, options.keyCacheMs);
    if (!key) return rejectAuthentication(request, invalidApiKey());
    // Known from here on (a 429 or 403 included): the request's log line names the account and key.
    request.auth = { accountId: key.accountId, keyId: key.keyId, permissions: key.permissions };

    options.lastUsed.touch(key.keyId, now);
    const budget = await options.limiter.consume(key.budgetId, key.rateLimit);
    setBudgetHeaders(reply, budget);
    if (!budget.allowed) {
      options.onRateLimited?.('key');
      throw rateLimited(budget.resetSeconds);
    }

    if (!isGranted(key.permissions, needed)) throw forbidden(missingPermissionMessage(needed));
  });
}
