import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso, parseInstant } from './time.js';

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

describe('parseInstant', () => {
  it('reads RFC 3339 instants with Z or an offset, seconds and fractions optional', () => {
    expect(parseInstant('2026-11-22T09:14:03.512Z')).toBe(Date.parse('2026-11-22T09:14:03.512Z'));
    expect(parseInstant('2026-11-22T10:14:03.512+01:00')).toBe(Date.parse('2026-11-22T09:14:03.512Z'));
    expect(parseInstant('2026-11-22T04:44:03-04:30')).toBe(Date.parse('2026-11-22T09:14:03Z'));
    expect(parseInstant('2026-11-22t09:14z')).toBe(Date.parse('2026-11-22T09:14:00Z'));
    expect(parseInstant('2026-11-22T09:14:03.512999999Z')).toBe(Date.parse('2026-11-22T09:14:03.512Z'));
    expect(parseInstant('2026-11-22T09:14:03.5Z')).toBe(Date.parse('2026-11-22T09:14:03.500Z'));
    // A `+` sent unencoded in a query string arrives as a space.
    expect(parseInstant('2026-11-22T10:14:03 01:00')).toBe(Date.parse('2026-11-22T09:14:03Z'));
    expect(parseInstant('0001-01-01T00:00:00Z')).toBe(Date.parse('0001-01-01T00:00:00Z'));
    expect(parseInstant('2024-02-29T00:00:00Z')).toBe(Date.parse('2024-02-29T00:00:00Z'));
  });

  it('refuses what names no moment: no zone, impossible dates and times, other formats', () => {
    for (const text of [
      '',
      '2026-11-22',
      '2026-11-22T09:14:03',
      '2026-11-22 09:14:03Z',
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-22T24:00:00Z',
      '2026-11-22T09:60:00Z',
      '2026-11-22T09:14:60Z',
      '2026-11-22T09:14:03+24:00',
      '2026-11-22T09:14:03+0100',
      '1764000000000',
      'yesterday',
      ' 2026-11-22T09:14:03Z',
      '２０２６-11-22T09:14:03Z',
    ]) {
      expect(parseInstant(text), text).toBeNull();
    }
  });
});
