import { type Db, dialectOf } from './database.js';

/**
 * Long id lists (100,000 in one request) are handled in slices: better-sqlite3 runs every
 * statement on the event loop, so one statement over 100,000 rows would stall every other
 * request for a few hundred milliseconds; a slice of 5,000 takes a few. PostgreSQL runs its
 * statements elsewhere, so its slices are larger (fewer round trips).
 */
const SLICE_SIZE = { sqlite: 5_000, postgres: 50_000 } as const;

export function sliceSize(db: Db): number {
  return SLICE_SIZE[dialectOf(db)];
}

/** The ids ascending, each once (a typed-array sort: no comparator call per pair). */
export function distinctSorted(ids: readonly number[]): number[] {
  const sorted = Float64Array.from(ids).sort();
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[i] as number;
    if (i === 0 || id !== sorted[i - 1]) out.push(id);
  }
  return out;
}

/** Consecutive slices of at most `size` ids. */
export function slices<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
