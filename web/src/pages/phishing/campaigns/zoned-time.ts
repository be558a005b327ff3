// Wall-clock times in a named IANA time zone (the campaign's), converted with Intl alone.

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a zone, as if they were UTC (milliseconds). */
function wallClock(ms: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return Date.UTC(p.year as number, (p.month as number) - 1, p.day, p.hour, p.minute, p.second);
}

/** `2026-12-01T09:00` as seen in `zone` for an ISO instant; '' for none. */
export function toZonedInput(iso: string | null | undefined, zone: string): string {
  if (!iso) return '';
  return new Date(wallClock(new Date(iso).getTime(), zone)).toISOString().slice(0, 16);
}

/**
 * The ISO instant of a `2026-12-01T09:00` wall-clock time in `zone`; null for ''. A time the
 * clocks skip (spring forward) lands just after the gap; an ambiguous one takes the earlier.
 */
export function fromZonedInput(value: string, zone: string): string | null {
  if (!value) return null;
  const wall = Date.parse(`${value.length === 16 ? `${value}:00` : value}Z`);
  if (Number.isNaN(wall)) return null;
  const day = 86_400_000;
  const [before, after] = [wall - day, wall + day].map((t) => wall - (wallClock(t, zone) - t)) as [
    number,
    number,
  ];
  const candidates = [before, after].filter((t) => wallClock(t, zone) === wall).sort((a, b) => a - b);
  return new Date(candidates[0] ?? Math.max(before, after)).toISOString();
}

/** "1 Dec 2026, 09:00" in `zone`. */
export function formatInZone(iso: string, zone: string): string {
  return new Intl.DateTimeFormat(undefined, {
    timeZone: zone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/** The viewer's own time zone (the browser's). */
export function viewerZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * "Mon, 7 Jan 2030, 09:00 (Europe/Berlin)" and, when the viewer's clock shows another time,
 * "08:00 your time (UTC)": a planned moment as the campaign means it and as the reader lives it.
 */
export function formatPlanned(iso: string, zone: string): { campaign: string; viewer: string | null } {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  const at = new Date(iso);
  const campaign = `${new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone }).format(at)} (${zone})`;
  const mine = viewerZone();
  const inMine = new Intl.DateTimeFormat(undefined, { ...options, timeZone: mine }).format(at);
  const inCampaign = new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone }).format(at);
  return { campaign, viewer: inMine === inCampaign ? null : `${inMine} your time (${mine})` };
}
