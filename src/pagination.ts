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
 * Counts, then reads one page. Page 1 of an empty collection is an empty page; any page
 * past the last is `Invalid page` (and the rows are never read).
 */
export async function fetchPage<T>(
  request: PageRequest,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<Page<T>> {
  const total = await count();
  const lastPage = Math.max(1, Math.ceil(total / request.pageSize));
  if (request.page > lastPage) throw invalidPage();
  const items = total === 0 ? [] : await rows(request.pageSize, (request.page - 1) * request.pageSize);
  return { ...request, count: total, items };
}
