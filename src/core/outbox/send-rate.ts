import type { Clock } from './clock.js';

/**
 * An outbox's send rate (the mail worker's): a token bucket refilled at `perMinute` and holding at most
 * `capacity` tokens, so messages go out evenly (a burst of at most `capacity`) rather than a
 * whole minute's budget at once. Written here rather than taken from rate-limiter-flexible (which
 * the API uses): that one counts fixed windows against the wall clock, so it allows a full
 * minute's budget at each window's start and cannot be driven by a test's clock.
 */
export class SendRate {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perMinute: number,
    readonly capacity: number,
    private readonly clock: Clock,
  ) {
    this.tokens = capacity;
    this.last = clock.now();
  }

  /** A burst of one second's budget, at least 1 and at most `max`. */
  static capacityFor(perMinute: number, max: number): number {
    return Math.max(1, Math.min(max, Math.floor(perMinute / 60)));
  }

  private refill(): void {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) * this.perMinute) / 60_000);
    }
    this.last = now;
  }

  /** Whole tokens available now. */
  available(): number {
    this.refill();
    return Math.floor(this.tokens);
  }

  /** Spends `n` tokens (as many messages as were claimed). */
  take(n: number): void {
    this.refill();
    this.tokens -= n;
  }

  /** Waits until at least one token is there (returns early when `signal` aborts). */
  async ready(signal?: AbortSignal): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= 1 || signal?.aborted) return;
      await this.clock.sleep(Math.ceil(((1 - this.tokens) * 60_000) / this.perMinute), signal);
    }
  }
}
