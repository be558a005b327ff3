import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { serviceUnavailable } from '../../errors.js';
import { errorSchema } from '../../http/error-responses.js';

const Ok = Type.Object({ status: Type.Literal('ok') }, { examples: [{ status: 'ok' }] });

/** Liveness and readiness for load balancers and orchestrators; no key needed. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
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
        summary: 'Readiness: the database answers',
        tags: ['Operations'],
        security: [],
        response: {
          200: Ok,
          503: errorSchema('The database does not answer.', [{ error: 'Service unavailable', status: 503 }]),
        },
      },
      logLevel: 'warn',
    },
    async () => {
      try {
        await sql`select 1`.execute(app.db);
      } catch {
        throw serviceUnavailable();
      }
      return { status: 'ok' as const };
    },
  );
};
