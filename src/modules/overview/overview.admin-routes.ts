import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../core/http/admin-request.js';
import { AccountParams, responses } from '../../core/http/admin-schemas.js';
import { accountOverview } from './overview.service.js';

const Overview = Type.Object(
  {
    employees: Type.Integer(),
    groups: Type.Integer(),
    campaigns: Type.Integer(),
    active_keys: Type.Integer(),
  },
  { title: 'AccountOverview' },
);

/** The account's overview page: what it holds, at a glance. */
export const overviewAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/overview',
    {
      schema: {
        tags: ['Accounts'],
        summary: "Counts of the account's employees, groups, campaigns and active API keys",
        params: AccountParams,
        response: responses({ 200: Overview }),
      },
    },
    async (request) => accountOverview(app.db, accountOf(request).accountId),
  );
};
