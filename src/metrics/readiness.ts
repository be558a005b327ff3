import type { Database } from '../core/db/database.js';
import type { SharedRedis } from '../core/redis.js';

/** What `/readyz` reports on each dependency. */
export interface ReadinessChecks {
  database: 'ok' | 'unavailable';
  /** `off`: no REDIS_URL; `unavailable`: rate limits are counted per instance meanwhile. */
  redis: 'ok' | 'unavailable' | 'off';
}

export interface ReadinessReport {
  /** Whether a load balancer should send this instance requests. */
  ready: boolean;
  /** `degraded`: ready, but a dependency that is not essential (Redis) does not answer. */
  status: 'ok' | 'degraded' | 'unavailable';
  checks: ReadinessChecks;
  draining: boolean;
}

/** The longest the readiness check waits for the database: it must answer within a second. */
const DATABASE_PROBE_MS = 800;

/**
 * Readiness of this instance: the database answers (within 800 ms), it is not draining after
 * SIGTERM; Redis not answering makes it degraded, not unready (budgets fall back per instance).
 */
export class Readiness {
  draining = false;

  constructor(
    private readonly database: Pick<Database, 'ping'>,
    private readonly redis: Pick<SharedRedis, 'refresh'> | undefined,
  ) {}

  async check(): Promise<ReadinessReport> {
    const [answers, redis] = await Promise.all([
      this.database.ping(DATABASE_PROBE_MS),
      this.redis ? this.redis.refresh() : ('off' as const),
    ]);
    const checks: ReadinessChecks = { database: answers ? 'ok' : 'unavailable', redis };
    const ready = answers && !this.draining;
    const status = !ready ? 'unavailable' : checks.redis === 'unavailable' ? 'degraded' : 'ok';
    return { ready, status, checks, draining: this.draining };
  }
}
