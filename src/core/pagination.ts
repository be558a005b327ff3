import { invalidPage } from './errors.js';

/**
 * Paging, for every surface alike. Two conventions:
 * - the Customer API's pages (`page`, `page_size`, default 100, at most 1000): any page past the
 *   last is `Invalid page` (fetchPage);
 * - the lists of the admin API and the `vigil` command (`page`, `page_size`, default 25, at most
 *   200) answered as `{count, results}`: a page past the last is empty, not an error, since the
 *   interface may hold a stale page number after a delete (readList).
 * Both read a window of rows and count only when the rows cannot tell (readWindow).
 */

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
export const LIST_PAGE_SIZE = 25;
export const LIST_MAX_PAGE_SIZE = 200;

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

/** The rows of one page of a list, as the services take it. */
export interface ListWindow {
  limit: number;
  offset: number;
}

export interface ListPage<T> {
  /** Every item that matches, across all pages. */
  count: number;
  items: T[];
}

/** Page 1 of 25 by default; page sizes above 200 are clamped to 200. */
export function listWindow(query: { page?: string | number; page_size?: string | number }): ListWindow {
  const page = query.page === undefined ? 1 : Number(query.page);
  const size = Math.min(
    query.page_size === undefined ? LIST_PAGE_SIZE : Number(query.page_size),
    LIST_MAX_PAGE_SIZE,
  );
  return { limit: size, offset: (page - 1) * size };
}

/** Reads one page of a list; a page past the last is empty, with the total still right. */
export function readList<T>(
  window: ListWindow,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<ListPage<T>> {
  return readWindow(window.limit, window.offset, count, rows, count);
}
