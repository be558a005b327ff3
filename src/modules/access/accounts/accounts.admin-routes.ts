import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf, sessionOf } from '../../../core/http/admin-request.js';
import { Account, AccountParams, NameBody, responses } from '../../../core/http/admin-schemas.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { ListOf, listQueryFields } from '../../../core/http/schemas.js';
import { listWindow } from '../../../core/pagination.js';
import { presentAccount } from './accounts.presenter.js';
import { createAccount, findAccounts, getAccount, renameAccount } from './accounts.service.js';

const tags = ['Accounts'];

/** Customer accounts: operators see and manage all of them; an administrator sees their own. */
export const accountsAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/accounts',
    {
      config: { adminPermission: 'signed-in' },
      schema: {
        tags,
        summary: 'Customer accounts by name (an account administrator sees only their own)',
        querystring: Type.Object({ ...listQueryFields, search: Type.Optional(Type.String()) }),
        response: responses({ 200: ListOf(Account) }),
      },
    },
    async (request) =>
      listEnvelope(
        await findAccounts(app.db, sessionOf(request).admin, request.query.search, listWindow(request.query)),
        presentAccount,
      ),
  );

  app.post(
    '/accounts',
    {
      schema: {
        tags,
        summary: 'Operators: creates a customer account',
        body: NameBody,
        response: responses({ 201: Account }),
      },
      config: { adminPermission: 'operator', operatorOnly: true },
    },
    async (request, reply) => reply.code(201).send(presentAccount(await createAccount(app.db, request.body))),
  );
};

/** One account (the scope has checked the user may act in it). */
export const accountAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      config: { adminPermission: 'account:read' },
      schema: { tags, summary: 'One account', params: AccountParams, response: responses({ 200: Account }) },
    },
    async (request) => presentAccount(await getAccount(app.db, accountOf(request).accountId)),
  );

  app.patch(
    '/',
    {
      schema: {
        tags,
        summary: 'Operators: renames an account',
        params: AccountParams,
        body: NameBody,
        response: responses({ 200: Account }),
      },
      config: { adminPermission: 'operator', operatorOnly: true },
    },
    async (request) =>
      presentAccount(await renameAccount(app.db, accountOf(request).accountId, request.body)),
  );
};
