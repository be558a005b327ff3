import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../../core/errors.js';
import { accountOf } from '../../../core/http/admin-request.js';
import {
  AccountParams,
  AccountRoleSchema,
  Body,
  GroupScope,
  IdParams,
  NoContent,
  NullableTimestamp,
  responses,
  Timestamp,
  User,
} from '../../../core/http/admin-schemas.js';
import { ListOf, MAX_ID } from '../../../core/http/schemas.js';
import { changeRole } from '../roles/roles.service.js';
import { presentAdmin } from './admins.presenter.js';
import { adminsWithScopes, removeAccountAdmin, setTriagePermission } from './admins.service.js';

const tags = ['Administrators'];

export const AdminItem = Type.Composite(
  [
    User,
    Type.Object({
      created_at: Timestamp,
      last_sign_in_at: NullableTimestamp,
      can_triage: Type.Boolean({
        description: 'May read reported mail and give verdicts (the triage permission).',
      }),
      disabled_at: Type.Union([Timestamp, Type.Null()], {
        description: 'When an owner or operator disabled them: no sign-in, no session. Null: enabled.',
      }),
      groups: GroupScope,
    }),
  ],
  { title: 'Administrator' },
);

/** The administrators of an account. */
export const adminsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** One administrator of the account as the list shows them (after a change). */
  const presentOne = async (accountId: number, adminId: number) => {
    const found = (await adminsWithScopes(app.db, accountId)).find(([admin]) => admin.id === adminId);
    if (!found) throw new AppError('admin_not_found');
    return presentAdmin(...found);
  };

  app.get(
    '/admins',
    {
      config: { adminPermission: 'admins:read' },
      schema: {
        tags,
        summary: "The account's administrators",
        params: AccountParams,
        response: responses({ 200: ListOf(AdminItem) }),
      },
    },
    async (request) => {
      const admins = await adminsWithScopes(app.db, accountOf(request).accountId);
      const results = admins.map(([admin, groups]) => presentAdmin(admin, groups));
      return { count: results.length, results };
    },
  );

  app.put(
    '/admins/:id/triage',
    {
      config: { adminPermission: 'roles:write' },
      schema: {
        tags,
        summary:
          'Grants or withdraws the triage permission (reading reported mail, giving verdicts); only a holder may change it',
        params: IdParams,
        body: Body({ can_triage: Type.Boolean() }),
        response: responses({ 200: AdminItem }),
      },
    },
    async (request) => {
      const { accountId, user } = accountOf(request);
      await setTriagePermission(app.db, accountId, user, request.params.id, request.body.can_triage);
      return presentOne(accountId, request.params.id);
    },
  );

  app.put(
    '/admins/:id/role',
    {
      config: { adminPermission: 'roles:write' },
      schema: {
        tags,
        summary:
          'Owners: sets an administrator’s role and the groups it is limited to (`group_ids` empty: every group). Nobody changes their own; the last owner stays an owner (409)',
        params: IdParams,
        body: Body({
          role: AccountRoleSchema,
          group_ids: Type.Optional(
            Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 500 }),
          ),
        }),
        response: responses({ 200: AdminItem }),
      },
    },
    async (request) => {
      const { accountId, user } = accountOf(request);
      await changeRole(app.db, accountId, user.id, request.params.id, request.body);
      return presentOne(accountId, request.params.id);
    },
  );

  app.delete(
    '/admins/:id',
    {
      schema: {
        tags,
        summary:
          'Owners: the administrator can no longer sign in and their sessions end. Operators are not removed this way (404); the last owner stays (409)',
        params: IdParams,
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request, reply) => {
      await removeAccountAdmin(app.db, accountOf(request).accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
