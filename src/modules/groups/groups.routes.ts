import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonPieces } from '../../http/json-text.js';
import { presentPageJson } from '../../http/page-envelope.js';
import { pageRequest } from '../../pagination.js';
import { createGroupPagesCache } from './groups.cache.js';
import { replaceMembership } from './groups.membership.js';
import { presentGroupDetail } from './groups.presenter.js';
import {
  GroupParams,
  getGroupResponses,
  IfMatchHeaders,
  ListGroupsQuery,
  listGroupsResponses,
  ReplaceMembershipBody,
  replaceMembershipResponses,
} from './groups.schemas.js';
import { findGroups, readGroupDetail } from './groups.service.js';

export const groupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Remembered group lists, checked against the account's groups revision on every request.
  const groupPages = createGroupPagesCache();

  app.get(
    '/customer/groups/',
    {
      schema: {
        summary: 'List groups',
        description: 'Ordered by id.',
        tags: ['Groups'],
        querystring: ListGroupsQuery,
        response: listGroupsResponses,
      },
      config: { permission: 'groups:read' },
    },
    async (request, reply) => {
      const page = await findGroups(app.db, request.auth.accountId, pageRequest(request.query), groupPages);
      return reply.type('application/json; charset=utf-8').send(presentPageJson(request, page) as never);
    },
  );

  app.get(
    '/customer/groups/:group_id/',
    {
      schema: {
        summary: 'Get a group with its members',
        tags: ['Groups'],
        params: GroupParams,
        response: getGroupResponses,
      },
      config: { permission: 'groups:read' },
    },
    async (request, reply) =>
      readGroupDetail(app.db, request.auth.accountId, request.params.group_id, (detail) =>
        sendJsonPieces(reply.header('ETag', detail.etag), presentGroupDetail(detail)),
      ),
  );

  app.put(
    '/customer/groups/:group_id/',
    {
      schema: {
        summary: 'Replace a group’s membership',
        description:
          'The array REPLACES the whole membership (send all current ids plus a new one to add; all but one to remove). All or nothing. Optional `name` and `description` change the group in the same request. Send `If-Match` with the ETag of your read to be safe against concurrent changes.',
        tags: ['Groups'],
        params: GroupParams,
        headers: IfMatchHeaders,
        body: ReplaceMembershipBody,
        response: replaceMembershipResponses,
      },
      config: { permission: 'groups:write' },
    },
    async (request, reply) => {
      const detail = await replaceMembership(app.db, {
        accountId: request.auth.accountId,
        groupId: request.params.group_id,
        employeeIds: request.body.employee_ids,
        name: request.body.name,
        description: request.body.description,
        ifMatch: request.headers['if-match'],
      });
      return sendJsonPieces(reply.header('ETag', detail.etag), presentGroupDetail(detail));
    },
  );
};
