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
 * Reads one page, and counts only when the page cannot tell: a page with fewer rows than the
 * page size is the last one, so the total is known (an email look-up is one query, not two).
 * Page 1 of an empty collection is an empty page; any page past the last is `Invalid page`.
 */
export async function fetchPage<T>(
  request: PageRequest,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<Page<T>> {
  const offset = (request.page - 1) * request.pageSize;
  // Far past any real collection: no need to ask the database for an offset like 10^20.
  const items = Number.isSafeInteger(offset) ? await rows(request.pageSize, offset) : [];
  if (items.length === 0 && request.page > 1) throw invalidPage();
  const total = items.length < request.pageSize ? offset + items.length : await count();
  return { ...request, count: total, items };
}
