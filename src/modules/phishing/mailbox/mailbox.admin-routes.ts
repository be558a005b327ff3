import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, responses } from '../../../core/http/admin-schemas.js';
import { regenerateReportingAddress, reportingAddressOf } from './mailbox.service.js';

const tags = ['Reporting'];

const ReportingAddress = Type.Object(
  {
    address: Type.Union([Type.String(), Type.Null()], {
      description:
        "Where the account's employees and its reporting mailbox forward suspicious mail: `report+<reporting id>@REPORT_DOMAIN`. Null when this server has no REPORT_DOMAIN (the operator has not set the reporting address up).",
    }),
  },
  { title: 'ReportingAddress' },
);

/** The Integration area: the account's reporting address, and a new one. */
export const mailboxAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/reporting/address',
    {
      config: { adminPermission: 'reports:read' },
      schema: {
        tags,
        summary: "The account's reporting address (made on first need)",
        params: AccountParams,
        response: responses({ 200: ReportingAddress }),
      },
    },
    async (request) => ({
      address: await reportingAddressOf(app.db, accountOf(request).accountId, app.config.reports.domain),
    }),
  );

  app.post(
    '/reporting/address/regenerate',
    {
      config: { adminPermission: 'reports:write', adminScope: 'account' },
      schema: {
        tags,
        summary: 'Gives the account a new reporting address; mail to the old one is refused from now on',
        params: AccountParams,
        response: responses({ 200: ReportingAddress }),
      },
    },
    async (request) => ({
      address: await regenerateReportingAddress(
        app.db,
        accountOf(request).accountId,
        app.config.reports.domain,
      ),
    }),
  );
};
