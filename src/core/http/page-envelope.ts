import type { FastifyRequest } from 'fastify';
import type { ListPage, Page, PageJson } from '../pagination.js';
import { pageUrl } from './links.js';

function links(request: FastifyRequest, page: { page: number; pageSize: number; count: number }) {
  const hasNext = page.page * page.pageSize < page.count;
  return {
    next: hasNext ? pageUrl(request, page.page + 1) : null,
    previous: page.page > 1 ? pageUrl(request, page.page - 1) : null,
  };
}

/** The contract's paginated envelope, with absolute `next`/`previous` links. */
export function presentPage<T, R>(request: FastifyRequest, page: Page<T>, present: (item: T) => R) {
  return { count: page.count, ...links(request, page), results: page.items.map(present) };
}

/** The same envelope as JSON text around results that already are JSON (sent as is). */
export function presentPageJson(request: FastifyRequest, page: PageJson): string {
  const { next, previous } = links(request, page);
  return `{"count":${page.count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":${page.results}}`;
}

/** A list's `{count, results}` envelope (admin API, the `vigil` command). */
export function listEnvelope<T, R>(page: ListPage<T>, present: (item: T) => R) {
  return { count: page.count, results: page.items.map(present) };
}
