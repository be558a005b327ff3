import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { IdParams, responses } from '../../../core/http/admin-schemas.js';
import { AdminItem } from './admins.admin-routes.js';
import { presentAdmin } from './admins.presenter.js';
import { disableAdmin, enableAdmin } from './admins.status.service.js';

const tags = ['Administrators'];

/** Disabling an administrator (no sign-in, every session ends at once) and enabling them again. */
export const adminStatusAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/admins/:id/disable',
    {
      schema: {
        tags,
        summary:
          'Disables an administrator: they cannot sign in and every session of theirs ends now. Not yourself (409 self_change_refused), not the last enabled owner (409 last_owner)',
        params: IdParams,
        response: responses({ 200: AdminItem }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request) => {
      const { accountId, user } = accountOf(request);
      return presentAdmin((await disableAdmin(app.db, accountId, user, request.params.id)).admin);
    },
  );

  app.post(
    '/admins/:id/enable',
    {
      schema: {
        tags,
        summary: 'Enables a disabled administrator again: they can sign in',
        params: IdParams,
        response: responses({ 200: AdminItem }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request) =>
      presentAdmin(await enableAdmin(app.db, accountOf(request).accountId, request.params.id)),
  );
};
