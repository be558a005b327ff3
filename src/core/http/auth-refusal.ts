import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Budget, RateLimiter } from '../auth/rate-limit.js';
import { rateLimited } from '../errors.js';

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
