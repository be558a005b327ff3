/**
 * A phishing campaign's send window, and each recipient's random moment in it. The window is
 * the open hours [hour_start, hour_end) of the allowed weekdays, between its start and end, in
 * the campaign's IANA time zone. Moments are drawn uniformly over the total open time (real
 * elapsed time), so a day with a daylight-saving change counts for the hours it really has: a
 * local hour that does not exist (spring forward) is skipped, one that happens twice (fall back)
 * is open twice. Pure: no database.
 */

export interface SendWindow {
  /** Epoch ms. */
  startAt: number;
  endAt: number;
  /** Bit 0 Monday … bit 6 Sunday. */
  weekdays: number;
  hourStart: number;
  /** Exclusive; 24 means the end of the day. */
  hourEnd: number;
  timeZone: string;
}

/** A stretch of open time, epoch ms [start, end). */
export interface OpenInterval {
  start: number;
  end: number;
}

export const WEEKDAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The longest window a campaign may have. */
export const MAX_WINDOW_DAYS = 366;

export function weekdaysToMask(days: readonly WeekdayName[]): number {
  let mask = 0;
  for (const day of days) mask |= 1 << WEEKDAY_NAMES.indexOf(day);
  return mask;
}

export function maskToWeekdays(mask: number): WeekdayName[] {
  return WEEKDAY_NAMES.filter((_, i) => (mask & (1 << i)) !== 0);
}

/** Whether the zone is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone === '' || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The local wall-clock time of an instant, as if it were UTC (epoch ms of the local fields). */
export function localFields(utc: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(utc))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const ms = ((utc % 1000) + 1000) % 1000;
  return Date.UTC(
    parts.year as number,
    (parts.month as number) - 1,
    parts.day as number,
    parts.hour as number,
    parts.minute as number,
    parts.second as number,
    ms,
  );
}

/** The zone's offset at an instant (local − UTC), ms. */
function offsetAt(utc: number, zone: string): number {
  return localFields(utc, zone) - utc;
}

/**
 * The instant of a local wall-clock time (given as epoch ms of its fields). A time that happens
 * twice is its first occurrence; a time that does not exist (in a gap) moves forward by the
 * gap's length, so an hour boundary in a gap is the end of the gap.
 */
export function zonedToUtc(local: number, zone: string): number {
  const before = offsetAt(local - DAY_MS, zone);
  const after = offsetAt(local + DAY_MS, zone);
  const candidates = [local - before, local - after].filter((u) => localFields(u, zone) === local);
  if (candidates.length > 0) return Math.min(...candidates);
  return local - before;
}

/** The open intervals of a window, from `from` (default its start) to its end, in order. */
export function openIntervals(window: SendWindow, from = window.startAt): OpenInterval[] {
  const { weekdays, hourStart, hourEnd, timeZone } = window;
  const start = Math.max(window.startAt, from);
  const end = window.endAt;
  if (!(end > start) || hourEnd <= hourStart || (weekdays & 127) === 0) return [];
  const out: OpenInterval[] = [];
  // The local calendar day of the start, then day by day until a day begins after the end.
  const firstLocal = localFields(start, timeZone);
  let day = Math.floor(firstLocal / DAY_MS) * DAY_MS - DAY_MS;
  const lastDay = Math.floor(localFields(end, timeZone) / DAY_MS) * DAY_MS + DAY_MS;
  for (; day <= lastDay; day += DAY_MS) {
    const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0
    if ((weekdays & (1 << weekday)) === 0) continue;
    const open = zonedToUtc(day + hourStart * HOUR_MS, timeZone);
    const close = zonedToUtc(day + hourEnd * HOUR_MS, timeZone);
    const s = Math.max(open, start);
    const e = Math.min(close, end);
    if (e > s) out.push({ start: s, end: e });
  }
  return out;
}

/** The total open time of intervals, ms. */
export function openTime(intervals: readonly OpenInterval[]): number {
  return intervals.reduce((sum, i) => sum + (i.end - i.start), 0);
}

/**
 * A sampler of uniformly random moments over the open intervals (which must hold some open
 * time): each call draws one, a whole ms inside an interval.
 */
export function momentSampler(
  intervals: readonly OpenInterval[],
  random: () => number = Math.random,
): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (const i of intervals) {
    total += i.end - i.start;
    cumulative.push(total);
  }
  if (total <= 0) throw new Error('the window has no open time');
  return () => {
    const r = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > r) hi = mid;
      else lo = mid + 1;
    }
    const interval = intervals[lo] as OpenInterval;
    const before = lo === 0 ? 0 : (cumulative[lo - 1] as number);
    return Math.min(interval.end - 1, interval.start + Math.floor(r - before));
  };
}

/** What a launch at `now` would plan: where moments are drawn, and the first and last possible. */
export interface SendPlan {
  /** The open intervals moments are drawn from (the window's, from `now`). */
  intervals: OpenInterval[];
  /** The earliest and latest moment a launch at `now` can plan (epoch ms); null: no open time left. */
  firstAt: number | null;
  lastAt: number | null;
  /** Open time within the next 24 hours from `now`, ms (0: nothing can go out in the next day). */
  openNextDayMs: number;
}

/**
 * The one place planned moments come from: a launch draws every recipient's moment from
 * `intervals` (momentSampler), and the launch confirmation, the campaign page and the form's
 * warning read the same plan, so what they promise is what the launch does.
 */
export function sendPlan(window: SendWindow, now: number): SendPlan {
  const intervals = openIntervals(window, now);
  const first = intervals[0];
  const last = intervals[intervals.length - 1];
  const nextDay = openIntervals({ ...window, endAt: Math.min(window.endAt, now + DAY_MS) }, now);
  return {
    intervals,
    firstAt: first ? first.start : null,
    lastAt: last ? last.end - 1 : null,
    openNextDayMs: openTime(nextDay),
  };
}

/** A campaign's send window as the model reads it; null until both ends are set. */
export function windowOf(c: {
  window_start_at: number | null;
  window_end_at: number | null;
  weekdays: number;
  hour_start: number;
  hour_end: number;
  time_zone: string;
}): SendWindow | null {
  if (c.window_start_at === null || c.window_end_at === null) return null;
  return {
    startAt: c.window_start_at,
    endAt: c.window_end_at,
    weekdays: c.weekdays,
    hourStart: c.hour_start,
    hourEnd: c.hour_end,
    timeZone: c.time_zone,
  };
}
