import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf, listEnvelope, listQueryFields, listWindow } from '../../admin/list.js';
import { Account, NameBody } from '../../admin/schemas.js';
import { presentAccount } from './accounts.presenter.js';
import {
  accountOverview,
  createAccount,
  findAccounts,
  getAccount,
  renameAccount,
} from './accounts.service.js';

/** Customer accounts: operators see and manage all of them; an administrator sees their own. */
export const accountsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/accounts',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ ...listQueryFields, search: Type.Optional(Type.String()) }),
        response: { 200: ListOf(Account) },
      },
    },
    async (request) =>
      listEnvelope(
        await findAccounts(app.db, request.admin.user, request.query.search, listWindow(request.query)),
        presentAccount,
      ),
  );

  app.post(
    '/accounts',
    { schema: { hide: true, body: NameBody, response: { 201: Account } }, config: { operatorOnly: true } },
    async (request, reply) => reply.code(201).send(presentAccount(await createAccount(app.db, request.body))),
  );
};

/** One account (the scope has checked the user may act in it). */
export const accountAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: { hide: true, response: { 200: Account } } }, async (request) =>
    presentAccount(await getAccount(app.db, request.admin.accountId)),
  );

  app.patch(
    '/',
    { schema: { hide: true, body: NameBody, response: { 200: Account } }, config: { operatorOnly: true } },
    async (request) => presentAccount(await renameAccount(app.db, request.admin.accountId, request.body)),
  );

  app.get(
    '/overview',
    {
      schema: {
        hide: true,
        response: {
          200: Type.Object({
            employees: Type.Integer(),
            groups: Type.Integer(),
            campaigns: Type.Integer(),
            active_keys: Type.Integer(),
          }),
        },
      },
    },
    async (request) => accountOverview(app.db, request.admin.accountId),
  );
};
