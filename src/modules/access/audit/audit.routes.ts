import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { presentPage } from '../../../core/http/page-envelope.js';
import { pageRequest } from '../../../core/pagination.js';
import { presentAuditEntry } from './audit.presenter.js';
import { ListAuditQuery, listAuditResponses } from './audit.schemas.js';
import { auditLogPage } from './audit.service.js';

/** The audit log for a SIEM (`audit:read`, v2.3.0): every change made in the account. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/customer/audit-log/',
    {
      schema: {
        operationId: 'listAuditLog',
        summary: 'List the audit log (v2.3.0)',
        description:
          'Every change made in the account by its administrators, operators, API keys and SCIM tokens, and every sign-in, the newest first: who and through what, when, from which address, the action, the object and the changed fields (secrets only as changed). Optional filters: `actor` (text in the actor’s email or name), `action` (`group.updated`, or `group.` for every action on groups) and `since`/`until`.',
        tags: ['Audit log'],
        querystring: ListAuditQuery,
        response: listAuditResponses,
      },
      config: { permission: 'audit:read', since: '2.3.0' },
    },
    async (request) => {
      const { actor, action, since, until } = request.query;
      return presentPage(
        request,
        await auditLogPage(app.db, request.auth.accountId, pageRequest(request.query), {
          actor,
          action,
          since,
          until,
        }),
        presentAuditEntry,
      );
    },
  );
};
