const MIN_MS = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/**
 * Epoch milliseconds → ISO 8601 in UTC with milliseconds and a Z, e.g. 2026-11-22T09:14:03.512Z:
 * what `new Date(ms).toISOString()` gives for years 0–9999, in a third of its time (every
 * employee in every answer has two of these). Outside those years, Date's own.
 */
export function iso(ms: number): string {
  if (!(ms >= MIN_MS && ms <= MAX_MS)) return new Date(ms).toISOString();
  const day = Math.floor(ms / 86_400_000);
  let rest = ms - day * 86_400_000;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // Days since 1970-01-01 → civil date (H. Hinnant's days_from_civil, inverted).
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const date = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(date, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}Z`;
}

function pad(n: number, width: number): string {
  const text = String(n);
  return text.length >= width ? text : '0'.repeat(width - text.length) + text;
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}

// RFC 3339's date-time (ISO 8601 with a time zone): seconds and fractions optional, `Z` or an
// offset. A space stands for the `+` of an offset that a client forgot to percent-encode in a
// query string (where `+` means a space).
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2}):(\d{2}))$/;

/**
 * An ISO 8601 instant with a time zone (`2026-11-22T09:14:03.512Z`, `2026-11-22T10:14:03+01:00`)
 * → epoch milliseconds (digits past the millisecond dropped), or null when the text is not one
 * or names no real moment (a 30 February, a 25th hour, a time without a zone).
 */
export function parseInstant(text: string): number | null {
  const m = INSTANT.exec(text);
  if (!m) return null;
  const [year, month, day, hours, minutes] = [1, 2, 3, 4, 5].map((i) => Number(m[i])) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const seconds = Number(m[6] ?? 0);
  const millis = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (hours > 23 || minutes > 59 || seconds > 59 || Number(m[10] ?? 0) > 23 || Number(m[11] ?? 0) > 59)
    return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  date.setUTCHours(hours, minutes, seconds, millis);
  return date.getTime() - offset * 60_000;
}
