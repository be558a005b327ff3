import type { FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from './errors.js';
import { presentPage } from './http/page-envelope.js';
import { DEFAULT_PAGE_SIZE, fetchPage, MAX_PAGE_SIZE, pageRequest } from './pagination.js';

describe('pageRequest', () => {
  it('defaults to page 1 of 100', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(100);
    expect(pageRequest({})).toEqual({ page: 1, pageSize: 100 });
  });

  it('keeps sizes up to 1000 and clamps larger ones to 1000', () => {
    expect(MAX_PAGE_SIZE).toBe(1000);
    expect(pageRequest({ page: 3, page_size: 1 })).toEqual({ page: 3, pageSize: 1 });
    expect(pageRequest({ page_size: 1000 })).toEqual({ page: 1, pageSize: 1000 });
    expect(pageRequest({ page_size: 1001 })).toEqual({ page: 1, pageSize: 1000 });
    expect(pageRequest({ page_size: 1e20 })).toEqual({ page: 1, pageSize: 1000 });
  });
});

describe('fetchPage', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  /** A collection of n items, recording which rows were asked for. */
  function collection(n: number) {
    const all = items(n);
    const rows = vi.fn(async (limit: number, offset: number) => all.slice(offset, offset + limit));
    return { count: vi.fn(async () => n), rows };
  }

  it('reads the requested slice', async () => {
    const c = collection(25);
    const page = await fetchPage({ page: 3, pageSize: 10 }, c.count, c.rows);
    expect(page).toEqual({ page: 3, pageSize: 10, count: 25, items: [21, 22, 23, 24, 25] });
    expect(c.rows).toHaveBeenCalledWith(10, 20);
  });

  it('serves the last page exactly at a boundary', async () => {
    const c = collection(20);
    const page = await fetchPage({ page: 2, pageSize: 10 }, c.count, c.rows);
    expect(page.items).toEqual(items(20).slice(10));
  });

  it('counts only when the page is full: a shorter page tells the total', async () => {
    const short = collection(25);
    expect((await fetchPage({ page: 3, pageSize: 10 }, short.count, short.rows)).count).toBe(25);
    expect(short.count).not.toHaveBeenCalled();
    const full = collection(25);
    expect((await fetchPage({ page: 2, pageSize: 10 }, full.count, full.rows)).count).toBe(25);
    expect(full.count).toHaveBeenCalledOnce();
  });

  it('answers page 1 of an empty collection with no items, without counting', async () => {
    const c = collection(0);
    expect(await fetchPage({ page: 1, pageSize: 100 }, c.count, c.rows)).toEqual({
      page: 1,
      pageSize: 100,
      count: 0,
      items: [],
    });
    expect(c.count).not.toHaveBeenCalled();
  });

  it('throws 404 Invalid page past the last page', async () => {
    for (const [n, page] of [
      [0, 2],
      [20, 3],
      [21, 4],
      [5, Number.MAX_SAFE_INTEGER],
    ] as const) {
      const c = collection(n);
      const error = await fetchPage({ page, pageSize: 10 }, c.count, c.rows).catch((e) => e);
      expect(error, `${n} items, page ${page}`).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 404, message: 'Invalid page' });
    }
  });
});

describe('presentPage', () => {
  const request = (url: string, host = 'vigil.example.com', protocol: 'http' | 'https' = 'https') =>
    ({ url, host, protocol }) as unknown as FastifyRequest;

  it('links the neighbouring pages with absolute URLs, keeping every other query parameter', () => {
    const envelope = presentPage(
      request('/api/api_gateway/customer/employees/?page_size=2&page=2&email=ann%40x.com'),
      { page: 2, pageSize: 2, count: 5, items: [3, 4] },
      (n) => ({ id: n }),
    );
    expect(envelope).toEqual({
      count: 5,
      next: 'https://vigil.example.com/api/api_gateway/customer/employees/?page_size=2&page=3&email=ann%40x.com',
      previous:
        'https://vigil.example.com/api/api_gateway/customer/employees/?page_size=2&page=1&email=ann%40x.com',
      results: [{ id: 3 }, { id: 4 }],
    });
  });

  it('adds page when the request had none, and keeps the port', () => {
    const envelope = presentPage(
      request('/api/api_gateway/customer/groups/', 'localhost:8080', 'http'),
      { page: 1, pageSize: 100, count: 101, items: [] },
      (n) => n,
    );
    expect(envelope.next).toBe('http://localhost:8080/api/api_gateway/customer/groups/?page=2');
    expect(envelope.previous).toBeNull();
  });

  it('has no next link on the last page and none at all on a single page', () => {
    const last = presentPage(
      request('/x/?page=3'),
      { page: 3, pageSize: 10, count: 30, items: [] },
      (n) => n,
    );
    expect(last.next).toBeNull();
    expect(last.previous).toBe('https://vigil.example.com/x/?page=2');
    const single = presentPage(request('/x/'), { page: 1, pageSize: 10, count: 10, items: [] }, (n) => n);
    expect(single).toEqual({ count: 10, next: null, previous: null, results: [] });
  });
});
