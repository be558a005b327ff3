import { Redis } from 'ioredis';

/** What the Redis connection logs through (pino's logger fits). */
export interface RedisLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export type RedisState = 'ok' | 'unavailable';

/**
 * The shared Redis (rate-limit budgets across instances), as a dependency that may freeze,
 * vanish or come back at any moment. Every command has a short deadline (`timeoutMs`). The
 * first failure marks it unavailable: callers then use their in-memory fallback at once,
 * without waiting for Redis on every request, while a probe asks it every second; the first
 * answer marks it available again. Each change of state is logged once.
 */
export class SharedRedis {
  readonly client: Redis;
  /** 'starting' until the first answer or failure; it counts as unavailable. */
  private current: RedisState | 'starting' = 'starting';
  private probe: NodeJS.Timeout | undefined;
  /** The PING in flight, if any: concurrent checks share it. */
  private checking: Promise<void> | undefined;
  private closed = false;

  constructor(
    url: string,
    private readonly options: { timeoutMs: number; log: RedisLog },
  ) {
    this.client = new Redis(url, {
      // Fail at once while disconnected (no queue of waiting requests), and within the
      // deadline while connected to a Redis that does not answer.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(1000, options.timeoutMs * 10),
      // Reconnect quickly, then every second at most.
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    // ioredis reports every failed reconnection; our state change is logged once instead.
    this.client.on('error', () => {});
    this.client.on('ready', () => void this.check());
    this.client.on('close', () => this.markFailed(new Error('connection closed')));
    this.startProbe();
  }

  get state(): RedisState {
    return this.current === 'ok' ? 'ok' : 'unavailable';
  }

  available(): boolean {
    return this.current === 'ok';
  }

  /**
   * Waits (at most `ms`) for the first answer, so the first requests count in the shared
   * budget; without one, starts unavailable (logged) and keeps probing.
   */
  async ready(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.available() && Date.now() < deadline && !this.closed) {
      await this.check();
      if (!this.available()) await new Promise((r) => setTimeout(r, 50));
    }
    if (!this.available()) this.markFailed(new Error(`no answer within ${ms} ms`));
    return this.available();
  }

  /** A command failed (timeout, connection lost): use the fallback until Redis answers again. */
  markFailed(err: unknown): void {
    if (this.closed) return;
    if (this.current !== 'unavailable') {
      this.current = 'unavailable';
      this.options.log.warn(
        { err: { message: (err as Error)?.message } },
        'redis unavailable: rate limits are per instance until it answers',
      );
    }
    this.startProbe();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probe);
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private startProbe(): void {
    if (this.probe || this.closed) return;
    this.probe = setInterval(() => void this.check(), 1000);
    this.probe.unref();
  }

  /** Asks Redis now (readiness): the state after one PING within the deadline. */
  async refresh(): Promise<RedisState> {
    await this.check();
    return this.state;
  }

  /** One PING within the deadline (shared by concurrent callers): the state follows its outcome. */
  private check(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.checking ??= this.ping().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async ping(): Promise<void> {
    try {
      if (this.client.status !== 'ready') throw new Error(`connection ${this.client.status}`);
      await this.client.ping();
      if (this.current !== 'ok') {
        const again = this.current === 'unavailable';
        this.current = 'ok';
        clearInterval(this.probe);
        this.probe = undefined;
        if (again) this.options.log.info({}, 'redis available again: rate limits are shared');
      }
    } catch (err) {
      if (this.current === 'ok') this.markFailed(err);
    }
  }
}
