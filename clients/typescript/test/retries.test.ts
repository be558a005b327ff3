import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKey } from '../../../test/helpers/factories.js';
import { type RetryEvent, retryAfterMs, VigilClient } from '../src/index.js';
import { caught } from './helpers/errors.js';
import { FaultyProxy } from './helpers/proxy.js';
import { listeningApp } from './helpers/server.js';

/**
 * Retries against the real server: a real 429 from a key's tiny budget, and a proxy in front of
 * the server that loses an answer or answers 503/500/409 once, as networks and load balancers do.
 */

let server: Awaited<ReturnType<typeof listeningApp>>;
let proxy: FaultyProxy;
beforeAll(async () => {
  server = await listeningApp();
  proxy = await new FaultyProxy(server.baseUrl).start();
});
afterAll(() => proxy.close());

const EMPLOYEES = '/api/api_gateway/customer/employees/';
let n = 0;
const person = () => ({ first_name: 'Ann', last_name: 'Lee', email: `ann.${++n}.${Date.now()}@example.com` });

/** A client through the proxy with a key of a new account; `retries` collects its retry events. */
async function viaProxy(
  options: { rateLimit?: number; maxRetries?: number; maxRetryAfterSeconds?: number } = {},
) {
  const { key } = await makeKey(server.app, options.rateLimit ? { rateLimit: options.rateLimit } : {});
  const retries: RetryEvent[] = [];
  const client = new VigilClient({
    baseUrl: proxy.baseUrl,
    apiKey: key,
    userAgent: 'hr-sync/1.0',
    backoff: { initialDelayMs: 20, maxDelayMs: 100 },
    onRetry: (e) => retries.push(e),
    ...options,
  });
  return { client, retries };
}

describe('Idempotency-Key', () => {
  it('applies a create once when its first answer is lost: the retry gets the stored answer', async () => {
    const { client, retries } = await viaProxy();
    const body = person();
    proxy.once('POST', EMPLOYEES, { kind: 'drop-response' });
    const created = await client.request('createEmployee', { body });
    expect(created).toMatchObject({ status: 201, replayed: true, data: { email: body.email } });
    const sent = proxy.requests('POST', EMPLOYEES).filter((r) => r.body.includes(body.email));
    expect(sent.map((r) => r.outcome)).toEqual(['drop-response', 'forwarded']);
    // One key for the logical call, sent again by the retry; the body is the same bytes.
    expect(sent[0]!.headers['idempotency-key']).toBe(created.idempotencyKey);
    expect(sent[1]!.headers['idempotency-key']).toBe(created.idempotencyKey);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(retries).toMatchObject([{ operation: 'createEmployee', attempt: 1, code: 'connection_error' }]);
    // Exactly one employee has the address.
    expect((await client.employees.page({ email: body.email })).count).toBe(1);
  });

  it('removes members once when the first answer is lost', async () => {
    const { client } = await viaProxy();
    const a = await client.employees.create(person());
    const b = await client.employees.create(person());
    const group = await client.groups.create({ name: 'Team' });
    await client.groups.addMembers(group.id, [a.id, b.id]);
    proxy.once('DELETE', `/api/api_gateway/customer/groups/${group.id}/members/`, { kind: 'drop-response' });
    const after = await client.groups.removeMembers(group.id, [a.id]);
    expect(after.group.employees.map((e) => e.id)).toEqual([b.id]);
  });

  it('sends a key of the caller’s own; the same key again answers the first response', async () => {
    const { client } = await viaProxy();
    const body = person();
    const first = await client.request('createEmployee', { body }, { idempotencyKey: 'hr-row-42' });
    const again = await client.request('createEmployee', { body }, { idempotencyKey: 'hr-row-42' });
    expect(again).toMatchObject({ status: 201, replayed: true, data: first.data });
    const conflict = await caught(client.employees.create(person(), { idempotencyKey: 'hr-row-42' }));
    expect(conflict).toMatchObject({ code: 'idempotency_key_reused', status: 422, attempts: 1 });
  });

  it('retries a 409 request_in_progress and gets the answer', async () => {
    const { client, retries } = await viaProxy();
    proxy.once('POST', EMPLOYEES, {
      kind: 'answer',
      status: 409,
      body: { error: 'Request in progress', status: 409, code: 'request_in_progress', request_id: 'r1' },
    });
    const created = await client.employees.create(person());
    expect(created.id).toBeGreaterThan(0);
    expect(retries).toMatchObject([{ status: 409, code: 'request_in_progress', delayFrom: 'backoff' }]);
  });

  it('sends no key with reads and PUT', async () => {
    const { client } = await viaProxy();
    const group = await client.groups.create({ name: 'Put' });
    await client.groups.replaceMembers(group.id, []);
    await client.groups.get(group.id);
    const path = `/api/api_gateway/customer/groups/${group.id}/`;
    expect(proxy.requests('PUT', path).map((r) => r.headers['idempotency-key'])).toEqual([undefined]);
    expect(proxy.requests('GET', path).map((r) => r.headers['idempotency-key'])).toEqual([undefined]);
    expect(proxy.requests('PUT', path)[0]!.headers['user-agent']).toBe(
      'hr-sync/1.0 vigil-client-typescript/2.3.0',
    );
    // Every request pins the version the client is written for.
    expect(proxy.requests('GET', path)[0]!.headers['x-api-version']).toBe('2.3.0');
  });
});

describe('retries', () => {
  it('honours a real 429’s Retry-After (cut to the cap), then gives up with rate_limited', async () => {
    const { client, retries } = await viaProxy({ rateLimit: 1, maxRetries: 2, maxRetryAfterSeconds: 0.05 });
    await client.employees.page();
    const limited = await caught(client.employees.page());
    expect(limited).toMatchObject({ code: 'rate_limited', status: 429, attempts: 3 });
    expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(retries.map((r) => [r.attempt, r.status, r.delayFrom, r.delayMs])).toEqual([
      [1, 429, 'retry-after', 50],
      [2, 429, 'retry-after', 50],
    ]);
  });

  it('waits a 503’s Retry-After in seconds, then succeeds', async () => {
    const { client, retries } = await viaProxy();
    proxy.once('GET', EMPLOYEES, { kind: 'answer', status: 503, headers: { 'retry-after': '1' } });
    expect((await client.employees.page()).count).toBe(0);
    expect(retries).toMatchObject([
      { status: 503, code: 'unexpected_response', delayFrom: 'retry-after', delayMs: 1000 },
    ]);
  });

  it('waits a 503’s Retry-After given as an HTTP date', async () => {
    const { client, retries } = await viaProxy();
    const date = new Date(Date.now() + 2000).toUTCString();
    proxy.once('GET', EMPLOYEES, {
      kind: 'answer',
      status: 503,
      headers: { 'retry-after': date },
      body: { error: 'Service unavailable', status: 503, code: 'service_unavailable', request_id: 'r2' },
    });
    await client.employees.page();
    expect(retries).toMatchObject([{ code: 'service_unavailable', delayFrom: 'retry-after' }]);
    expect(retries[0]!.delayMs).toBeGreaterThan(0);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(2000);
  });

  it('backs off after a 500 and after a connection that closed without an answer', async () => {
    const { client, retries } = await viaProxy();
    proxy.once('GET', EMPLOYEES, {
      kind: 'answer',
      status: 500,
      body: { error: 'Internal server error', status: 500, code: 'internal_error', request_id: 'r3' },
    });
    proxy.once('GET', EMPLOYEES, { kind: 'drop-request' });
    await client.employees.page();
    expect(retries.map((r) => [r.attempt, r.code, r.delayFrom])).toEqual([
      [1, 'internal_error', 'backoff'],
      [2, 'connection_error', 'backoff'],
    ]);
    expect(retries.every((r) => r.delayMs >= 10 && r.delayMs <= 100)).toBe(true);
  });

  it('gives up after maxRetries with connection_error when nothing answers', async () => {
    const retries: RetryEvent[] = [];
    const client = new VigilClient({
      baseUrl: 'http://127.0.0.1:9', // discard port: nothing listens
      apiKey: `vgl_${'a'.repeat(40)}`,
      maxRetries: 2,
      backoff: { initialDelayMs: 10 },
      onRetry: (e) => retries.push(e),
    });
    const err = await caught(client.employees.page());
    expect(err).toMatchObject({ code: 'connection_error', status: undefined, attempts: 3 });
    expect(retries).toHaveLength(2);
  });

  it('does not retry an error that would fail again (a 404)', async () => {
    const { client, retries } = await viaProxy();
    expect(await caught(client.employees.get(999_999))).toMatchObject({
      code: 'employee_not_found',
      attempts: 1,
    });
    expect(retries).toEqual([]);
  });

  it('stops waiting when the caller aborts', async () => {
    const { client } = await viaProxy();
    proxy.once('GET', EMPLOYEES, { kind: 'answer', status: 503, headers: { 'retry-after': '30' } });
    const abort = new AbortController();
    const call = client.employees.page({}, { signal: abort.signal });
    setTimeout(() => abort.abort(new Error('stopped by the caller')), 50);
    await expect(call).rejects.toThrow('stopped by the caller');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-22T09:14:03Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:14:13 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
