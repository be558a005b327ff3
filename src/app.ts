import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { RouteOptions } from 'fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { adminPlugin } from './admin/plugin.js';
import { registerAuthentication } from './api/authenticate.js';
import { docsRoutes } from './api/docs.routes.js';
import { registerOpenApi } from './api/openapi.js';
import { LastUsedTracker } from './core/auth/last-used.js';
import { createRateLimiter } from './core/auth/rate-limit.js';
import { openSecretBox, type SecretBox } from './core/auth/secret-box.js';
import { createSignInThrottle } from './core/auth/sign-in-throttle.js';
import type { Config } from './core/config.js';
import type { Database, Db } from './core/db/database.js';
import { invalidHost } from './core/errors.js';
import { API_VERSION, answerPinnedVersion, registerRouteVersions } from './core/http/api-version.js';
import { registerAuditScope } from './core/http/audit-scope.js';
import { acceptBodies, jsonBody, registerBodyPolicies, UNUSED_BODY_LIMIT } from './core/http/bodies.js';
import { httpServerOptions } from './core/http/client-errors.js';
import { registerErrorHandler, sendError, toAppError } from './core/http/errors.js';
import { SECURITY_HEADERS } from './core/http/headers.js';
import { isUsableHost, phishBaseUrl, publicBaseUrl } from './core/http/links.js';
import { createLogger, requestId } from './core/http/logging.js';
import { redactUrl, registerSecretRoutes } from './core/http/redaction.js';
import { registerRouteFallbacks } from './core/http/routing.js';
import { validatorCompiler } from './core/http/validation.js';
import { SharedRedis } from './core/redis.js';
import { healthRoutes } from './metrics/health.routes.js';
import { createAppMetrics } from './metrics/metrics.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { Readiness } from './metrics/readiness.js';
import { auditRoutes } from './modules/access/audit/audit.routes.js';
import { recordKeysLastUsedOfAllAccounts } from './modules/access/keys/keys.repository.js';
import { ssoRoutes } from './modules/access/sso/sso.routes.js';
import { employeesRoutes } from './modules/directory/employees/employees.routes.js';
import { groupsRoutes } from './modules/directory/groups/groups.routes.js';
import { registerIdempotency } from './modules/integrations/idempotency/idempotency.hooks.service.js';
import { scimPlugin } from './modules/integrations/scim/scim.plugin.routes.js';
import { recordScimTokensLastUsedOfAllAccounts } from './modules/integrations/scim/scim.tokens.repository.js';
import { webhooksRoutes } from './modules/integrations/webhooks/webhooks.routes.js';
import { outlookAddinRoutes } from './modules/phishing/addin/addin.routes.js';
import { reportIntakeRoutes } from './modules/phishing/reports/reports.intake.routes.js';
import type { ReportIntake } from './modules/phishing/reports/reports.intake.service.js';
import { createReportedMessageReader } from './modules/phishing/reports/reports.reader.service.js';
import { phishingReportRoutes } from './modules/phishing/reports/reports.routes.js';
import { phishingRoutes } from './modules/phishing/results/results.routes.js';
import { builtInPhishingTemplates } from './modules/phishing/templates/templates.library.service.js';
import { phishingTrackingRoutes } from './modules/phishing/tracking/tracking.routes.js';
import { createStepMachine } from './modules/phishing/tracking/tracking.steps.batch.commands.js';
import { triageRoutes } from './modules/phishing/triage/triage.routes.js';
import { campaignsRoutes } from './modules/training/campaigns/campaigns.routes.js';
import { learnerRoutes } from './modules/training/learner/learner.routes.js';
import { loadSubscriptions } from './subscriptions.js';

export const API_PREFIX = '/api/api_gateway';
// Long enough that any over-long id reaches its route and is simply not found.
const MAX_PARAM_LENGTH = 8192;

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    apiPrefix: string;
    /** The configuration the app was built with (read-only). */
    config: Config;
    /** Takes every report of a message (the add-in, the Customer API, the reporting address). */
    reportIntake: ReportIntake;
    /** Seals and opens the secrets Vigil reads back (TOTP seeds, SSO client secrets): SECRETS_KEY's. */
    secretBox: SecretBox;
  }
}

export interface AppOptions {
  config: Config;
  /** An open, migrated database; the app closes it when it closes. */
  database: Database;
  /** Where log lines go (standard output, buffered, when absent). */
  logStream?: DestinationStream;
  /** The logger itself (the server makes it first, to log while it waits for the database). */
  logger?: Logger;
  /** Told of every route as it is registered (tests enumerate the routes with it). */
  onRoute?: (route: RouteOptions) => void;
}

/** Headers every response carries: the API version and the security headers. */
const STATIC_HEADERS = { 'x-api-version': API_VERSION, ...SECURITY_HEADERS };

/** Hosts already checked by isUsableHost (a client sends the same few again and again). */
const usableHosts = new Map<string, boolean>();
function isUsableHostCached(host: string): boolean {
  let usable = usableHosts.get(host);
  if (usable === undefined) {
    usable = isUsableHost(host);
    if (usableHosts.size >= 1000) usableHosts.clear();
    usableHosts.set(host, usable);
  }
  return usable;
}

/** Builds the whole HTTP application; never listens. Tests, the CLI and the server share it. */
export async function buildApp({
  config,
  database,
  logStream,
  logger,
  onRoute,
}: AppOptions): Promise<FastifyInstance> {
  loadSubscriptions(); // the event subscribers every entry point shares (idempotent)
  builtInPhishingTemplates(); // checks content/phishing/ once: a broken template stops the start, named
  const app = Fastify({
    loggerInstance: (logger ?? createLogger(config.logLevel, logStream)) as FastifyBaseLogger,
    genReqId: requestId,
    // Our own onResponse hook logs one line per request (URL redacted).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    ...httpServerOptions(config),
    // Unknown fields are ignored (contract), `__proto__` and `constructor.prototype` included:
    // they are dropped while parsing, so they can never reach an object's prototype.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // A hop count is valid at run time (proxy-addr) though the typings omit it.
    trustProxy: config.trustProxy as boolean | string,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // While draining, a request that reaches an open connection is still answered (with
    // `Connection: close`), not refused with Fastify's own 503 body, which is not the contract's.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Undecodable URLs and over-long path parameters are refused by the router before any
    // hook runs: answer them in the contract's shape, with the version header, all the same.
    frameworkErrors: (err, request, reply) => {
      reply.headers(STATIC_HEADERS);
      reply.header('x-request-id', request.id);
      sendError(reply, toAppError(err, request));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // First of all, so that no route is registered before it.
  if (onRoute) app.addHook('onRoute', onRoute);
  registerRouteVersions(app);
  app.decorate('db', database.db);
  app.decorate('apiPrefix', API_PREFIX);
  app.decorate('config', config);
  app.decorate('secretBox', await openSecretBox(database.db, config.admin.secretsKey));
  app.setValidatorCompiler(validatorCompiler);
  app.removeContentTypeParser('text/plain');
  registerRouteFallbacks(app);
  // After the fallbacks (an unknown route is a 404 whatever its body): what each route's body may be.
  const checkBodiesDeclared = registerBodyPolicies(app);
  // Routes declare the credentials their addresses carry; log lines never show them.
  registerSecretRoutes(app);
  registerErrorHandler(app);
  registerAuditScope(app);

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(STATIC_HEADERS);
    reply.header('x-request-id', request.id);
    answerPinnedVersion(request, reply);
    done();
  });
  // Page links and `Location` (answers to this same client) are built from the Host it sent (links
  // shown to others or mailed never are: links.ts). Refuse a Host no URL can hold before anything
  // is done (rather than failing with a 500 after a create).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.host && !isUsableHostCached(request.host)) done(invalidHost());
    else done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        // Which integration made the request (never the key itself).
        ...(request.auth ? { account: request.auth.accountId, key: request.auth.keyId } : {}),
      },
      'request completed',
    );
    done();
  });
  // Metrics: request counts and latencies per route pattern and status (GET /metrics).
  const metrics = createAppMetrics(database);
  app.addHook('onResponse', metrics.recordResponse);

  const redis = config.redisUrl
    ? new SharedRedis(config.redisUrl, { timeoutMs: config.redisTimeoutMs, log: app.log })
    : undefined;
  // Budgets are global only once Redis answers: wait for it (briefly) before serving, so the
  // first requests are not counted per instance by the in-memory fallback.
  await redis?.ready(2000);
  app.decorate('readiness', new Readiness(database, redis));
  const limiter = createRateLimiter({ keyPrefix: config.rateLimit.keyPrefix, redis });
  const lastUsed = new LastUsedTracker(
    database.db,
    config.lastUsedFlushMs,
    (err) => app.log.warn({ err }, 'could not record API key use'),
    recordKeysLastUsedOfAllAccounts,
  );

  const scimLastUsed = new LastUsedTracker(
    database.db,
    config.lastUsedFlushMs,
    (err) => app.log.warn({ err }, 'could not record SCIM token use'),
    recordScimTokensLastUsedOfAllAccounts,
  );

  // Reported mail is read in worker threads (started on the first report, ended on close).
  const reportReader = createReportedMessageReader({
    timeLimitMs: config.reports.readTimeoutMs,
    log: app.log,
  });

  // Every report of a message (the add-in, the Customer API, the reporting address) goes through it.
  const reportIntake: ReportIntake = {
    db: database.db,
    machine: createStepMachine(),
    reader: reportReader,
    phishUrls: () => [phishBaseUrl(app), publicBaseUrl(app)],
    reporterLimiter: createRateLimiter({
      keyPrefix: `${config.rateLimit.keyPrefix}:reporter`,
      redis,
      windowSeconds: 60 * 60,
    }),
  };
  app.decorate('reportIntake', reportIntake);

  await registerOpenApi(app);
  await app.register(healthRoutes);
  await app.register(
    async (api) => {
      // JSON up to BODY_LIMIT for a route that reads its body; a little (and ignored) for one that does not.
      acceptBodies(api, (route) => jsonBody(route.schema?.body ? config.bodyLimit : UNUSED_BODY_LIMIT));
      registerAuthentication(api, {
        db: database.db,
        limiter,
        lastUsed,
        failedAuthPerMinute: config.rateLimit.failedAuthPerMinute,
        keyCacheMs: config.apiKeyCacheMs,
        onRateLimited: metrics.countRateLimited,
      });
      // After authentication: keys belong to the API key that sent them.
      registerIdempotency(api);
      await api.register(employeesRoutes);
      await api.register(groupsRoutes);
      await api.register(campaignsRoutes);
      await api.register(phishingRoutes);
      await api.register(phishingReportRoutes, { intake: reportIntake });
      await api.register(reportIntakeRoutes, { intake: reportIntake });
      await api.register(triageRoutes);
      await api.register(webhooksRoutes);
      await api.register(auditRoutes);
    },
    { prefix: API_PREFIX },
  );
  await app.register(docsRoutes, { prefix: API_PREFIX });
  // SCIM 2.0 for Okta and Microsoft Entra: a bearer token of the Integration area names the account.
  await app.register(scimPlugin, {
    prefix: '/scim/v2',
    limiter,
    lastUsed: scimLastUsed,
    perMinute: config.rateLimit.defaultPerMinute,
    failedAuthPerMinute: config.rateLimit.failedAuthPerMinute,
  });
  await app.register(learnerRoutes, { prefix: '/learn' });
  // Simulations' links and tracking image (PHISH_URL may name this same server under another host).
  await app.register(phishingTrackingRoutes);
  // The Outlook add-in's manifests, task pane and icons (PUBLIC_URL/addins/outlook/…).
  await app.register(outlookAddinRoutes);
  // Single sign-on (OIDC and SAML) per account: start, callback, assertion consumer, SP metadata.
  await app.register(ssoRoutes, {
    prefix: '/sso',
    lifetime: { idleMs: config.admin.sessionIdleMs, maxMs: config.admin.sessionMaxMs },
  });
  await app.register(adminPlugin, {
    prefix: '/admin',
    lifetime: { idleMs: config.admin.sessionIdleMs, maxMs: config.admin.sessionMaxMs },
    cookieSecret: config.admin.cookieSecret,
    defaultRateLimit: config.rateLimit.defaultPerMinute,
    throttle: createSignInThrottle({
      keyPrefix: config.rateLimit.keyPrefix,
      redis,
      perAddress: config.admin.signInPerAddress,
      perEmail: config.admin.signInPerEmail,
      onRateLimited: () => metrics.countRateLimited('sign_in'),
    }),
  });
  if (config.metricsToken) {
    await app.register(metricsRoutes, {
      token: config.metricsToken,
      metrics,
      limiter,
      failedAuthPerMinute: config.rateLimit.failedAuthPerMinute,
    });
  }

  checkBodiesDeclared();

  app.addHook('onClose', async () => {
    await reportReader.close();
    await lastUsed.close();
    await scimLastUsed.close();
    await database.close();
    await redis?.close();
  });
  return app;
}
