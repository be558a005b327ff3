import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, Body, CsvFile, responses } from '../../../core/http/admin-schemas.js';
import { sendCsvFile } from '../../../core/http/csv-download.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import {
  AUDIT_RETENTION_DEFAULT_DAYS,
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  changeSecuritySettings,
  securitySettingsOf,
} from '../security/security.service.js';
import { AuditExportQuery, AuditList, AuditListQuery } from './audit.admin-schemas.js';
import { presentAuditEntry } from './audit.presenter.js';
import { auditLogList, exportAuditLog } from './audit.service.js';

const AuditSettings = Type.Object(
  {
    audit_retention_days: Type.Integer({
      description: 'Days the audit log is kept; older rows are deleted (each chain keeps its anchor).',
    }),
    default_days: Type.Integer(),
    minimum_days: Type.Integer(),
    maximum_days: Type.Integer(),
  },
  { title: 'AuditSettings' },
);

const auditSettingsOf = async (db: Parameters<typeof securitySettingsOf>[0], accountId: number) => ({
  audit_retention_days: (await securitySettingsOf(db, accountId)).audit_retention_days,
  default_days: AUDIT_RETENTION_DEFAULT_DAYS,
  minimum_days: AUDIT_RETENTION_MIN_DAYS,
  maximum_days: AUDIT_RETENTION_MAX_DAYS,
});

const tags = ['Audit log'];
const config = { adminPermission: 'audit:read' };

/** The audit log page's routes, relative to `/admin/api/accounts/:accountId`. */
export const auditAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/audit-log/settings',
    {
      schema: {
        tags,
        summary: 'How long the audit log is kept (400 days unless an owner chose otherwise; at least 180)',
        params: AccountParams,
        response: responses({ 200: AuditSettings }),
      },
      config,
    },
    async (request) => auditSettingsOf(app.db, accountOf(request).accountId),
  );

  app.put(
    '/audit-log/settings',
    {
      schema: {
        tags,
        summary:
          'Sets how many days the audit log is kept (180 to 3650). Owners only; recorded in the audit log',
        params: AccountParams,
        body: Body({ audit_retention_days: Type.Integer() }),
        response: responses({ 200: AuditSettings }),
      },
      config: { adminPermission: 'audit:settings' },
    },
    async (request) => {
      const { accountId } = accountOf(request);
      await app.db
        .transaction()
        .execute((trx) =>
          changeSecuritySettings(trx, accountId, { audit_retention_days: request.body.audit_retention_days }),
        );
      return auditSettingsOf(app.db, accountId);
    },
  );

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
