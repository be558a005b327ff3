import { setTimeout as delay } from 'node:timers/promises';

/** Time as the workers see it; tests substitute a clock whose `sleep` only moves `now`. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or early (without an error) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  async sleep(ms, signal) {
    if (signal?.aborted) return;
    try {
      await delay(ms, undefined, signal ? { signal } : {});
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  },
};

/** A clock that stands still until it is told to move; sleeping moves it (for deterministic tests). */
export function manualClock(start: number): Clock & { advance(ms: number): void; set(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    async sleep(ms, signal) {
      if (!signal?.aborted) now += Math.max(0, ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
    advance(ms) {
      now += ms;
    },
    set(ms) {
      now = ms;
    },
  };
}
