import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listEnvelope, listWindow } from '../../admin/list.js';
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
import { addGroupMembers, addGroupMembersByEmail, removeGroupMembers } from './groups.membership.js';
import { presentAdminGroup } from './groups.presenter.js';
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
 * have checked the session, the CSRF token and the account: `request.admin.accountId`).
 * Every membership change moves the group's version, so the Customer API sees a new ETag.
 */
export const groupsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/groups',
    { schema: { hide: true, querystring: SearchListQuery, response: { 200: GroupList } } },
    async (request) => {
      const { search } = request.query;
      const page = await listGroupsPage(
        app.db,
        request.admin.accountId,
        { search },
        listWindow(request.query),
      );
      return listEnvelope(page, presentAdminGroup);
    },
  );

  app.post(
    '/groups',
    { schema: { hide: true, body: CreateGroupBody, response: { 201: AdminGroup } } },
    async (request, reply) => {
      const group = await createGroup(app.db, request.admin.accountId, request.body);
      return reply.status(201).send(presentAdminGroup(group));
    },
  );

  app.get(
    '/groups/:groupId',
    { schema: { hide: true, params: GroupIdParams, response: { 200: AdminGroup } } },
    async (request) =>
      presentAdminGroup(await getGroup(app.db, request.admin.accountId, request.params.groupId)),
  );

  app.patch(
    '/groups/:groupId',
    { schema: { hide: true, params: GroupIdParams, body: UpdateGroupBody, response: { 200: AdminGroup } } },
    async (request) =>
      presentAdminGroup(
        await updateGroup(app.db, request.admin.accountId, request.params.groupId, request.body),
      ),
  );

  app.delete(
    '/groups/:groupId',
    { schema: { hide: true, params: GroupIdParams } },
    async (request, reply) => {
      await deleteGroup(app.db, request.admin.accountId, request.params.groupId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/groups/:groupId/members',
    {
      schema: {
        hide: true,
        params: GroupIdParams,
        querystring: SearchListQuery,
        response: { 200: MemberList },
      },
    },
    async (request) => {
      const { search } = request.query;
      const page = await groupMembersPage(
        app.db,
        request.admin.accountId,
        request.params.groupId,
        { search },
        listWindow(request.query),
      );
      return listEnvelope(page, presentEmployee);
    },
  );

  app.post(
    '/groups/:groupId/members',
    {
      schema: { hide: true, params: GroupIdParams, body: EmployeeIdsBody, response: { 200: AddedResponse } },
    },
    async (request) => {
      const { added, group } = await addGroupMembers(
        app.db,
        request.admin.accountId,
        request.params.groupId,
        request.body.employee_ids,
      );
      return { added, group: presentAdminGroup(group) };
    },
  );

  app.post(
    '/groups/:groupId/members/remove',
    {
      schema: {
        hide: true,
        params: GroupIdParams,
        body: EmployeeIdsBody,
        response: { 200: RemovedResponse },
      },
    },
    async (request) => {
      const { removed, group } = await removeGroupMembers(
        app.db,
        request.admin.accountId,
        request.params.groupId,
        request.body.employee_ids,
      );
      return { removed, group: presentAdminGroup(group) };
    },
  );

  app.post(
    '/groups/:groupId/members/by-email',
    {
      schema: {
        hide: true,
        params: GroupIdParams,
        body: EmailsBody,
        response: { 200: AddedByEmailResponse },
      },
    },
    async (request) => {
      const result = await addGroupMembersByEmail(
        app.db,
        request.admin.accountId,
        request.params.groupId,
        request.body.emails,
      );
      return { ...result, group: presentAdminGroup(result.group) };
    },
  );
};
