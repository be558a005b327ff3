import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf } from '../../admin/list.js';
import { IdParams, NullableTimestamp, Timestamp, User } from '../../admin/schemas.js';
import { presentAdmin } from './admins.presenter.js';
import { adminsOfAccount, removeAccountAdmin } from './admins.service.js';

const AdminItem = Type.Composite([
  User,
  Type.Object({ created_at: Timestamp, last_sign_in_at: NullableTimestamp }),
]);

/** The administrators of an account. */
export const adminsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/admins', { schema: { hide: true, response: { 200: ListOf(AdminItem) } } }, async (request) => {
    const results = (await adminsOfAccount(app.db, request.admin.accountId)).map(presentAdmin);
    return { count: results.length, results };
  });

  app.delete(
    '/admins/:id',
    { schema: { hide: true, params: IdParams }, config: { operatorOnly: true } },
    async (request, reply) => {
      await removeAccountAdmin(app.db, request.admin.accountId, request.params.id);
      return reply.code(204).send();
    },
  );
};
