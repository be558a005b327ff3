import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { CsvFile, responses } from '../../../core/http/admin-schemas.js';
import { sendCsvFile } from '../../../core/http/csv-download.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { parseId } from '../../../core/ids.js';
import { listWindow } from '../../../core/pagination.js';
import {
  EmployeeHistoryParams,
  HistoryList,
  HistoryQuery,
  RecipientList,
  RecipientListQuery,
  ResultsParams,
  ResultsSummary,
  ResultsSummaryQuery,
} from './results.admin-schemas.js';
import { presentAdminRecipient, presentHistoryRow, presentResultsSummary } from './results.presenter.js';
import {
  employeePhishingHistory,
  exportRecipients,
  listRecipientsPage,
  resultsSummary,
} from './results.service.js';

const tags = ['Phishing results'];

/**
 * The admin API's phishing results routes, relative to `/admin/api/accounts/:accountId` (whose
 * hooks have checked the session, the CSRF token and the account).
 */
export const phishingResultsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/phishing/campaigns/:campaignId/results',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary:
          'A campaign’s figures (all, by group, by template, with rates and medians) and activity over time, from the figures kept as events arrive',
        params: ResultsParams,
        querystring: ResultsSummaryQuery,
        response: responses({ 200: ResultsSummary }),
      },
    },
    async (request) => ({
      ...presentResultsSummary(
        await resultsSummary(app.db, accountOf(request).accountId, request.params.campaignId, {
          bucket: request.query.bucket,
        }),
      ),
      // Kept per campaign as events arrive: the whole campaign's, for a role limited to groups too.
      covers: 'campaign' as const,
    }),
  );

  app.get(
    '/phishing/campaigns/:campaignId/results/recipients',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary:
          'The people targeted, by employee id, narrowed by status, a search (`q`), a group or a template',
        params: ResultsParams,
        querystring: RecipientListQuery,
        response: responses({ 200: RecipientList }),
      },
    },
    async (request) => {
      const { status, q, group_id, template } = request.query;
      const page = await listRecipientsPage(
        app.db,
        accountOf(request).accountId,
        request.params.campaignId,
        { status, q, template, groupId: group_id === undefined ? undefined : (parseId(group_id) ?? 0) },
        listWindow(request.query),
        accountOf(request).groups,
      );
      return listEnvelope(page, presentAdminRecipient);
    },
  );

  app.get(
    '/phishing/campaigns/:campaignId/results/recipients.csv',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary:
          "Every person targeted as CSV (streamed): their steps' first times, ISO 8601; cells starting with `= + - @` get a leading `'`",
        params: ResultsParams,
        response: responses({ 200: CsvFile }),
      },
    },
    async (request, reply) => {
      const { accountId, groups } = accountOf(request);
      const csv = await exportRecipients(app.db, accountId, request.params.campaignId, groups);
      return sendCsvFile(reply, `phishing-campaign-${request.params.campaignId}-results.csv`, csv);
    },
  );

  app.get(
    '/employees/:employeeId/phishing',
    {
      config: { adminPermission: 'results:read' },
      schema: {
        tags,
        summary: 'An employee’s phishing simulations across campaigns, newest first',
        params: EmployeeHistoryParams,
        querystring: HistoryQuery,
        response: responses({ 200: HistoryList }),
      },
    },
    async (request) =>
      listEnvelope(
        await employeePhishingHistory(
          app.db,
          accountOf(request).accountId,
          request.params.employeeId,
          listWindow(request.query),
          accountOf(request).groups,
        ),
        presentHistoryRow,
      ),
  );
};
