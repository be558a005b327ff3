import { describe, expect, it } from 'vitest';
import {
  isTimeZone,
  localFields,
  maskToWeekdays,
  momentSampler,
  openIntervals,
  openTime,
  type SendWindow,
  weekdaysToMask,
  zonedToUtc,
} from './campaigns.window.model.js';

const HOUR = 3_600_000;
const local = (utc: number, zone: string) => new Date(localFields(utc, zone));

describe('send window planning', () => {
  it('knows IANA zones and weekday masks', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(weekdaysToMask(['mon', 'fri'])).toBe(0b10001);
    expect(maskToWeekdays(0b1100000)).toEqual(['sat', 'sun']);
  });

  it('opens only the allowed weekdays’ hours in the zone', () => {
    // Monday 2026-03-02 to Monday 2026-03-09 (UTC), weekdays 9–17 in New York.
    const window: SendWindow = {
      startAt: Date.UTC(2026, 2, 2),
      endAt: Date.UTC(2026, 2, 9),
      weekdays: weekdaysToMask(['mon', 'tue', 'wed', 'thu', 'fri']),
      hourStart: 9,
      hourEnd: 17,
      timeZone: 'America/New_York',
    };
    const intervals = openIntervals(window);
    expect(intervals).toHaveLength(5);
    expect(openTime(intervals)).toBe(5 * 8 * HOUR);
    for (const i of intervals) {
      const s = local(i.start, 'America/New_York');
      expect(s.getUTCHours()).toBe(9);
      expect([1, 2, 3, 4, 5]).toContain(s.getUTCDay());
    }
  });

  it('handles the spring-forward gap and the fall-back overlap in Europe/Berlin', () => {
    const zone = 'Europe/Berlin';
    // 2026-03-29: 02:00 → 03:00. Local 02:00 does not exist: the end of the gap (03:00 CEST).
    expect(zonedToUtc(Date.UTC(2026, 2, 29, 2, 0), zone)).toBe(Date.UTC(2026, 2, 29, 1, 0));
    // 2026-10-25: 02:30 happens twice: the first (CEST).
    expect(zonedToUtc(Date.UTC(2026, 9, 25, 2, 30), zone)).toBe(Date.UTC(2026, 9, 25, 0, 30));
    const spring = openIntervals({
      startAt: Date.UTC(2026, 2, 28, 12),
      endAt: Date.UTC(2026, 2, 30),
      weekdays: weekdaysToMask(['sun']),
      hourStart: 1,
      hourEnd: 4,
      timeZone: zone,
    });
    // 01:00–04:00 that Sunday lasts two real hours.
    expect(openTime(spring)).toBe(2 * HOUR);
    // 2026-10-25: 03:00 → 02:00. 01:00–04:00 lasts four real hours; 02:xx happens twice.
    const autumn = openIntervals({
      startAt: Date.UTC(2026, 9, 24),
      endAt: Date.UTC(2026, 9, 26),
      weekdays: weekdaysToMask(['sun']),
      hourStart: 1,
      hourEnd: 4,
      timeZone: zone,
    });
    expect(openTime(autumn)).toBe(4 * HOUR);
  });

  it('plans every moment inside the open hours, spread evenly', () => {
    const zone = 'Europe/Berlin';
    const window: SendWindow = {
      startAt: Date.UTC(2026, 2, 23),
      endAt: Date.UTC(2026, 3, 6),
      weekdays: weekdaysToMask(['mon', 'tue', 'wed', 'thu', 'fri', 'sun']),
      hourStart: 2,
      hourEnd: 10,
      timeZone: zone,
    };
    const intervals = openIntervals(window);
    const draw = momentSampler(intervals);
    const byHour = new Map<number, number>();
    const n = 8_000;
    for (let i = 0; i < n; i++) {
      const at = draw();
      expect(at).toBeGreaterThanOrEqual(window.startAt);
      expect(at).toBeLessThan(window.endAt);
      const l = local(at, zone);
      const hour = l.getUTCHours();
      expect(hour).toBeGreaterThanOrEqual(2);
      expect(hour).toBeLessThan(10);
      expect(l.getUTCDay()).not.toBe(6); // never a Saturday
      byHour.set(hour, (byHour.get(hour) ?? 0) + 1);
    }
    // Eight open hours a day: each gets about an eighth (the gap day has one hour less).
    for (let h = 3; h < 10; h++) expect((byHour.get(h) ?? 0) / n).toBeGreaterThan(0.11);
  });

  it('starts from a later moment and has no open time when nothing is left', () => {
    const window: SendWindow = {
      startAt: Date.UTC(2026, 0, 5),
      endAt: Date.UTC(2026, 0, 6),
      weekdays: 127,
      hourStart: 9,
      hourEnd: 17,
      timeZone: 'UTC',
    };
    expect(openTime(openIntervals(window, Date.UTC(2026, 0, 5, 13)))).toBe(4 * HOUR);
    expect(openIntervals(window, Date.UTC(2026, 0, 5, 18))).toEqual([]);
    expect(openIntervals({ ...window, weekdays: weekdaysToMask(['sat']) })).toEqual([]);
    expect(() => momentSampler([])).toThrow();
  });
});
