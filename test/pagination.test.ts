import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { client, makeCampaign, makeGroup, makeKey, seedEmployees } from './helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

const PREFIX = '/api/api_gateway';
const LISTS = ['/customer/employees/', '/customer/groups/', '/customer/campaigns/training/'];

async function accountWith(employees: number) {
  const { accountId, key } = await makeKey(t.app);
  const ids = employees > 0 ? await seedEmployees(t.app, accountId, employees) : [];
  return { accountId, key, ids, api: client(t.app, key) };
}

/** The page's ids, in order. */
const idsOf = (res: LightMyRequestResponse) => res.json().results.map((r: { id: number }) => r.id);

/** Follows an absolute link as a client would: same host, the link's path and query. */
function follow(link: string, key: string) {
  const url = new URL(link);
  return t.app.inject({
    method: 'GET',
    url: url.pathname + url.search,
    headers: { apikey: key, host: url.host },
  });
}

/** A link's parts: origin, path and query parameters (order of parameters does not matter). */
function parts(link: string | null) {
  if (link === null) return null;
  const url = new URL(link);
  return { origin: url.origin, path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

describe('page size', () => {
  it('defaults to 100', async () => {
    const { api, ids, key } = await accountWith(101);
    const res = await api.get('/customer/employees/', { host: 'vigil.example.com' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(101);
    expect(idsOf(res)).toEqual(ids.slice(0, 100));
    expect(body.previous).toBeNull();
    expect(parts(body.next)).toEqual({
      origin: 'http://vigil.example.com',
      path: `${PREFIX}/customer/employees/`,
      query: { page: '2' },
    });
    const last = await follow(body.next, key);
    expect(idsOf(last)).toEqual(ids.slice(100));
    expect(last.json().next).toBeNull();
  });

  it('clamps a page size above 1000 to 1000', async () => {
    const { api, ids } = await accountWith(1001);
    for (const size of ['1001', '5000', '99999999999999999999']) {
      const res = await api.get(`/customer/employees/?page_size=${size}`);
      expect(res.statusCode, size).toBe(200);
      expect(res.json().count).toBe(1001);
      expect(idsOf(res), size).toEqual(ids.slice(0, 1000));
      expect(parts(res.json().next)?.query).toEqual({ page_size: size, page: '2' });
    }
    const second = await api.get('/customer/employees/?page_size=5000&page=2');
    expect(idsOf(second)).toEqual([ids[1000]]);
    const exactly = await api.get('/customer/employees/?page_size=1000');
    expect(idsOf(exactly)).toEqual(ids.slice(0, 1000));
  });

  it('accepts page_size=1', async () => {
    const { api, ids } = await accountWith(2);
    const res = await api.get('/customer/employees/?page_size=1');
    expect(res.statusCode).toBe(200);
    expect(idsOf(res)).toEqual([ids[0]]);
  });
});

describe('invalid page and page_size', () => {
  it('answers 400 Validation failed for values that are not positive integers, on every list', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const cases: Array<[string, string]> = [
      ['0', 'must be a positive integer'],
      ['-1', 'must be a positive integer'],
      ['abc', 'must be a positive integer'],
      ['1.5', 'must be a positive integer'],
      ['', 'must be a positive integer'],
      ['true', 'must be a positive integer'],
      // Not plain decimal integers, though JavaScript would read them as 1.
      ['%2B1', 'must be a positive integer'],
      ['0x1', 'must be a positive integer'],
      ['1e0', 'must be a positive integer'],
      ['%201', 'must be a positive integer'],
      ['1.0', 'must be a positive integer'],
      ['01', 'must be a positive integer'],
    ];
    for (const list of LISTS) {
      for (const param of ['page', 'page_size']) {
        for (const [value, message] of cases) {
          const res = await api.get(`${list}?${param}=${value}`);
          expect(res.statusCode, `${list}?${param}=${value}`).toBe(400);
          expect(res.json()).toEqual({
            error: 'Validation failed',
            status: 400,
            ...coded('validation_failed'),
            details: { [param]: [message] },
          });
        }
      }
    }
  });

  it('reports both parameters at once', async () => {
    const { api } = await accountWith(0);
    const res = await api.get('/customer/employees/?page=0&page_size=abc');
    expect(res.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { page: ['must be a positive integer'], page_size: ['must be a positive integer'] },
    });
  });

  it('checks the key before the query', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${PREFIX}/customer/employees/?page=abc` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'API key required', status: 401 });
  });
});

describe('pages past the end', () => {
  it('answers 404 Invalid page past the last page, on every list', async () => {
    const { accountId, key } = await makeKey(t.app);
    await seedEmployees(t.app, accountId, 3);
    for (let i = 0; i < 3; i++) {
      const group = await makeGroup(t.app, accountId);
      await makeCampaign(t.app, accountId, [group.id]);
    }
    const api = client(t.app, key);
    for (const list of LISTS) {
      const last = await api.get(`${list}?page=2&page_size=2`);
      expect(last.statusCode, list).toBe(200);
      expect(last.json().results).toHaveLength(1);
      for (const page of ['3', '4', '1000', '99999999999999999999']) {
        const res = await api.get(`${list}?page=${page}&page_size=2`);
        expect(res.statusCode, `${list} page ${page}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Invalid page', status: 404, ...coded('invalid_page') });
      }
    }
  });

  it('answers page 1 of an empty collection with 200 and no results, and page 2 with 404', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    for (const list of LISTS) {
      const first = await api.get(`${list}?page=1`);
      expect(first.statusCode, list).toBe(200);
      expect(first.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
      const second = await api.get(`${list}?page=2`);
      expect(second.statusCode, list).toBe(404);
      expect(second.json()).toEqual({ error: 'Invalid page', status: 404, ...coded('invalid_page') });
    }
  });

  it('an email filter that matches nothing is an empty page 1', async () => {
    const { api } = await accountWith(3);
    const res = await api.get('/customer/employees/?email=nobody@example.com');
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    const past = await api.get('/customer/employees/?email=nobody@example.com&page=2');
    expect(past.json()).toEqual({ error: 'Invalid page', status: 404, ...coded('invalid_page') });
  });
});

describe('next and previous links', () => {
  it('are absolute URLs on the host the client used, keeping the other query parameters', async () => {
    const { api, ids } = await accountWith(7);
    const page2 = await api.get('/customer/employees/?page_size=2&page=2&tag=a%20b', {
      host: 'api.customer.example:8443',
    });
    expect(page2.statusCode).toBe(200);
    const body = page2.json();
    expect(body.count).toBe(7);
    expect(idsOf(page2)).toEqual(ids.slice(2, 4));
    expect(parts(body.next)).toEqual({
      origin: 'http://api.customer.example:8443',
      path: `${PREFIX}/customer/employees/`,
      query: { page_size: '2', page: '3', tag: 'a b' },
    });
    expect(parts(body.previous)).toEqual({
      origin: 'http://api.customer.example:8443',
      path: `${PREFIX}/customer/employees/`,
      query: { page_size: '2', page: '1', tag: 'a b' },
    });
  });

  it('applies the email filter to the count and to every page', async () => {
    const { accountId, key } = await makeKey(t.app);
    await seedEmployees(t.app, accountId, 2);
    const api = client(t.app, key);
    const email = (await api.get('/customer/employees/?page_size=1')).json().results[0].email;
    // One match: no links, whatever the page size.
    const res = await api.get(
      `/customer/employees/?email=${encodeURIComponent(email.toUpperCase())}&page_size=1`,
    );
    expect(res.json()).toMatchObject({ count: 1, next: null, previous: null });
    // Past it: the filter still applies on page 2.
    const past = await api.get(`/customer/employees/?email=${encodeURIComponent(email)}&page_size=1&page=2`);
    expect(past.statusCode).toBe(404);
  });

  it('are built from the Host header, not from X-Forwarded-* (no TRUST_PROXY)', async () => {
    const { api } = await accountWith(3);
    const res = await api.get('/customer/employees/?page_size=1', {
      host: 'direct.example.com',
      'x-forwarded-host': 'evil.example.net',
      'x-forwarded-proto': 'https',
    });
    expect(parts(res.json().next)?.origin).toBe('http://direct.example.com');
  });

  it('following next from page 1 visits every item exactly once, and previous walks back', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await api.post('/customer/employees/', {
        first_name: `P${i}`,
        last_name: 'Walk',
        email: `walk${i}@example.com`,
      });
      ids.push(res.json().id);
    }
    await seedEmployees(t.app, (await makeKey(t.app)).accountId, 5); // another account's, interleaved ids

    const seen: number[] = [];
    const pages: string[] = [];
    let res = await api.get('/customer/employees/?page_size=4', { host: 'vigil.example.com' });
    expect(res.json().previous).toBeNull();
    for (;;) {
      expect(res.statusCode).toBe(200);
      expect(res.json().count).toBe(25);
      seen.push(...idsOf(res));
      const next = res.json().next as string | null;
      if (next === null) break;
      pages.push(next);
      res = await follow(next, key);
    }
    expect(seen).toEqual(ids);
    expect(pages).toHaveLength(6);
    expect(idsOf(res)).toEqual(ids.slice(24));

    const back: number[][] = [];
    for (let prev = res.json().previous as string | null; prev !== null; ) {
      const page = await follow(prev, key);
      back.unshift(idsOf(page));
      prev = page.json().previous;
    }
    expect(back.flat()).toEqual(ids.slice(0, 24));
  });
});

describe('next and previous links behind a trusted proxy (TRUST_PROXY)', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await buildTestApp({ TRUST_PROXY: 'true' });
  });

  it('use the scheme and host the client sent to the proxy', async () => {
    const { accountId, key } = await makeKey(proxied.app);
    await seedEmployees(proxied.app, accountId, 3);
    const res = await proxied.app.inject({
      method: 'GET',
      url: `${PREFIX}/customer/employees/?page_size=1&page=2`,
      headers: {
        apikey: key,
        host: 'internal:8080',
        'x-forwarded-host': 'api.vigil.example',
        'x-forwarded-proto': 'https',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(parts(res.json().next)).toEqual({
      origin: 'https://api.vigil.example',
      path: `${PREFIX}/customer/employees/`,
      query: { page_size: '1', page: '3' },
    });
    expect(parts(res.json().previous)?.origin).toBe('https://api.vigil.example');
  });
});

describe('repeated query parameters', () => {
  it('answers 400 saying the parameter must be given once', async () => {
    const { key } = await makeKey(t.app);
    const res = await client(t.app, key).get('/customer/employees/?page=1&page=2');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      ...coded('validation_failed'),
      details: { page: ['must be given once'] },
    });
  });
});
