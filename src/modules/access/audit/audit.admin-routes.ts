import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, CsvFile, responses } from '../../../core/http/admin-schemas.js';
import { sendCsvFile } from '../../../core/http/csv-download.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import { AuditExportQuery, AuditList, AuditListQuery } from './audit.admin-schemas.js';
import { presentAuditEntry } from './audit.presenter.js';
import { auditLogList, exportAuditLog } from './audit.service.js';

const tags = ['Audit log'];
const config = { adminPermission: 'audit:read' };

/** The audit log page's routes, relative to `/admin/api/accounts/:accountId`. */
export const auditAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/audit-log',
    {
      schema: {
        tags,
        summary:
          'The account’s audit log, the newest first, filtered by actor, kind of actor, action, object and time',
        params: AccountParams,
        querystring: AuditListQuery,
        response: responses({ 200: AuditList }),
      },
      config,
    },
    async (request) => {
      const { page: _p, page_size: _s, ...filters } = request.query;
      return listEnvelope(
        await auditLogList(app.db, accountOf(request).accountId, listWindow(request.query), filters),
        presentAuditEntry,
      );
    },
  );

  app.get(
    '/audit-log.csv',
    {
      schema: {
        tags,
        summary: 'The filtered audit log as CSV',
        params: AccountParams,
        querystring: AuditExportQuery,
        response: responses({ 200: CsvFile }),
      },
      config,
    },
    async (request, reply) => {
      const accountId = accountOf(request).accountId;
      return sendCsvFile(
        reply,
        `audit-log-${accountId}.csv`,
        await exportAuditLog(app.db, accountId, request.query),
      );
    },
  );
};
