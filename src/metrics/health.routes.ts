import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { serviceUnavailable } from '../core/errors.js';
import { errorSchema } from '../core/http/error-responses.js';
import type { Readiness } from './readiness.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's readiness (set to draining on SIGTERM). */
    readiness: Readiness;
  }
}

const Ok = Type.Object({ status: Type.Literal('ok') }, { title: 'Health', examples: [{ status: 'ok' }] });

const Checks = Type.Object({
  database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  redis: Type.Union([Type.Literal('ok'), Type.Literal('unavailable'), Type.Literal('off')], {
    description:
      '`off`: no `REDIS_URL`. `unavailable`: rate limits are counted per instance until it answers.',
  }),
});

const Ready = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description:
        '`degraded`: ready, but Redis does not answer, so rate-limit budgets are per instance meanwhile. Keep sending traffic; alert an operator.',
    }),
    checks: Checks,
  },
  {
    title: 'Readiness',
    examples: [
      { status: 'ok', checks: { database: 'ok', redis: 'ok' } },
      { status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } },
    ],
  },
);

/** Liveness and readiness for load balancers and orchestrators; no key needed. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness: the process answers',
        tags: ['Operations'],
        security: [],
        response: { 200: Ok },
      },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers and the instance is not shutting down',
        description:
          'Answers within a second. 200: send traffic (`degraded` too). 503: take this instance out of rotation (the database does not answer, or it is draining after SIGTERM); it recovers by itself.',
        tags: ['Operations'],
        security: [],
        response: {
          200: Ready,
          503: errorSchema('The database does not answer, or the instance is draining.', [
            {
              code: 'service_unavailable',
              details: { checks: { database: 'unavailable', redis: 'ok' } },
            },
            {
              code: 'service_unavailable',
              details: { checks: { database: 'ok', redis: 'off' }, draining: true },
            },
          ]),
        },
      },
      logLevel: 'warn',
    },
    async () => {
      const report = await app.readiness.check();
      if (!report.ready) {
        throw serviceUnavailable({
          checks: report.checks,
          ...(report.draining ? { draining: true } : {}),
        });
      }
      return { status: report.status as 'ok' | 'degraded', checks: report.checks };
    },
  );
};
