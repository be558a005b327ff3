import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LastUsedTracker } from '../core/auth/last-used.js';
import { isGranted, missingPermissionMessage, type Permission } from '../core/auth/permissions.js';
import type { RateLimiter } from '../core/auth/rate-limit.js';
import type { Db } from '../core/db/database.js';
import { apiKeyRequired, forbidden, invalidApiKey, rateLimited } from '../core/errors.js';
import { refuseAuthentication, setBudgetHeaders } from '../core/http/auth-refusal.js';
import { authenticateKey } from '../modules/access/keys/keys.service.js';

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
    request.auditActor = { kind: 'api_key', id: key.keyId, label: key.label };

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
