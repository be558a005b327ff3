import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { sendJsonPieces } from '../../../core/http/json-text.js';
import { absoluteUrl } from '../../../core/http/links.js';
import { presentPageJson } from '../../../core/http/page-envelope.js';
import { pageRequest } from '../../../core/pagination.js';
import { registerDeletedList } from '../sync/sync.routes.js';
import { createGroupPagesCache } from './groups.cache.service.js';
import { addGroupMembers, removeGroupMembers, replaceMembership } from './groups.membership.commands.js';
import { presentGroupDetail } from './groups.presenter.js';
import {
  CreateGroupBody,
  createGroupResponses,
  deleteGroupResponses,
  GroupParams,
  getGroupResponses,
  IfMatchHeaders,
  ListGroupsQuery,
  listGroupsResponses,
  MembersBody,
  membersResponses,
  ReplaceMembershipBody,
  replaceMembershipResponses,
  UpdateGroupBody,
  updateGroupResponses,
} from './groups.schemas.js';
import {
  createGroup,
  deleteGroup,
  findGroups,
  type GroupDetail,
  readGroupDetail,
  updateGroup,
} from './groups.service.js';

export const groupsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Remembered group lists, checked against the account's groups revision on every request.
  const groupPages = createGroupPagesCache();

  /** A group's detail with its ETag: the answer of a read and of every group write. */
  const sendDetail = (reply: FastifyReply, detail: GroupDetail<Iterable<string> | AsyncIterable<string>>) =>
    sendJsonPieces(reply.header('ETag', detail.etag), presentGroupDetail(detail));
  /** The group as it now is. */
  const sendGroup = (reply: FastifyReply, accountId: number, groupId: number) =>
    readGroupDetail(app.db, accountId, groupId, (detail) => sendDetail(reply, detail));

  app.get(
    '/customer/groups/',
    {
      schema: {
        operationId: 'listGroups',
        summary: 'List groups',
        description:
          'Ordered by id. `updated_since=` reads only the groups created or changed (renamed, members added or removed) since your last sync; the ids deleted meanwhile are at `/customer/groups/deleted/`.',
        tags: ['Groups'],
        querystring: ListGroupsQuery,
        response: listGroupsResponses,
      },
      config: { permission: 'groups:read' },
    },
    async (request, reply) => {
      const page = await findGroups(
        app.db,
        request.auth.accountId,
        pageRequest(request.query),
        groupPages,
        request.query,
      );
      return reply.type('application/json; charset=utf-8').send(presentPageJson(request, page) as never);
    },
  );

  registerDeletedList(app, {
    accessPoint: 'groups',
    resource: 'group',
    operationId: 'listDeletedGroups',
    summary: 'List deleted groups’ ids',
    description:
      'The ids of the account’s groups deleted at or after `since`, oldest first: an incremental sync removes them. Paged like every list.',
    tag: 'Groups',
  });

  app.get(
    '/customer/groups/:group_id/',
    {
      schema: {
        operationId: 'getGroup',
        summary: 'Get a group with its members',
        tags: ['Groups'],
        params: GroupParams,
        response: getGroupResponses,
      },
      config: { permission: 'groups:read' },
    },
    async (request, reply) => sendGroup(reply, request.auth.accountId, request.params.group_id),
  );

  app.put(
    '/customer/groups/:group_id/',
    {
      schema: {
        operationId: 'replaceGroupMembers',
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
      return sendDetail(reply, detail);
    },
  );

  app.post(
    '/customer/groups/',
    {
      schema: {
        operationId: 'createGroup',
        summary: 'Create a group',
        tags: ['Groups'],
        body: CreateGroupBody,
        response: createGroupResponses,
      },
      config: { permission: 'groups:write', since: '2.3.0' },
    },
    async (request, reply) => {
      const group = await createGroup(app.db, request.auth.accountId, request.body);
      reply
        .code(201)
        .header('Location', absoluteUrl(request, `${app.apiPrefix}/customer/groups/${group.id}/`));
      return sendGroup(reply, request.auth.accountId, group.id);
    },
  );

  app.patch(
    '/customer/groups/:group_id/',
    {
      schema: {
        operationId: 'updateGroup',
        summary: 'Rename a group or change its description',
        description: 'Only the fields sent change; the members stay.',
        tags: ['Groups'],
        params: GroupParams,
        body: UpdateGroupBody,
        response: updateGroupResponses,
      },
      config: { permission: 'groups:write', since: '2.3.0' },
    },
    async (request, reply) => {
      const { accountId } = request.auth;
      await updateGroup(app.db, accountId, request.params.group_id, request.body);
      return sendGroup(reply, accountId, request.params.group_id);
    },
  );

  app.delete(
    '/customer/groups/:group_id/',
    {
      schema: {
        operationId: 'deleteGroup',
        summary: 'Delete a group',
        tags: ['Groups'],
        params: GroupParams,
        response: deleteGroupResponses,
      },
      config: { permission: 'groups:write', since: '2.3.0' },
    },
    async (request, reply) => {
      await deleteGroup(app.db, request.auth.accountId, request.params.group_id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/customer/groups/:group_id/members/',
    {
      schema: {
        operationId: 'addGroupMembers',
        summary: 'Add employees to a group',
        description:
          'Adds these employees and keeps every other member (those already in the group stay as they are). All or nothing: an id that is not one of the account’s employees refuses the whole request.',
        tags: ['Groups'],
        params: GroupParams,
        body: MembersBody,
        response: membersResponses('added'),
      },
      config: { permission: 'groups:write', since: '2.3.0' },
    },
    async (request, reply) => {
      const { accountId } = request.auth;
      await addGroupMembers(app.db, accountId, request.params.group_id, request.body.employee_ids);
      return sendGroup(reply, accountId, request.params.group_id);
    },
  );

  app.delete(
    '/customer/groups/:group_id/members/',
    {
      schema: {
        operationId: 'removeGroupMembers',
        summary: 'Remove employees from a group',
        description:
          'Removes these employees and keeps every other member (ids of the account’s employees who are not members are ignored). The ids go in a JSON body, as for the POST.',
        tags: ['Groups'],
        params: GroupParams,
        body: MembersBody,
        response: membersResponses('removed'),
      },
      config: { permission: 'groups:write', since: '2.3.0' },
    },
    async (request, reply) => {
      const { accountId } = request.auth;
      await removeGroupMembers(app.db, accountId, request.params.group_id, request.body.employee_ids);
      return sendGroup(reply, accountId, request.params.group_id);
    },
  );
};
