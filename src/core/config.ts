import { type ReportSmtpConfig, reportDomain, reportSmtp } from './config-reporting.js';
import {
  ConfigError,
  cookieSecret,
  DEFAULT_DATABASE_URL,
  databaseUrl,
  host,
  integer,
  keyPrefix,
  type LogLevel,
  logLevel,
  mailFrom,
  metricsToken,
  onOff,
  publicUrl,
  redisUrl,
  sendingIps,
  smtpUrl,
  trustProxy,
  type WebhookAllowList,
  webhookAllowList,
} from './config-values.js';

export { ConfigError, DEFAULT_DATABASE_URL, type LogLevel, type ReportSmtpConfig, type WebhookAllowList };

/** Server configuration, read from the environment once and validated. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Every Redis command's deadline; past it this instance counts budgets in memory until Redis answers. */
  redisTimeoutMs: number;
  database: {
    /** The longest a request waits for a connection, or for SQLite's write lock. */
    waitMs: number;
    /** The longest one statement may take (PostgreSQL `statement_timeout` and the answer on the wire). */
    statementTimeoutMs: number;
    /** PostgreSQL connections this process opens at most (`PG_POOL_MAX`). */
    poolMax: number;
  };
  /** HTTP worker processes (`WEB_CONCURRENCY`); 1 serves from this process alone. */
  webConcurrency: number;
  /** Bearer token that `GET /metrics` requires; unset: /metrics is not served. */
  metricsToken: string | undefined;
  /** How long an authenticated API key is remembered (revocation takes effect within it elsewhere). */
  apiKeyCacheMs: number;
  /** Fastify `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string;
  logLevel: LogLevel;
  /** Largest accepted request body, in bytes (the contract requires at least 4 MiB). */
  bodyLimit: number;
  /** The whole request, body included, must arrive within this long (`REQUEST_TIMEOUT_SECONDS`); else 408. */
  requestTimeoutMs: number;
  rateLimit: {
    /** Default per-minute budget of a new API key. */
    defaultPerMinute: number;
    /** Failed authentication attempts answered with 401 per client address and minute before 429. */
    failedAuthPerMinute: number;
    /** Prefix of rate-limit counters in the shared store (lets several deployments share one Redis). */
    keyPrefix: string;
  };
  /** How often the remembered "last used" times of API keys are written to the database. */
  lastUsedFlushMs: number;
  admin: {
    /** A web-interface session ends after this long without a request… */
    sessionIdleMs: number;
    /** …and this long after sign-in at most. */
    sessionMaxMs: number;
    /** Signs cookies; generated on first start and kept in the database when unset. */
    cookieSecret: string | undefined;
    /** Seals secrets Vigil reads back (TOTP seeds, SSO client secrets); generated and kept like the cookie secret when unset. */
    secretsKey: string | undefined;
    /** Sign-in attempts per client address, and per address and email, per 15 minutes. */
    signInPerAddress: number;
    signInPerEmail: number;
    /** Every administrator of every account, and every operator, must sign in with a second factor (`ADMIN_MFA_REQUIRED`). */
    mfaRequired: boolean;
  };
  /** Where people reach this server, for links in email (`PUBLIC_URL`); the listening address when unset. */
  publicUrl: string | undefined;
  /**
   * Where simulations' links and tracking images point (`PHISH_URL`), so simulations can live on
   * a host name of their own; PUBLIC_URL (then the listening address) when unset.
   */
  phishUrl: string | undefined;
  mail: {
    /** `smtp://user:pass@host:port` or `smtps://…`; unset: messages go to the built-in outbox. */
    smtpUrl: string | undefined;
    /** The From header of training mail. */
    from: string;
    /** Messages sent per minute by each instance's worker. */
    ratePerMinute: number;
    /** Messages in flight at once (SMTP connections) per instance. */
    concurrency: number;
    /** Attempts before a message is given up as failed. */
    maxAttempts: number;
    /** The first retry waits this long; each further one twice as long (at most 6 hours). */
    retryBaseMs: number;
    /** How long a worker's claim on a message lasts; a crashed worker's messages are retried after it. */
    leaseMs: number;
  };
  webhooks: {
    /**
     * The only non-public networks and hosts webhooks may reach (`WEBHOOKS_ALLOWED_NETWORKS`; empty:
     * public addresses only, against SSRF). See src/modules/integrations/webhooks/webhooks.addresses.service.ts.
     */
    allowedNetworks: WebhookAllowList;
    /** Endpoints one account may have (`WEBHOOKS_MAX_ENDPOINTS`): what one event fans out to at most. */
    maxEndpoints: number;
    /** Accept `http:` endpoint URLs besides `https:` (`WEBHOOKS_ALLOW_HTTP`). */
    allowHttp: boolean;
    /** Connect, send and receive the answer's status within this long. */
    timeoutMs: number;
    /** How long a worker's claim on a delivery lasts; a killed worker's deliveries are retried after it. */
    leaseMs: number;
    /** Deliveries in flight at once per instance. */
    concurrency: number;
  };
  workers: {
    /** Run the mail worker and the scheduler in this process (`WORKERS=off` for API-only instances). */
    enabled: boolean;
    /** How often scheduled launches and reminders are looked for. */
    schedulerIntervalMs: number;
  };
  learner: {
    /** How long a personal learner link in an email stays valid. */
    linkTtlMs: number;
  };
  reports: {
    /** How long one reported message may take to read (`REPORT_READ_TIMEOUT_MS`); its thread is ended past it. */
    readTimeoutMs: number;
    /**
     * The domain of the reporting addresses, `report+<reporting id>@REPORT_DOMAIN`; unset: no
     * address is shown. Required where the listener runs; an API-only instance sets it to show it.
     */
    domain: string | undefined;
    /** The reporting address's SMTP listener (`REPORT_SMTP_PORT`); undefined: not in this process. */
    smtp: ReportSmtpConfig | undefined;
  };
  phishing: {
    /**
     * Whether a simulation's sender domain may be an IP address, `localhost` or a name without a
     * dot (`PHISHING_ALLOW_LOCAL_SENDER`). Unset: only when simulations' links point at this
     * machine (PHISH_URL, else PUBLIC_URL, else the listening address is a loopback address), as
     * on a development start, whose mail nobody else receives.
     */
    allowLocalSender: boolean | undefined;
    /**
     * The addresses or networks the SMTP relay sends simulations from (`PHISHING_SENDING_IPS`),
     * normalised, for the allow-listing sheet; empty: unknown.
     */
    sendingIps: string[];
  };
}

/**
 * Every setting the server, the worker and the `vigil` command read: each one is checked here,
 * and a bad value is a ConfigError whose message is one line naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: host(env.HOST),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    redisUrl: redisUrl(env.REDIS_URL),
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 100, 10, 10_000),
    database: {
      waitMs: integer(env, 'DB_WAIT_SECONDS', 2, 1, 60) * 1000,
      statementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_SECONDS', 5, 1, 3600) * 1000,
      poolMax: integer(env, 'PG_POOL_MAX', 10, 1, 1000),
    },
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1, 64),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_SECONDS', 5, 0, 300) * 1000,
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: logLevel(env.LOG_LEVEL),
    bodyLimit: integer(env, 'BODY_LIMIT', 8 * 1024 * 1024, 4 * 1024 * 1024, 1024 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    rateLimit: {
      defaultPerMinute: integer(env, 'RATE_LIMIT_DEFAULT', 600, 1, 1_000_000_000),
      failedAuthPerMinute: integer(env, 'RATE_LIMIT_FAILED_AUTH', 100, 60, 1_000_000_000),
      keyPrefix: keyPrefix(env.RATE_LIMIT_PREFIX),
    },
    lastUsedFlushMs: integer(env, 'LAST_USED_FLUSH_MS', 30_000, 100, 3_600_000),
    admin: {
      sessionIdleMs: integer(env, 'SESSION_IDLE_MINUTES', 12 * 60, 1, 525_600) * 60_000,
      sessionMaxMs: integer(env, 'SESSION_MAX_DAYS', 7, 1, 365) * 86_400_000,
      cookieSecret: cookieSecret(env.SESSION_SECRET),
      secretsKey: cookieSecret(env.SECRETS_KEY, 'SECRETS_KEY'),
      signInPerAddress: integer(env, 'SIGN_IN_LIMIT_PER_ADDRESS', 50, 1, 1_000_000),
      signInPerEmail: integer(env, 'SIGN_IN_LIMIT_PER_EMAIL', 10, 1, 1_000_000),
      mfaRequired: onOff(env, 'ADMIN_MFA_REQUIRED', false),
    },
    publicUrl: publicUrl(env.PUBLIC_URL),
    phishUrl: publicUrl(env.PHISH_URL, 'PHISH_URL'),
    mail: {
      smtpUrl: smtpUrl(env.SMTP_URL),
      from: mailFrom(env.MAIL_FROM),
      ratePerMinute: integer(env, 'MAIL_RATE_PER_MINUTE', 600, 1, 1_000_000),
      concurrency: integer(env, 'MAIL_CONCURRENCY', 2, 1, 64),
      maxAttempts: integer(env, 'MAIL_MAX_ATTEMPTS', 8, 1, 100),
      retryBaseMs: integer(env, 'MAIL_RETRY_BASE_SECONDS', 60, 1, 86_400) * 1000,
      leaseMs: integer(env, 'MAIL_LEASE_SECONDS', 120, 1, 86_400) * 1000,
    },
    webhooks: {
      allowedNetworks: webhookAllowList(env),
      maxEndpoints: integer(env, 'WEBHOOKS_MAX_ENDPOINTS', 20, 1, 1000),
      allowHttp: onOff(env, 'WEBHOOKS_ALLOW_HTTP', false),
      timeoutMs: integer(env, 'WEBHOOKS_TIMEOUT_SECONDS', 10, 1, 60) * 1000,
      leaseMs: integer(env, 'WEBHOOKS_LEASE_SECONDS', 60, 1, 86_400) * 1000,
      concurrency: integer(env, 'WEBHOOKS_CONCURRENCY', 4, 1, 64),
    },
    workers: {
      enabled: onOff(env, 'WORKERS', true),
      schedulerIntervalMs: integer(env, 'SCHEDULER_INTERVAL_SECONDS', 30, 1, 3600) * 1000,
    },
    learner: {
      linkTtlMs: integer(env, 'LEARNER_LINK_DAYS', 30, 1, 365) * 86_400_000,
    },
    reports: reportsConfig(env),
    phishing: {
      allowLocalSender:
        (env.PHISHING_ALLOW_LOCAL_SENDER ?? '') === ''
          ? undefined
          : onOff(env, 'PHISHING_ALLOW_LOCAL_SENDER', false),
      sendingIps: sendingIps(env.PHISHING_SENDING_IPS),
    },
  };
}

function reportsConfig(env: NodeJS.ProcessEnv): Config['reports'] {
  const domain = reportDomain(env.REPORT_DOMAIN);
  return {
    readTimeoutMs: integer(env, 'REPORT_READ_TIMEOUT_MS', 5000, 10, 60_000),
    domain,
    smtp: reportSmtp(env, domain),
  };
}
