import type { Db } from '../db/database.js';

/**
 * Remembers when each API key was last used and writes those times in one batch every few
 * seconds (and at shutdown), so authenticating a request never writes to the database.
 * Cross-account by design: one batch holds the keys of every account that made requests.
 */
export class LastUsedTracker {
  private pending = new Map<number, number>();
  private timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    intervalMs: number,
    private readonly onError: (err: unknown) => void,
    /** Writes a batch: API keys' or SCIM tokens' (each has its own tracker). */
    private readonly record: (db: Db, times: Map<number, number>) => Promise<void>,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  touch(keyId: number, at: number): void {
    this.pending.set(keyId, at);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.record(this.db, batch);
    } catch (err) {
      // Put the times back (unless newer ones arrived) and try again at the next tick.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.onError(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
