import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { RateLimiter } from '../core/auth/rate-limit.js';
import { invalidMetricsToken, metricsTokenRequired, serviceUnavailable } from '../core/errors.js';
import { refuseAuthentication } from '../core/http/auth-refusal.js';
import { errorSchema } from '../core/http/error-responses.js';
import { answerCollections, scrapeInstance } from './cluster.js';
import type { AppMetrics } from './metrics.js';

export interface MetricsRoutesOptions {
  /** `METRICS_TOKEN`: the bearer token a scrape must present. */
  token: string;
  metrics: AppMetrics;
  /** Failed scrapes count with the API's failed authentications, per address (guessing is limited). */
  limiter: RateLimiter;
  failedAuthPerMinute: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case). */
function bearerToken(header: string | undefined): string | undefined {
  return header ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] : undefined;
}

/**
 * `GET /metrics`: Prometheus text format, for the operator's monitoring only. Served only when
 * METRICS_TOKEN is set, and only to `Authorization: Bearer <METRICS_TOKEN>` (compared in
 * constant time); an API key opens nothing here. In an instance of several processes the
 * answer covers all of them (cluster.ts).
 */
export const metricsRoutes: FastifyPluginAsync<MetricsRoutesOptions> = async (app, options) => {
  const { token, metrics } = options;
  const refuse = (request: Parameters<typeof refuseAuthentication>[1], error: Error) =>
    refuseAuthentication(
      options.limiter,
      request,
      options.failedAuthPerMinute,
      error,
      metrics.countRateLimited,
    );
  const expected = sha256(token);
  const wholeInstance = cluster.isWorker;
  if (wholeInstance) answerCollections(metrics.registry);

  app.get(
    '/metrics',
    {
      schema: {
        hide: true,
        response: {
          401: errorSchema('No `Authorization: Bearer <METRICS_TOKEN>` header, or another token.', [
            { code: 'metrics_token_required' },
            { code: 'invalid_metrics_token' },
          ]),
          429: errorSchema('This address failed authentication too often this minute.', [
            { code: 'rate_limited' },
          ]),
          503: errorSchema('The primary process did not answer in time (WEB_CONCURRENCY > 1).', [
            { code: 'service_unavailable' },
          ]),
        },
      },
      // Scrapes come every few seconds: log only what goes wrong.
      logLevel: 'warn',
    },
    async (request, reply) => {
      const presented = bearerToken(request.headers.authorization);
      if (presented === undefined) return refuse(request, metricsTokenRequired());
      if (!timingSafeEqual(sha256(presented), expected)) return refuse(request, invalidMetricsToken());
      const text = wholeInstance ? await scrapeInstance() : await metrics.registry.metrics();
      if (text === undefined) throw serviceUnavailable();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
};
