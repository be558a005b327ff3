import fastifyCookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SsoProtocol } from '../../../core/db/schema.js';
import { AppError } from '../../../core/errors.js';
import { KIB } from '../../../core/http/bodies.js';
import { parseId } from '../../../core/ids.js';
import { setSessionCookie } from '../sessions/sessions.cookie.service.js';
import type { SessionLifetime } from '../sessions/sessions.service.js';
import { ssoEnvOf } from './sso.env.service.js';
import { MAX_SAML_RESPONSE_BYTES, REQUEST_TTL_MS, type RefusalReason, SsoRefusal } from './sso.model.js';
import { finishOidcSignIn, startOidcSignIn } from './sso.oidc.service.js';
import { refusalPage } from './sso.pages.presenter.js';
import { finishSamlSignIn, serviceProviderMetadata, startSamlSignIn } from './sso.saml.service.js';
import { connectionOf, findConnectionForEmail, ssoUrls, usableConnection } from './sso.service.js';
import { type IdpIdentity, recordRefusal, signInFromIdp } from './sso.sign-in.service.js';

export interface SsoRouteOptions {
  lifetime: SessionLifetime;
}

/** The browser's binding of an OIDC sign-in to itself: only the hash of its token is stored. */
const BINDING_COOKIE = 'vigil_sso';
const SIGN_IN_PAGE = '/admin/';

const AccountParams = Type.Object({ accountId: Type.String({ maxLength: 32 }) });

/**
 * Single sign-on's public routes, under `/sso`: start a sign-in (by account, or by the person's
 * email domain), the OIDC callback, the SAML assertion consumer service and Vigil's SP metadata.
 * A refused sign-in answers an HTML page that says why (and a log line, and a row in the
 * account's audit log), and creates nothing.
 */
export const ssoRoutes: FastifyPluginAsyncTypebox<SsoRouteOptions> = async (app, options) => {
  await app.register(fastifyCookie);
  await app.register(formbody, { bodyLimit: MAX_SAML_RESPONSE_BYTES + 16 * KIB });

  const refuse = async (
    request: FastifyRequest,
    reply: FastifyReply,
    accountId: number | null,
    protocol: SsoProtocol | null,
    refusal: SsoRefusal,
    email: string | null = null,
  ) => {
    request.log.warn(
      {
        sso: { account: accountId, protocol, reason: refusal.reason, detail: refusal.detail?.slice(0, 300) },
      },
      'single sign-on refused',
    );
    if (accountId !== null && protocol !== null && refusal.reason !== 'not_configured') {
      await recordRefusal(app.db, accountId, protocol, refusal.reason, email);
    }
    const status = statusOf(refusal.reason);
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(refusalPage(refusal.reason, SIGN_IN_PAGE));
  };

  const signedIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    protocol: SsoProtocol,
    connection: Awaited<ReturnType<typeof connectionOf>>,
    identity: IdpIdentity,
  ) => {
    if (!connection) throw new SsoRefusal('not_configured');
    const session = await signInFromIdp(app.db, {
      connection,
      protocol,
      identity,
      previous: null,
      lifetime: options.lifetime,
      address: request.ip,
      userAgent: String(request.headers['user-agent'] ?? '').slice(0, 500) || null,
    });
    request.log.info(
      { sso: { account: connection.accountId, protocol, admin: session.admin.id, created: session.created } },
      'single sign-on',
    );
    setSessionCookie(reply, session.token, options.lifetime.maxMs);
    return reply.code(303).header('cache-control', 'no-store').redirect(SIGN_IN_PAGE, 303);
  };

  /** The enabled connection of the account in the path, or a refusal. */
  const connectionFor = async (raw: string) => {
    const accountId = parseId(raw);
    const connection = accountId === null ? null : await connectionOf(app.db, accountId);
    return { accountId, connection: usableConnection(connection) };
  };

  app.get(
    '/start',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 254 })) }),
      },
    },
    async (request, reply) => {
      const email = request.query.email ?? '';
      const connection = await findConnectionForEmail(app.db, email);
      if (!connection) return refuse(request, reply, null, null, new SsoRefusal('not_configured'));
      return reply.redirect(ssoUrls('', connection.accountId).login, 303);
    },
  );

  app.get('/:accountId/login', { schema: { hide: true, params: AccountParams } }, async (request, reply) => {
    const { accountId, connection } = await connectionFor(request.params.accountId);
    if (accountId === null || !connection) {
      return refuse(request, reply, null, null, new SsoRefusal('not_configured'));
    }
    const env = ssoEnvOf(app);
    try {
      if (connection.protocol === 'oidc') {
        const started = await startOidcSignIn(
          app.db,
          env,
          connection,
          ssoUrls(env.baseUrl, accountId).oidcRedirect,
        );
        reply.setCookie(BINDING_COOKIE, started.bindingToken, {
          path: `/sso/${accountId}/oidc`,
          httpOnly: true,
          sameSite: 'lax',
          secure: 'auto',
          maxAge: REQUEST_TTL_MS / 1000,
        });
        return reply.header('cache-control', 'no-store').redirect(started.url, 303);
      }
      return reply
        .header('cache-control', 'no-store')
        .redirect(await startSamlSignIn(app.db, env.baseUrl, connection), 303);
    } catch (err) {
      if (err instanceof SsoRefusal) return refuse(request, reply, accountId, connection.protocol, err);
      throw err;
    }
  });

  app.get(
    '/:accountId/oidc/callback',
    { schema: { hide: true, params: AccountParams }, config: { secretQuery: ['code', 'state'] } },
    async (request, reply) => {
      const { accountId, connection } = await connectionFor(request.params.accountId);
      if (accountId === null || !connection || connection.protocol !== 'oidc') {
        return refuse(request, reply, null, null, new SsoRefusal('not_configured'));
      }
      const env = ssoEnvOf(app);
      const query = request.query as Record<string, unknown>;
      const bindingToken = request.cookies[BINDING_COOKIE];
      reply.clearCookie(BINDING_COOKIE, {
        path: `/sso/${accountId}/oidc`,
        httpOnly: true,
        sameSite: 'lax',
        secure: 'auto',
      });
      let identity: IdpIdentity;
      try {
        identity = await finishOidcSignIn(
          app.db,
          env,
          connection,
          ssoUrls(env.baseUrl, accountId).oidcRedirect,
          {
            query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
            state: typeof query.state === 'string' ? query.state : undefined,
            bindingToken,
          },
        );
      } catch (err) {
        if (err instanceof SsoRefusal) return refuse(request, reply, accountId, 'oidc', err);
        throw err;
      }
      try {
        return await signedIn(request, reply, 'oidc', connection, identity);
      } catch (err) {
        if (err instanceof SsoRefusal) return refuse(request, reply, accountId, 'oidc', err, identity.email);
        throw err;
      }
    },
  );

  app.post(
    '/:accountId/saml/acs',
    {
      schema: { hide: true, params: AccountParams },
      config: {
        body: { accepts: { 'application/x-www-form-urlencoded': MAX_SAML_RESPONSE_BYTES + 16 * KIB } },
      },
    },
    async (request, reply) => {
      const { accountId, connection } = await connectionFor(request.params.accountId);
      if (accountId === null || !connection || connection.protocol !== 'saml') {
        return refuse(request, reply, null, null, new SsoRefusal('not_configured'));
      }
      const body = (request.body ?? {}) as Record<string, unknown>;
      const env = ssoEnvOf(app);
      let identity: IdpIdentity;
      try {
        identity = await finishSamlSignIn(app.db, env.baseUrl, connection, body.SAMLResponse);
      } catch (err) {
        if (err instanceof SsoRefusal) return refuse(request, reply, accountId, 'saml', err);
        throw err;
      }
      try {
        return await signedIn(request, reply, 'saml', connection, identity);
      } catch (err) {
        if (err instanceof SsoRefusal) return refuse(request, reply, accountId, 'saml', err, identity.email);
        throw err;
      }
    },
  );

  app.get(
    '/:accountId/saml/metadata',
    { schema: { hide: true, params: AccountParams } },
    async (request, reply) => {
      const accountId = parseId(request.params.accountId);
      const connection = accountId === null ? null : await connectionOf(app.db, accountId);
      if (accountId === null || !connection || connection.protocol !== 'saml')
        throw new AppError('sso_not_found');
      return reply
        .type('application/samlmetadata+xml')
        .send(await serviceProviderMetadata(ssoEnvOf(app).baseUrl, accountId));
    },
  );
};

function statusOf(reason: RefusalReason): number {
  if (reason === 'not_configured') return 404;
  if (reason === 'malformed') return 400;
  return 403;
}
