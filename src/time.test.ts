import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from './time.js';

describe('iso', () => {
  it('writes exactly what Date#toISOString writes, for any instant of the years 0–9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees on the edges: epoch, leap days, year and century boundaries', () => {
    for (const text of [
      '1970-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '2000-02-29T12:00:00.001Z',
      '1900-03-01T00:00:00.000Z',
      '2026-11-22T09:14:03.512Z',
      '2100-02-28T23:59:59.999Z',
      '0000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      expect(iso(Date.parse(text))).toBe(text);
    }
  });
});
