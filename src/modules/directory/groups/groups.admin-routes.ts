import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { listWindow } from '../../../core/pagination.js';
import { presentEmployee } from '../employees/employees.presenter.js';
import {
  AddedByEmailResponse,
  AddedResponse,
  AdminGroup,
  CreateGroupBody,
  EmailsBody,
  EmployeeIdsBody,
  GroupIdParams,
  GroupList,
  MemberList,
  RemovedResponse,
  SearchListQuery,
  UpdateGroupBody,
} from './groups.admin-schemas.js';
import { addGroupMembers, addGroupMembersByEmail, removeGroupMembers } from './groups.membership.commands.js';
import { presentAdminGroup, presentMembershipChange } from './groups.presenter.js';
import {
  createGroup,
  deleteGroup,
  getGroup,
  groupMembersPage,
  listGroupsPage,
  updateGroup,
} from './groups.service.js';

/**
 * The admin API's group routes, relative to `/admin/api/accounts/:accountId` (whose hooks
 * have checked the session, the CSRF token and the account: `accountOf(request).accountId`).
 * Every membership change moves the group's version, so the Customer API sees a new ETag.
 */
const tags = ['Groups'];

export const groupsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups',
    {
      config: { adminPermission: 'directory:read' },
      schema: {
        tags,
        summary: 'Groups by name',
        params: AccountParams,
        querystring: SearchListQuery,
        response: responses({ 200: GroupList }),
      },
    },
    async (request) =>
      listEnvelope(
        await listGroupsPage(
          app.db,
          accountOf(request).accountId,
          request.query,
          listWindow(request.query),
          accountOf(request).groups,
        ),
        presentAdminGroup,
      ),
  );

  app.post(
    '/groups',
    {
      config: { adminPermission: 'directory:write', everyGroup: true },
      schema: {
        tags,
        summary: 'Creates a group',
        params: AccountParams,
        body: CreateGroupBody,
        response: responses({ 201: AdminGroup }),
      },
    },
    async (request, reply) => {
      const group = await createGroup(app.db, accountOf(request).accountId, request.body);
      return reply.status(201).send(presentAdminGroup(group));
    },
  );

  app.get(
    '/groups/:groupId',
    {
      config: { adminPermission: 'directory:read' },
      schema: { tags, summary: 'One group', params: GroupIdParams, response: responses({ 200: AdminGroup }) },
    },
    async (request) =>
      presentAdminGroup(await getGroup(app.db, accountOf(request).accountId, request.params.groupId)),
  );

  app.patch(
    '/groups/:groupId',
    {
      config: { adminPermission: 'directory:write' },
      schema: {
        tags,
        summary: 'Renames a group or changes its description',
        params: GroupIdParams,
        body: UpdateGroupBody,
        response: responses({ 200: AdminGroup }),
      },
    },
    async (request) =>
      presentAdminGroup(
        await updateGroup(app.db, accountOf(request).accountId, request.params.groupId, request.body),
      ),
  );

  app.delete(
    '/groups/:groupId',
    {
      config: { adminPermission: 'directory:write' },
      schema: {
        tags,
        summary: 'Deletes a group; 409 while a scheduled or active campaign targets it',
        params: GroupIdParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await deleteGroup(app.db, accountOf(request).accountId, request.params.groupId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/groups/:groupId/members',
    {
      config: { adminPermission: 'directory:read' },
      schema: {
        tags,
        summary: 'Members of a group by last name',
        params: GroupIdParams,
        querystring: SearchListQuery,
        response: responses({ 200: MemberList }),
      },
    },
    async (request) =>
      listEnvelope(
        await groupMembersPage(
          app.db,
          accountOf(request).accountId,
          request.params.groupId,
          request.query,
          listWindow(request.query),
        ),
        presentEmployee,
      ),
  );

  app.post(
    '/groups/:groupId/members',
    {
      config: { adminPermission: 'directory:write' },
      schema: {
        tags,
        summary:
          'Adds employees to a group; unknown ids: 400 `Invalid employee_ids` with `details.invalid_ids`',
        params: GroupIdParams,
        body: EmployeeIdsBody,
        response: responses({ 200: AddedResponse }),
      },
    },
    async (request) =>
      presentMembershipChange(
        await addGroupMembers(
          app.db,
          accountOf(request).accountId,
          request.params.groupId,
          request.body.employee_ids,
        ),
      ),
  );

  app.post(
    '/groups/:groupId/members/remove',
    {
      config: { adminPermission: 'directory:write' },
      schema: {
        tags,
        summary: 'Removes employees from a group (their campaign progress stays)',
        params: GroupIdParams,
        body: EmployeeIdsBody,
        response: responses({ 200: RemovedResponse }),
      },
    },
    async (request) =>
      presentMembershipChange(
        await removeGroupMembers(
          app.db,
          accountOf(request).accountId,
          request.params.groupId,
          request.body.employee_ids,
        ),
      ),
  );

  app.post(
    '/groups/:groupId/members/by-email',
    {
      config: { adminPermission: 'directory:write' },
      schema: {
        tags,
        summary: 'Adds employees by address, up to `limits.by_email_addresses` a request',
        params: GroupIdParams,
        body: EmailsBody,
        response: responses({ 200: AddedByEmailResponse }),
      },
    },
    async (request) =>
      presentMembershipChange(
        await addGroupMembersByEmail(
          app.db,
          accountOf(request).accountId,
          request.params.groupId,
          request.body.emails,
        ),
      ),
  );
};
