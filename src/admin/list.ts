import { type TSchema, Type } from '@sinclair/typebox';
import { POSITIVE_INTEGER_PATTERN } from '../http/schemas.js';
import { readWindow } from '../pagination.js';

/**
 * Lists of the admin API: `page` (1-based, default 1) and `page_size` (default 25, above 200
 * clamped to 200) answered with `{count, results}`. A page past the last is empty, not an
 * error: the interface may hold a stale page number after a delete.
 */

const ADMIN_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE_SIZE = 200;

// Text, like the Customer API's: only plain decimal positive integers pass (`1.5`, `0`, `1e3`,
// `abc` → 400 Validation failed "must be a positive integer").
export const listQueryFields = {
  page: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
  page_size: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
};

/** Query of a list with paging only; spread `listQueryFields` into lists with more parameters. */
export const ListQuery = Type.Object(listQueryFields);

/** The rows of one page, as the services take it. */
export interface ListWindow {
  limit: number;
  offset: number;
}

export interface ListPage<T> {
  /** Every item that matches, across all pages. */
  count: number;
  items: T[];
}

export function listWindow(query: { page?: string; page_size?: string }): ListWindow {
  const page = query.page === undefined ? 1 : Number(query.page);
  const size = Math.min(
    query.page_size === undefined ? ADMIN_PAGE_SIZE : Number(query.page_size),
    ADMIN_MAX_PAGE_SIZE,
  );
  return { limit: size, offset: (page - 1) * size };
}

/** Reads one page of an admin list; a page past the last is empty, with the total still right. */
export function readList<T>(
  window: ListWindow,
  count: () => Promise<number>,
  rows: (limit: number, offset: number) => Promise<T[]>,
): Promise<ListPage<T>> {
  return readWindow(window.limit, window.offset, count, rows, count);
}

/** The `{count, results}` envelope. */
export function listEnvelope<T, R>(page: ListPage<T>, present: (item: T) => R) {
  return { count: page.count, results: page.items.map(present) };
}

/** Response schema of a list of `item`s. */
export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({ count: Type.Integer({ minimum: 0 }), results: Type.Array(item) });
