import cluster from 'node:cluster';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { SharedRedis } from '../redis.js';
import { type Count, PrimaryCounter } from './cluster-budgets.js';

/**
 * Fixed windows (one minute unless told otherwise) counted by rate-limiter-flexible, in Redis
 * (global across instances) or on this instance: in memory, or, in an instance of several
 * processes (WEB_CONCURRENCY), by the primary process over IPC, so the budget is still one per
 * instance, exactly. Budgets differ per key, so the counter itself never refuses: it counts,
 * and the caller's budget decides.
 *
 * With Redis configured, a Redis that does not answer within its deadline (or at all) makes
 * this instance count in memory at once, and keep doing so without asking Redis again until
 * Redis answers its probe (see SharedRedis): a frozen Redis costs one request one deadline,
 * not every request. Counts made on the instance meanwhile are not added to the shared ones.
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

function budget(res: Count, limit: number): Budget {
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
  // A worker of a cluster counts with its primary (cluster-budgets.ts): one budget per instance.
  const local = cluster.isWorker
    ? new PrimaryCounter(options.keyPrefix, windowSeconds)
    : { consume: (id: string) => memory.consume(id, 1) };
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
      try {
        return budget(await local.consume(id), limit);
      } catch {
        // The primary did not answer in time (it is restarting us, or overloaded): count here.
        return budget(await memory.consume(id, 1), limit);
      }
    },
  };
}
