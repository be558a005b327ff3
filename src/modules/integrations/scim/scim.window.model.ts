import { readWindow } from '../../../core/pagination.js';

/** A SCIM list's window: `startIndex` (1-based) and `count` (RFC 7644 §3.4.2.4). */
export interface ScimWindow {
  startIndex: number;
  count: number;
}

/**
 * One window of a SCIM list and the total: one query when the window holds the rest (an
 * identity provider's `filter=userName eq "…"` look-up), as readWindow does for every list.
 */
export async function readScimWindow<T>(
  window: ScimWindow,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<{ total: number; items: T[] }> {
  if (window.count === 0) return { total: await count(), items: [] };
  const page = await readWindow(window.count, window.startIndex - 1, count, rows, count);
  return { total: page.count, items: page.items };
}
