import { tooManySignIns } from '../errors.js';
import type { SharedRedis } from '../redis.js';
import { type Budget, createRateLimiter } from './rate-limit.js';

const WINDOW_SECONDS = 15 * 60;

/**
 * Limits password guessing: attempts per client address, and per address and account email,
 * in 15-minute windows (global across instances with Redis). Counting per address and email
 * (not per email alone) keeps an attacker from locking a real administrator out.
 */
export function createSignInThrottle(options: {
  keyPrefix: string;
  redis?: SharedRedis | undefined;
  perAddress: number;
  perEmail: number;
  /** Told of every attempt refused with 429. */
  onRateLimited?: () => void;
}) {
  const limiter = createRateLimiter({
    keyPrefix: `${options.keyPrefix}:sign-in`,
    redis: options.redis,
    windowSeconds: WINDOW_SECONDS,
  });
  const refuse = (budget: Budget) => {
    options.onRateLimited?.();
    return tooManySignIns(budget.resetSeconds);
  };
  return {
    /** Counts one attempt; throws 429 when either budget is spent. */
    async attempt(ip: string, email: string): Promise<void> {
      const byAddress = await limiter.consume(`ip:${ip}`, options.perAddress);
      if (!byAddress.allowed) throw refuse(byAddress);
      const byEmail = await limiter.consume(`email:${ip}:${email.trim().toLowerCase()}`, options.perEmail);
      if (!byEmail.allowed) throw refuse(byEmail);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
