import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import {
  AccountParams,
  Body,
  IdParams,
  NoContent,
  NullableTimestamp,
  responses,
  Timestamp,
  User,
} from '../../../core/http/admin-schemas.js';
import { ListOf } from '../../../core/http/schemas.js';
import { presentAdmin } from './admins.presenter.js';
import { adminsOfAccount, removeAccountAdmin, setTriagePermission } from './admins.service.js';

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
    }),
  ],
  { title: 'Administrator' },
);

/** The administrators of an account. */
export const adminsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      const results = (await adminsOfAccount(app.db, accountOf(request).accountId)).map(presentAdmin);
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
      return presentAdmin(
        await setTriagePermission(app.db, accountId, user, request.params.id, request.body.can_triage),
      );
    },
  );

  app.delete(
    '/admins/:id',
    {
      schema: {
        tags,
        summary:
          'Operators: the administrator can no longer sign in and their sessions end. Operators are not removed this way (404)',
        params: IdParams,
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'roles:write', operatorOnly: true },
    },
    async (request, reply) => {
      await removeAccountAdmin(app.db, accountOf(request).accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
