import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import {
  AccountParams,
  Body,
  IdParams,
  NullableTimestamp,
  responses,
  Timestamp,
} from '../../../core/http/admin-schemas.js';
import { scimBaseUrl } from './scim.routes.js';
import { presentScimToken } from './scim.tokens.presenter.js';
import { createScimToken, revokeScimToken, scimTokensOfAccount } from './scim.tokens.service.js';

const tags = ['SCIM'];

const ScimToken = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    prefix: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
    created_at: Timestamp,
    last_used_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
  },
  { title: 'ScimToken' },
);

const ScimTokens = Type.Object(
  {
    base_url: Type.String({ description: 'The SCIM base URL to give Okta or Microsoft Entra.' }),
    count: Type.Integer(),
    results: Type.Array(ScimToken),
  },
  { title: 'ScimTokens' },
);

const CreatedScimToken = Type.Composite(
  [ScimToken, Type.Object({ token: Type.String({ description: 'The secret: shown only this once.' }) })],
  { title: 'CreatedScimToken' },
);

/** The Integration area: the account's SCIM bearer tokens (for Okta, Microsoft Entra). */
export const scimTokensAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/scim-tokens',
    {
      config: { adminPermission: 'integrations:read' },
      schema: {
        tags,
        summary: "The account's SCIM tokens, newest first, revoked ones included, and the SCIM base URL",
        params: AccountParams,
        response: responses({ 200: ScimTokens }),
      },
    },
    async (request) => {
      const results = (await scimTokensOfAccount(app.db, accountOf(request).accountId)).map(presentScimToken);
      return { base_url: scimBaseUrl(app), count: results.length, results };
    },
  );

  app.post(
    '/scim-tokens',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Creates a SCIM bearer token: the only answer that holds its secret',
        params: AccountParams,
        body: Body({ name: Type.String() }),
        response: responses({ 201: CreatedScimToken }),
      },
    },
    async (request, reply) => {
      const created = await createScimToken(app.db, {
        accountId: accountOf(request).accountId,
        name: request.body.name,
      });
      return reply.code(201).send({ ...presentScimToken(created), token: created.token });
    },
  );

  app.post(
    '/scim-tokens/:id/revoke',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Revokes a SCIM token at once',
        params: IdParams,
        response: responses({ 200: ScimToken }),
      },
    },
    async (request) =>
      presentScimToken(await revokeScimToken(app.db, accountOf(request).accountId, request.params.id)),
  );
};
