import type { FastifyRequest } from 'fastify';
import type { Page } from '../pagination.js';
import { pageUrl } from './links.js';

/** The contract's paginated envelope, with absolute `next`/`previous` links. */
export function presentPage<T, R>(request: FastifyRequest, page: Page<T>, present: (item: T) => R) {
  const hasNext = page.page * page.pageSize < page.count;
  return {
    count: page.count,
    next: hasNext ? pageUrl(request, page.page + 1) : null,
    previous: page.page > 1 ? pageUrl(request, page.page - 1) : null,
    results: page.items.map(present),
  };
}
