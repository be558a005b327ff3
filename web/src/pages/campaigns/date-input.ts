// A native `datetime-local` input holds a wall-clock time in the browser's time zone; the API
// takes and gives UTC ISO timestamps. These convert between the two.

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-22T08:00:00.000Z" → "2026-11-22T09:00" (in Europe/Berlin), or "" for none. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "2026-11-22T09:00" (local) → "2026-11-22T08:00:00.000Z", or null for an empty or partial input. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** "Europe/Berlin, UTC+01:00": the zone the inputs are in, with its offset on that date. */
export function timeZoneText(at: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const minutes = -at.getTimezoneOffset();
  const sign = minutes < 0 ? '−' : '+';
  const offset = `UTC${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
  return zone && zone !== 'UTC' ? `${zone}, ${offset}` : 'UTC';
}

/** "22 Nov 2026, 08:00 UTC": how the server will store the time. */
export function utcText(iso: string): string {
  return `${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
}
