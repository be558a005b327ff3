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
    reporting: Type.Object(
      {
        reports_per_week: Type.Array(
          Type.Object({
            week_start: Type.Integer({ description: 'Epoch ms (UTC week).' }),
            reports: Type.Integer(),
          }),
          { description: 'Real reports (each reporter counted) in each of the last 8 weeks, oldest first.' },
        ),
        judged: Type.Integer({ description: 'Reports given a verdict in the last 90 days.' }),
        awaiting_verdict: Type.Integer({ description: 'Reports without a verdict.' }),
        median_seconds_to_verdict: Type.Union([Type.Integer(), Type.Null()], {
          description: 'Median time from the first report to an administrator’s verdict, last 90 days.',
        }),
        reporting_accuracy: Type.Union([Type.Number(), Type.Null()], {
          description: 'Malicious or spam ÷ all judged in the last 90 days, 0 to 1; null with none judged.',
        }),
      },
      { title: 'ReportingOverview' },
    ),
  },
  { title: 'AccountOverview' },
);

/** The account's overview page: what it holds, at a glance. */
export const overviewAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/overview',
    {
      config: { adminPermission: 'overview:read' },
      schema: {
        tags: ['Accounts'],
        summary:
          "Counts of the account's employees, groups, campaigns and active API keys, and its reporting figures",
        params: AccountParams,
        response: responses({ 200: Overview }),
      },
    },
    async (request) => accountOverview(app.db, accountOf(request).accountId, accountOf(request).groups),
  );
};
