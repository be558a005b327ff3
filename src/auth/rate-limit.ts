import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterRes,
} from 'rate-limiter-flexible';

/**
 * Fixed windows (one minute unless told otherwise) counted by rate-limiter-flexible, in memory or in Redis (global
 * across instances). Budgets differ per key, so the counter itself never refuses: it counts,
 * and the caller's budget decides.
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

export function createRateLimiter(options: {
  keyPrefix: string;
  redis?: Redis | undefined;
  /** Length of a window (default one minute). */
  windowSeconds?: number;
}): RateLimiter {
  const windowSeconds = options.windowSeconds ?? WINDOW_SECONDS;
  const memory = new RateLimiterMemory({
    points: Number.MAX_SAFE_INTEGER,
    duration: windowSeconds,
    keyPrefix: options.keyPrefix,
  });
  const counter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        points: Number.MAX_SAFE_INTEGER,
        duration: windowSeconds,
        keyPrefix: options.keyPrefix,
        // Redis down: keep limiting per instance rather than failing requests.
        insuranceLimiter: memory,
      })
    : memory;

  return {
    async consume(id, limit) {
      const res: RateLimiterRes = await counter.consume(id, 1);
      const used = res.consumedPoints;
      return {
        allowed: used <= limit,
        limit,
        remaining: Math.max(0, limit - used),
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      };
    },
  };
}
