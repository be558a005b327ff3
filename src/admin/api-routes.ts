import type { FastifyInstance, RouteOptions } from 'fastify';
import { forbidden, roleLacksPermission, scopeTooNarrow } from '../core/errors.js';
import { sessionOf } from '../core/http/admin-request.js';
import { parseId } from '../core/ids.js';
import { accountAdminRoutes, accountsAdminRoutes } from '../modules/access/accounts/accounts.admin-routes.js';
import { accountBrandingAdminRoutes } from '../modules/access/accounts/accounts.branding.admin-routes.js';
import { accountNotFound, getAccount } from '../modules/access/accounts/accounts.service.js';
import { adminsAdminRoutes } from '../modules/access/admins/admins.admin-routes.js';
import { canActInAccount } from '../modules/access/admins/admins.service.js';
import { adminStatusAdminRoutes } from '../modules/access/admins/admins.status.admin-routes.js';
import { auditAdminRoutes } from '../modules/access/audit/audit.admin-routes.js';
import { invitationsAdminRoutes } from '../modules/access/invitations/invitations.admin-routes.js';
import { keysAdminRoutes } from '../modules/access/keys/keys.admin-routes.js';
import { mfaAccountAdminRoutes } from '../modules/access/mfa/mfa.account.admin-routes.js';
import { mfaAdminRoutes } from '../modules/access/mfa/mfa.admin-routes.js';
import {
  ADMIN_PERMISSIONS,
  actsOnWholeAccount,
  isAdminPermission,
  ROLE_NAMES,
  ROUTE_ACCESS,
  roleAllows,
} from '../modules/access/roles/roles.model.js';
import { groupScopeOf } from '../modules/access/roles/roles.repository.js';
import { sessionsAdminRoutes } from '../modules/access/sessions/sessions.admin-routes.js';
import {
  adminSessionsAdminRoutes,
  ownSessionsAdminRoutes,
} from '../modules/access/sessions/sessions.devices.admin-routes.js';
import { invitationLinkRoutes } from '../modules/access/sessions/sessions.invitation-links.admin-routes.js';
import { sessionsMfaAdminRoutes } from '../modules/access/sessions/sessions.mfa.admin-routes.js';
import type { AdminOptions } from '../modules/access/sessions/sessions.options.model.js';
import { ssoAdminRoutes } from '../modules/access/sso/sso.admin-routes.js';
import { employeesAdminRoutes } from '../modules/directory/employees/employees.admin-routes.js';
import { groupsAdminRoutes } from '../modules/directory/groups/groups.admin-routes.js';
import { scimTokensAdminRoutes } from '../modules/integrations/scim/scim.tokens.admin-routes.js';
import { webhooksAdminRoutes } from '../modules/integrations/webhooks/webhooks.admin-routes.js';
import { messagesAdminRoutes } from '../modules/mail/mail.messages.admin-routes.js';
import { overviewAdminRoutes } from '../modules/overview/index.js';
import { phishingCampaignsAdminRoutes } from '../modules/phishing/campaigns/campaigns.admin-routes.js';
import { phishingDeliveryAdminRoutes } from '../modules/phishing/delivery/delivery.admin-routes.js';
import { mailboxAdminRoutes } from '../modules/phishing/mailbox/mailbox.admin-routes.js';
import { phishingResultsAdminRoutes } from '../modules/phishing/results/results.admin-routes.js';
import { phishingEventsAdminRoutes } from '../modules/phishing/results/results.events.admin-routes.js';
import { employeeTrainingAdminRoutes } from '../modules/phishing/results/results.training.admin-routes.js';
import { phishingTemplatesAdminRoutes } from '../modules/phishing/templates/templates.admin-routes.js';
import { triageAdminRoutes } from '../modules/phishing/triage/triage.admin-routes.js';
import { campaignsAdminRoutes } from '../modules/training/campaigns/campaigns.admin-routes.js';
import { coursesAdminRoutes } from '../modules/training/courses/courses.admin-routes.js';
import { checkGroupScope } from './group-scope.js';
import { limitsRoutes } from './limits.js';
import { adminOpenApiRoutes } from './openapi.js';

/**
 * Every route of the admin API, relative to /admin/api. The plugin registers them behind its
 * session and CSRF hooks; the OpenAPI document is made from the same registration.
 */
export async function adminApiRoutes(api: FastifyInstance, options: AdminOptions): Promise<void> {
  api.addHook('onRoute', checkDeclaredPermission);
  await api.register(adminOpenApiRoutes);
  await api.register(limitsRoutes);
  await api.register(sessionsAdminRoutes, options);
  await api.register(ownSessionsAdminRoutes);
  await api.register(invitationLinkRoutes, options);
  await api.register(sessionsMfaAdminRoutes, options);
  await api.register(mfaAdminRoutes);
  await api.register(accountsAdminRoutes);
  await api.register(
    async (account) => {
      // The one place a path id is read before validation: another account's path (like a
      // nonexistent account's) is a 404 before any 400 of the request's body or query.
      account.addHook('onRequest', async (request) => {
        if (request.is404) return;
        const user = sessionOf(request).admin;
        const id = parseId((request.params as { accountId: string }).accountId);
        if (id === null || !canActInAccount(user, id)) throw accountNotFound();
        await getAccount(account.db, id);
        const operator = user.role === 'operator';
        const needed = request.routeOptions.config?.adminPermission;
        const groups = operator ? null : await groupScopeOf(account.db, id, user.id);
        // A role limited to groups never acts on the whole account (a key would read everyone),
        // whatever its permissions: checked first, so the answer says so.
        if (groups !== null && actsOnWholeAccount(needed, request.routeOptions.config?.adminScope)) {
          throw scopeTooNarrow(
            'Your role is limited to groups, and this acts on the whole account: ask an administrator of every group',
          );
        }
        // `operator` routes: the plugin's operatorOnly hook has refused everyone else.
        if (isAdminPermission(needed) && !roleAllows(user.account_role, operator, needed)) {
          const role = user.account_role ? ROLE_NAMES[user.account_role] : 'No role';
          throw roleLacksPermission(`${role} lacks the permission ${needed}`);
        }
        // Reported mail may hold personal data: only administrators with the triage permission read it.
        if (request.routeOptions.config?.triage && user.can_triage !== 1) {
          throw forbidden('Reading reported mail needs the triage permission');
        }
        request.admin = { user, accountId: id, groups };
      });
      // A role limited to groups: what lies outside them answers as if it did not exist.
      account.addHook('preHandler', async (request) => {
        const { accountId, groups } = request.admin ?? {};
        if (!groups || accountId === undefined) return;
        await checkGroupScope(account.db, request, accountId, groups);
      });
      await account.register(accountAdminRoutes);
      await account.register(accountBrandingAdminRoutes);
      await account.register(overviewAdminRoutes);
      await account.register(adminsAdminRoutes);
      await account.register(adminStatusAdminRoutes);
      await account.register(adminSessionsAdminRoutes);
      await account.register(invitationsAdminRoutes);
      await account.register(mfaAccountAdminRoutes);
      await account.register(keysAdminRoutes, options);
      await account.register(ssoAdminRoutes);
      await account.register(scimTokensAdminRoutes);
      await account.register(employeesAdminRoutes);
      await account.register(groupsAdminRoutes);
      await account.register(campaignsAdminRoutes);
      await account.register(coursesAdminRoutes);
      await account.register(messagesAdminRoutes);
      await account.register(phishingTemplatesAdminRoutes);
      await account.register(phishingResultsAdminRoutes);
      await account.register(phishingEventsAdminRoutes);
      await account.register(employeeTrainingAdminRoutes);
      await account.register(phishingCampaignsAdminRoutes);
      await account.register(phishingDeliveryAdminRoutes);
      await account.register(webhooksAdminRoutes);
      await account.register(triageAdminRoutes);
      await account.register(mailboxAdminRoutes);
      await account.register(auditAdminRoutes);
    },
    { prefix: '/accounts/:accountId' },
  );
}

const ACCOUNT_PREFIX = '/admin/api/accounts/:accountId';

/**
 * Refuses at boot an admin route that declares no permission, or one that does not fit where it
 * is: under an account an ADMIN_PERMISSIONS entry (or `operator`), elsewhere `public`,
 * `signed-in` or `operator`; `public` exactly on the routes open to anyone, `operator` exactly
 * on the operators' routes; `adminScope` only `account`, only on an account's routes (not the
 * operators').
 */
export function checkDeclaredPermission(route: RouteOptions): void {
  const declared = route.config?.adminPermission;
  const where = `admin route ${[route.method].flat().join(',')} ${route.url}`;
  const inAccount = route.url.startsWith(ACCOUNT_PREFIX);
  const allowed: readonly string[] = inAccount ? [...ADMIN_PERMISSIONS, 'operator'] : ROUTE_ACCESS;
  if (declared === undefined) throw new Error(`${where} declares no config.adminPermission`);
  if (!allowed.includes(declared)) {
    throw new Error(`${where} declares adminPermission '${declared}', not one of ${allowed.join(', ')}`);
  }
  if ((declared === 'public') !== Boolean(route.config?.adminPublic)) {
    throw new Error(`${where}: adminPermission 'public' goes with adminPublic: true, and only with it`);
  }
  if ((declared === 'operator') !== Boolean(route.config?.operatorOnly)) {
    throw new Error(`${where}: adminPermission 'operator' goes with operatorOnly: true, and only with it`);
  }
  const scope = route.config?.adminScope;
  if (scope !== undefined && (scope !== 'account' || !inAccount || declared === 'operator')) {
    throw new Error(
      `${where}: adminScope may only be 'account', on a route of an account that is not for operators`,
    );
  }
}
