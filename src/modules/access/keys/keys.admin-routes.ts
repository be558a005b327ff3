import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PERMISSIONS, type Permission } from '../../../core/auth/permissions.js';
import { accountOf } from '../../../core/http/admin-request.js';
import {
  AccountParams,
  Body,
  IdParams,
  NullableTimestamp,
  responses,
  Timestamp,
} from '../../../core/http/admin-schemas.js';
import { ListOf } from '../../../core/http/schemas.js';
import { presentKey } from './keys.presenter.js';
import { createKey, keysOfAccount, revokeKey, setKeyRateLimit } from './keys.service.js';

const tags = ['API keys'];

const Key = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    prefix: Type.String(),
    permissions: Type.Array(Type.Unsafe<Permission>({ type: 'string', enum: PERMISSIONS })),
    rate_limit: Type.Integer({ description: 'Requests per minute.' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
    created_at: Timestamp,
    last_used_at: NullableTimestamp,
    expires_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
  },
  { title: 'ApiKey' },
);

const CreatedKey = Type.Composite(
  [Key, Type.Object({ key: Type.String({ description: 'The secret: shown only this once.' }) })],
  { title: 'CreatedApiKey' },
);

/** The Integration area: an account's API keys. */
export const keysAdminRoutes: FastifyPluginAsyncTypebox<{ defaultRateLimit: number }> = async (
  app,
  options,
) => {
  app.get(
    '/keys',
    {
      config: { adminPermission: 'integrations:read' },
      schema: {
        tags,
        summary: "The account's API keys, newest first, revoked ones included",
        params: AccountParams,
        response: responses({ 200: ListOf(Key) }),
      },
    },
    async (request) => {
      const now = Date.now();
      const results = (await keysOfAccount(app.db, accountOf(request).accountId))
        .reverse()
        .map((key) => presentKey(key, now));
      return { count: results.length, results };
    },
  );

  app.post(
    '/keys',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Creates an API key: the only answer that holds its secret',
        params: AccountParams,
        body: Body({
          name: Type.String(),
          permissions: Type.Array(
            Type.String({ description: '`employees|groups|campaigns|reports:read|write`' }),
            {
              maxItems: 50,
              description: 'At least one.',
            },
          ),
          expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
        }),
        response: responses({ 201: CreatedKey }),
      },
    },
    async (request, reply) => {
      const created = await createKey(app.db, {
        accountId: accountOf(request).accountId,
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
    {
      config: { adminPermission: 'integrations:write' },
      schema: { tags, summary: 'Revokes a key', params: IdParams, response: responses({ 200: Key }) },
    },
    async (request) => presentKey(await revokeKey(app.db, accountOf(request).accountId, request.params.id)),
  );

  app.patch(
    '/keys/:id',
    {
      schema: {
        tags,
        summary: "Operators: sets a key's per-minute budget (see `GET /limits` for its range)",
        params: IdParams,
        body: Body({ rate_limit: Type.Integer() }),
        response: responses({ 200: Key }),
      },
      config: { adminPermission: 'operator', operatorOnly: true },
    },
    async (request) =>
      presentKey(
        await setKeyRateLimit(
          app.db,
          accountOf(request).accountId,
          request.params.id,
          request.body.rate_limit,
        ),
      ),
  );
};
