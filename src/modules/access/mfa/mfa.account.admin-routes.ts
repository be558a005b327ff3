import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, Body, IdParams, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { AccountMfa } from './mfa.admin-schemas.js';
import { accountAdminForReset, accountMfaOverview, resetFactors, setMfaRequirement } from './mfa.service.js';

const tags = ['Sign-in security'];

/** An account's MFA requirement, and an owner's reset of another administrator's factors. */
export const mfaAccountAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/security/mfa',
    {
      schema: {
        tags,
        summary:
          'Whether MFA is required in the account (and by the operator), and how many factors each administrator has',
        params: AccountParams,
        response: responses({ 200: AccountMfa }),
      },
      config: { adminPermission: 'admins:read' },
    },
    async (request) => accountMfaOverview(app.db, accountOf(request).accountId, app.config.admin.mfaRequired),
  );

  app.put(
    '/security/mfa',
    {
      schema: {
        tags,
        summary:
          'Requires (or stops requiring) a second factor of every administrator of the account; those without one enrol at next sign-in. Owners only; recorded in the audit log',
        params: AccountParams,
        body: Body({ require_mfa: Type.Boolean() }),
        response: responses({ 200: AccountMfa }),
      },
      config: { adminPermission: 'security:write' },
    },
    async (request) => {
      const { accountId } = accountOf(request);
      await setMfaRequirement(app.db, accountId, request.body.require_mfa);
      return accountMfaOverview(app.db, accountId, app.config.admin.mfaRequired);
    },
  );

  app.delete(
    '/admins/:id/mfa',
    {
      schema: {
        tags,
        summary:
          'Resets an administrator’s second factors (a lost phone or key): all of them and their recovery codes go, and their sessions end; they enrol again at next sign-in if MFA is required. Owners only; recorded in the audit log',
        params: IdParams,
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'roles:write' },
    },
    async (request, reply) => {
      const { accountId } = accountOf(request);
      const target = await accountAdminForReset(app.db, accountId, request.params.id);
      await resetFactors(app.db, accountId, target);
      return reply.code(204).send();
    },
  );
};
