/** Server configuration, read from the environment once and validated. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Fastify `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string;
  logLevel: string;
  /** Largest accepted request body, in bytes (the contract requires at least 4 MiB). */
  bodyLimit: number;
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
    /** Sign-in attempts per client address, and per address and email, per 15 minutes. */
    signInPerAddress: number;
    signInPerEmail: number;
  };
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/vigil.db';

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function trustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

function cookieSecret(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32) throw new ConfigError('SESSION_SECRET must be at least 32 characters');
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    redisUrl: env.REDIS_URL || undefined,
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimit: integer(env, 'BODY_LIMIT', 8 * 1024 * 1024, 4 * 1024 * 1024, 1024 * 1024 * 1024),
    rateLimit: {
      defaultPerMinute: integer(env, 'RATE_LIMIT_DEFAULT', 600, 1, 1_000_000_000),
      failedAuthPerMinute: integer(env, 'RATE_LIMIT_FAILED_AUTH', 100, 60, 1_000_000_000),
      keyPrefix: env.RATE_LIMIT_PREFIX || 'vigil:rl',
    },
    lastUsedFlushMs: integer(env, 'LAST_USED_FLUSH_MS', 30_000, 100, 3_600_000),
    admin: {
      sessionIdleMs: integer(env, 'SESSION_IDLE_MINUTES', 12 * 60, 1, 525_600) * 60_000,
      sessionMaxMs: integer(env, 'SESSION_MAX_DAYS', 7, 1, 365) * 86_400_000,
      cookieSecret: cookieSecret(env.SESSION_SECRET),
      signInPerAddress: integer(env, 'SIGN_IN_LIMIT_PER_ADDRESS', 50, 1, 1_000_000),
      signInPerEmail: integer(env, 'SIGN_IN_LIMIT_PER_EMAIL', 10, 1, 1_000_000),
    },
  };
}
