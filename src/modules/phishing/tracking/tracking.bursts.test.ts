import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADDRESS_BURST, AddressBurstCounter } from '../simulation/simulation.classify.model.js';
import {
  BURST_WINDOW_MS,
  hitsInBurst,
  inAddressBurst,
  settlesLater,
  type Touch,
} from './tracking.bursts.model.js';

const T = 1_800_000_000_000;
const touches = (...pairs: [recipientId: number, ms: number][]): Touch[] =>
  pairs.map(([recipientId, ms]) => ({ recipientId, at: T + ms })).sort((a, b) => a.at - b.at);

describe('inAddressBurst', () => {
  it('finds a burst the hit is part of, its first hits included', () => {
    // 19 recipients within 300 ms: the first hit belongs to it as much as the last.
    const burst = touches(...Array.from({ length: 19 }, (_, i) => [i + 1, i * 16] as [number, number]));
    for (const t of burst) expect(inAddressBurst(t.at, burst)).toBe(true);
  });

  it('needs that many distinct recipients within one window holding the hit', () => {
    // Four recipients, one of them twice: not five.
    expect(inAddressBurst(T, touches([1, 0], [2, 1], [3, 2], [4, 3], [1, 4]))).toBe(false);
    // Five, but spread over more than the window.
    const spread = touches([1, 0], [2, 3_000], [3, 6_000], [4, 9_000], [5, BURST_WINDOW_MS]);
    expect(inAddressBurst(T, spread)).toBe(false);
    // Five within the window, the hit at its start, middle or end.
    const tight = touches([1, 0], [2, 3_000], [3, 6_000], [4, 9_000], [5, BURST_WINDOW_MS - 1]);
    for (const t of tight) expect(inAddressBurst(t.at, tight)).toBe(true);
    // A hit a window away from a burst is not part of it.
    const later = touches([1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 4 + BURST_WINDOW_MS]);
    expect(inAddressBurst(T + 4 + BURST_WINDOW_MS, later)).toBe(false);
  });

  it('agrees with the per-process counter on the hit that completes a burst, whatever the hits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(7), fc.integer({ min: 0, max: 30_000 })), { minLength: 1, maxLength: 40 }),
        (pairs) => {
          const sorted = touches(...pairs);
          const counter = new AddressBurstCounter({ maxRecipientsPerAddress: 100 });
          for (const t of sorted) {
            // The counter sees the hits as they come: a burst it sees, the rule sees too.
            const seen = counter.touch('198.51.100.1', t.recipientId, t.at) >= ADDRESS_BURST.recipients;
            if (seen) expect(inAddressBurst(t.at, sorted)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('hitsInBurst', () => {
  it('decides many hits of one address against its touches read once', () => {
    const all = touches(
      ...Array.from({ length: 6 }, (_, i) => [i + 1, i] as [number, number]),
      [7, 60_000],
      [8, 120_000],
    );
    const hits = all.map((t) => ({ at: t.at, id: t.recipientId }));
    const found = hitsInBurst(hits, all);
    expect([...found].map((h) => h.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('settlesLater', () => {
  it('is a browser’s open or click only: machines, forms, button presses and reports are certain at once', () => {
    expect(settlesLater('click', { classification: 'human', reason: 'browser' })).toBe(true);
    expect(settlesLater('open', { classification: 'human', reason: 'browser' })).toBe(true);
    expect(settlesLater('click', { classification: 'human', reason: 'after_human_interaction' })).toBe(false);
    expect(settlesLater('click', { classification: 'automated', reason: 'address_burst' })).toBe(false);
    expect(settlesLater('submit', { classification: 'human', reason: 'form_post' })).toBe(false);
    expect(settlesLater('interaction', { classification: 'human', reason: 'page_interaction' })).toBe(false);
    expect(settlesLater('report', { classification: 'human', reason: 'report_api' })).toBe(false);
  });
});
