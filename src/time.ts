/** Epoch milliseconds → ISO 8601 in UTC with milliseconds and a Z, e.g. 2026-11-22T09:14:03.512Z. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}
