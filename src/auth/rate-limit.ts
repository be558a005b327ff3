import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import type { SharedRedis } from '../redis.js';

/**
 * Fixed windows (one minute unless told otherwise) counted by rate-limiter-flexible, in memory
 * or in Redis (global across instances). Budgets differ per key, so the counter itself never
 * refuses: it counts, and the caller's budget decides.
 *
 * With Redis configured, a Redis that does not answer within its deadline (or at all) makes
 * this instance count in memory at once, and keep doing so without asking Redis again until
 * Redis answers its probe (see SharedRedis): a frozen Redis costs one request one deadline,
 * not every request. Counts made in memory meanwhile are not added to the shared ones.
 */

export interface Budget {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  consume(id: string, limit: number): Promise<Budget>;
}

const WINDOW_SECONDS = 60;

function budget(res: RateLimiterRes, limit: number): Budget {
  const used = res.consumedPoints;
  return {
    allowed: used <= limit,
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export function createRateLimiter(options: {
  keyPrefix: string;
  redis?: SharedRedis | undefined;
  /** Length of a window (default one minute). */
  windowSeconds?: number;
}): RateLimiter {
  const windowSeconds = options.windowSeconds ?? WINDOW_SECONDS;
  const common = { points: Number.MAX_SAFE_INTEGER, duration: windowSeconds, keyPrefix: options.keyPrefix };
  const memory = new RateLimiterMemory(common);
  const { redis } = options;
  const shared = redis
    ? new RateLimiterRedis({ ...common, storeClient: redis.client, rejectIfRedisNotReady: true })
    : undefined;

  return {
    async consume(id, limit) {
      if (shared && redis?.available()) {
        try {
          return budget(await shared.consume(id, 1), limit);
        } catch (err) {
          redis.markFailed(err);
        }
      }
      return budget(await memory.consume(id, 1), limit);
    },
  };
}
