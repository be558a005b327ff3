import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf } from '../../admin/list.js';
import { IdParams, NullableTimestamp, Timestamp } from '../../admin/schemas.js';
import { presentKey } from './keys.presenter.js';
import { createKey, keysOfAccount, revokeKey, setKeyRateLimit } from './keys.service.js';

const Key = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String(),
  permissions: Type.Array(Type.String()),
  rate_limit: Type.Integer(),
  status: Type.String(),
  created_at: Timestamp,
  last_used_at: NullableTimestamp,
  expires_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
});

/** The Integration area: an account's API keys. */
export const keysAdminRoutes: FastifyPluginAsyncTypebox<{ defaultRateLimit: number }> = async (
  app,
  options,
) => {
  app.get('/keys', { schema: { hide: true, response: { 200: ListOf(Key) } } }, async (request) => {
    const now = Date.now();
    const results = (await keysOfAccount(app.db, request.admin.accountId))
      .reverse()
      .map((key) => presentKey(key, now));
    return { count: results.length, results };
  });

  app.post(
    '/keys',
    {
      schema: {
        hide: true,
        body: Type.Object({
          name: Type.String(),
          permissions: Type.Array(Type.String(), { maxItems: 50 }),
          expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        }),
        response: { 201: Type.Composite([Key, Type.Object({ key: Type.String() })]) },
      },
    },
    async (request, reply) => {
      const created = await createKey(app.db, {
        accountId: request.admin.accountId,
        name: request.body.name,
        permissions: request.body.permissions,
        rateLimit: options.defaultRateLimit,
        expiresAt: request.body.expires_at ?? null,
      });
      return reply.code(201).send({ ...presentKey(created), key: created.key });
    },
  );

  app.post(
    '/keys/:id/revoke',
    { schema: { hide: true, params: IdParams, response: { 200: Key } } },
    async (request) => presentKey(await revokeKey(app.db, request.params.id, request.admin.accountId)),
  );

  app.patch(
    '/keys/:id',
    {
      schema: {
        hide: true,
        params: IdParams,
        body: Type.Object({ rate_limit: Type.Integer() }),
        response: { 200: Key },
      },
      config: { operatorOnly: true },
    },
    async (request) =>
      presentKey(
        await setKeyRateLimit(app.db, request.params.id, request.body.rate_limit, request.admin.accountId),
      ),
  );
};
