import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, IdParams, NoContent, responses } from '../../../core/http/admin-schemas.js';
import {
  BreakGlass,
  BreakGlassBody,
  SamlMetadataFile,
  SignInSettings,
  SignInSettingsBody,
  SsoBody,
  SsoConnectionView,
  SsoSettings,
} from './sso.admin-schemas.js';
import { ssoEnvOf } from './sso.env.service.js';
import { presentConnection, presentServiceProvider } from './sso.presenter.js';
import { serviceProviderMetadata } from './sso.saml.service.js';
import {
  changeSignInSettings,
  removeSsoConnection,
  saveSsoConnection,
  setBreakGlass,
  ssoSettingsOf,
} from './sso.service.js';

const tags = ['Single sign-on'];
// Owner-only: SSO decides who may administer the account.
const OWNER = { adminPermission: 'security:write' };

/** The account's single sign-on: its IdP, SSO only, the default role, break-glass owners. */
export const ssoAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/sso',
    {
      schema: {
        tags,
        summary:
          'The account’s SSO connection (null when none), what to give the IdP, SSO only, the default role and the owners (break-glass or not)',
        params: AccountParams,
        response: responses({ 200: SsoSettings }),
      },
      config: OWNER,
    },
    async (request) => {
      const { accountId } = accountOf(request);
      const settings = await ssoSettingsOf(app.db, accountId);
      return {
        connection: settings.connection ? presentConnection(settings.connection) : null,
        service_provider: presentServiceProvider(ssoEnvOf(app).baseUrl, accountId),
        sso_only: settings.sso_only,
        default_role: settings.default_role as never,
        owners: settings.owners,
      };
    },
  );

  app.put(
    '/sso',
    {
      schema: {
        tags,
        summary:
          'Creates or replaces the SSO connection: OIDC (issuer discovered, client secret kept when not sent) or SAML (IdP metadata pasted, or fetched once from its URL). Audited',
        params: AccountParams,
        body: SsoBody,
        response: responses({ 200: SsoConnectionView }),
      },
      config: OWNER,
    },
    async (request) => {
      const { accountId } = accountOf(request);
      return presentConnection(await saveSsoConnection(app.db, ssoEnvOf(app), accountId, request.body));
    },
  );

  app.delete(
    '/sso',
    {
      schema: {
        tags,
        summary: 'Removes the SSO connection (SSO only ends with it). Audited',
        params: AccountParams,
        response: responses({ 204: NoContent }),
      },
      config: OWNER,
    },
    async (request, reply) => {
      await removeSsoConnection(app.db, accountOf(request).accountId);
      return reply.code(204).send();
    },
  );

  app.put(
    '/sso/sign-in',
    {
      schema: {
        tags,
        summary:
          'SSO only (needs an enabled connection and a break-glass owner with MFA) and the role of administrators SSO creates. Audited',
        params: AccountParams,
        body: SignInSettingsBody,
        response: responses({ 200: SignInSettings }),
      },
      config: OWNER,
    },
    async (request) => {
      const settings = await changeSignInSettings(app.db, accountOf(request).accountId, request.body);
      return { sso_only: settings.sso_only, default_role: settings.default_role as never };
    },
  );

  app.put(
    '/sso/break-glass/:id',
    {
      schema: {
        tags,
        summary:
          'Names an owner break-glass (may still sign in with a password, with MFA, when SSO only) or withdraws it. Audited',
        params: IdParams,
        body: BreakGlassBody,
        response: responses({ 200: BreakGlass }),
      },
      config: OWNER,
    },
    async (request) =>
      setBreakGlass(app.db, accountOf(request).accountId, request.params.id, request.body.break_glass),
  );

  app.get(
    '/sso/saml-metadata',
    {
      schema: {
        tags,
        summary:
          'Vigil’s SAML service-provider metadata for this account (to upload to the IdP), before or after SAML is set up',
        params: AccountParams,
        response: responses({ 200: SamlMetadataFile }),
      },
      config: OWNER,
    },
    async (request, reply) => {
      const { accountId } = accountOf(request);
      return reply
        .type('application/samlmetadata+xml')
        .header('content-disposition', `attachment; filename="vigil-sp-metadata-${accountId}.xml"`)
        .send(await serviceProviderMetadata(ssoEnvOf(app).baseUrl, accountId));
    },
  );
};
