import { invalidPage } from './errors.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface Page<T> extends PageRequest {
  count: number;
  items: T[];
}

/** A page whose items are already JSON: an array text made by the database. */
export interface PageJson extends PageRequest {
  count: number;
  results: string;
}

/** Page 1 by default; page sizes above the maximum are clamped to it. */
export function pageRequest(query: { page?: number | string; page_size?: number | string }): PageRequest {
  return {
    page: query.page === undefined ? 1 : Number(query.page),
    pageSize: Math.min(
      query.page_size === undefined ? DEFAULT_PAGE_SIZE : Number(query.page_size),
      MAX_PAGE_SIZE,
    ),
  };
}

/**
 * Reads the rows [offset, offset + limit) and the total, counting only when the rows cannot
 * tell: a short, non-empty window (or an empty first one) ends the collection, so the total is
 * known without a second query. `pastTheEnd` answers for an empty window after the first.
 */
export async function readWindow<T>(
  limit: number,
  offset: number,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
  pastTheEnd: () => Promise<number>,
): Promise<{ count: number; items: T[] }> {
  // Far past any real collection (an offset like 10^20): nothing to ask the database for.
  const items = Number.isSafeInteger(offset) ? await rows(limit, offset) : [];
  if (items.length === 0 && offset > 0) return { count: await pastTheEnd(), items };
  return { count: items.length < limit ? offset + items.length : await count(), items };
}

/**
 * Reads one page of the Customer API (an email look-up is one query, not two). Page 1 of an
 * empty collection is an empty page; any page past the last is `Invalid page`.
 */
export async function fetchPage<T>(
  request: PageRequest,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<Page<T>> {
  const offset = (request.page - 1) * request.pageSize;
  const page = await readWindow(request.pageSize, offset, count, rows, async () => {
    throw invalidPage();
  });
  return { ...request, ...page };
}
