import { describe, expect, it } from 'vitest';
import { retryDelay } from './backoff.js';
import { manualClock } from './clock.js';
import { SendRate } from './send-rate.js';

describe('the send rate', () => {
  it('starts with a burst of one second’s budget, then refills evenly', async () => {
    const clock = manualClock(1_000_000);
    const rate = new SendRate(600, SendRate.capacityFor(600, 50), clock);
    expect(rate.capacity).toBe(10);
    expect(rate.available()).toBe(10);
    rate.take(10);
    expect(rate.available()).toBe(0);
    clock.advance(100);
    expect(rate.available()).toBe(1);
    clock.advance(10_000);
    expect(rate.available()).toBe(10); // never more than the capacity
  });

  it('waits for the next token on the clock', async () => {
    const clock = manualClock(0);
    const rate = new SendRate(30, SendRate.capacityFor(30, 50), clock);
    expect(rate.capacity).toBe(1);
    rate.take(1);
    await rate.ready();
    expect(clock.now()).toBe(2000);
  });

  it('stops waiting when told to', async () => {
    const clock = manualClock(0);
    const rate = new SendRate(1, 1, clock);
    rate.take(1);
    const abort = new AbortController();
    abort.abort();
    await rate.ready(abort.signal);
    expect(clock.now()).toBe(0);
  });
});

describe('retry back-off', () => {
  it('doubles from the base, with ±10 % jitter, and stops growing at 6 hours', () => {
    expect(retryDelay(1, 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelay(2, 60_000, () => 0.5)).toBe(120_000);
    expect(retryDelay(3, 60_000, () => 0)).toBe(216_000);
    expect(retryDelay(3, 60_000, () => 1)).toBe(264_000);
    expect(retryDelay(20, 60_000, () => 1)).toBe(6 * 3_600_000);
  });
});
