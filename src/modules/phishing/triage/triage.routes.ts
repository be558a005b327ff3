import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FieldErrorCollector } from '../../../core/errors.js';
import { presentPage } from '../../../core/http/page-envelope.js';
import { pageRequest } from '../../../core/pagination.js';
import { presentReportDetail, presentReportSummary } from './triage.presenter.js';
import {
  getReportResponses,
  ListReportsQuery,
  listReportsResponses,
  ReportIdParams,
} from './triage.schemas.js';
import { customerReportsPage, getReport } from './triage.service.js';

const tags = ['Reports'];

/** The triage inbox for a SIEM or SOC: real reports and their verdicts (`reports:read`, v2.3.0). */
export const triageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customer/reports/',
    {
      schema: {
        operationId: 'listReports',
        summary: 'List real reports (v2.3.0)',
        description:
          'Reported messages that were no simulation, identical ones grouped, the most recently reported first, each with its first reporters and its verdict. Optional filters: `verdict` (`malicious`, `spam`, `safe`, or `none` for not judged yet) and `since`/`until` (the last report’s time).',
        tags,
        querystring: ListReportsQuery,
        response: listReportsResponses,
      },
      config: { permission: 'reports:read', since: '2.3.0' },
    },
    async (request) => {
      const { verdict, since, until } = request.query;
      const errors = new FieldErrorCollector();
      for (const [field, value] of [
        ['since', since],
        ['until', until],
      ] as const) {
        if (value !== undefined && Number.isNaN(Date.parse(value)))
          errors.add(field, 'must be a date or date-time');
      }
      errors.throwIfAny();
      return presentPage(
        request,
        await customerReportsPage(app.db, request.auth.accountId, pageRequest(request.query), {
          ...(verdict && { verdict }),
          ...(since !== undefined && { since: Date.parse(since) }),
          ...(until !== undefined && { until: Date.parse(until) }),
        }),
        presentReportSummary,
      );
    },
  );

  app.get(
    '/customer/reports/:report_id/',
    {
      schema: {
        operationId: 'getReport',
        summary: 'Get a real report (v2.3.0)',
        description:
          'One report with every reporter, its verdict and its safe view: headers, text, URLs (with a defanged form and their host) and attachments by name, type, size and SHA-256. The HTML is not served here. Once the account’s retention has passed, `message` is null; the rest stays.',
        tags,
        params: ReportIdParams,
        response: getReportResponses,
      },
      config: { permission: 'reports:read', since: '2.3.0' },
    },
    async (request) =>
      presentReportDetail(await getReport(app.db, request.auth.accountId, request.params.report_id)),
  );
};
