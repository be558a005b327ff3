import { beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  requestFingerprint,
  startIdempotentRequest,
} from '../src/modules/integrations/idempotency/idempotency.service.js';
import { runScheduledWork } from '../src/workers/scheduler.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { client, makeKey } from './helpers/factories.js';

/**
 * `Idempotency-Key` on the Customer API (issue 12, item 4), as Stripe defines it, on the
 * database the suite runs on (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});

let n = 0;
const person = () => {
  n++;
  return { first_name: 'Ann', last_name: `Lee ${n}`, email: `ann.lee.${n}.${Date.now()}@example.com` };
};
const withKey = (key: string) => ({ 'idempotency-key': key });
const employeeCount = async (accountId: number) =>
  Number(
    (
      await t.app.db
        .selectFrom('employees')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Idempotency-Key', () => {
  it('answers a retry with the first response (status, body, Location) and does the work once', async () => {
    const { key, accountId } = await makeKey(t.app);
    const api = client(t.app, key);
    const body = person();
    const first = await api.post('/customer/employees/', body, withKey('create-ann-1'));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await api.post('/customer/employees/', body, withKey('create-ann-1'));
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Each answer is its own request: its own id and budget.
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(again.headers['ratelimit-remaining']).toBeDefined();
    expect(await employeeCount(accountId)).toBe(1);
  });

  it('replays a DELETE’s 204 (employees, groups, webhook endpoints) instead of running it again', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const employee = (await api.post('/customer/employees/', person())).json();
    const group = (await api.post('/customer/groups/', { name: `G ${n++}` })).json();
    const endpoint = (
      await api.post('/customer/webhooks/endpoints/', { url: 'https://hooks.example.com/vigil' })
    ).json();
    for (const path of [
      `/customer/employees/${employee.id}/`,
      `/customer/groups/${group.id}/`,
      `/customer/webhooks/endpoints/${endpoint.id}/`,
    ]) {
      const first = await api.request('DELETE', path, undefined, withKey(`delete:${path}`));
      expect(first.statusCode, `${path} ${first.body}`).toBe(204);
      const again = await api.request('DELETE', path, undefined, withKey(`delete:${path}`));
      expect(again.statusCode, path).toBe(204);
      expect(again.headers['idempotent-replayed'], path).toBe('true');
      expect(again.body).toBe('');
      // Without the key, the same request is a new one: the object is gone.
      expect((await api.request('DELETE', path)).statusCode, path).toBe(404);
    }
  });

  it('replays an error the first request got (a 409) rather than running it again', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const body = person();
    await api.post('/customer/employees/', body);
    const first = await api.post('/customer/employees/', body, withKey('dup-1'));
    expect(first.json()).toMatchObject({ code: 'email_taken' });
    const again = await api.post('/customer/employees/', body, withKey('dup-1'));
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().request_id).toBe(first.json().request_id);
  });

  it('refuses the same key with another body (422) and changes nothing', async () => {
    const { key, accountId } = await makeKey(t.app);
    const api = client(t.app, key);
    await api.post('/customer/employees/', person(), withKey('k-422'));
    const other = await api.post('/customer/employees/', person(), withKey('k-422'));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      error: 'Idempotency key reused with a different request',
      status: 422,
      code: 'idempotency_key_reused',
    });
    expect(await employeeCount(accountId)).toBe(1);
  });

  it('keeps keys per API key: another key of the same account runs its own request', async () => {
    const a = await makeKey(t.app);
    const b = await makeKey(t.app, { accountId: a.accountId });
    const first = await client(t.app, a.key).post('/customer/employees/', person(), withKey('shared'));
    const second = await client(t.app, b.key).post('/customer/employees/', person(), withKey('shared'));
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await employeeCount(a.accountId)).toBe(2);
  });

  it('runs concurrent requests with one key once: the others get 409 "Request in progress" or the replay', async () => {
    const { key, accountId } = await makeKey(t.app);
    const api = client(t.app, key);
    const body = person();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api.post('/customer/employees/', body, withKey('burst'))),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const a of answers) {
      if (a.statusCode === 409) expect(a.json()).toMatchObject({ code: 'request_in_progress' });
      else expect(a.statusCode).toBe(201);
    }
    expect(answers.filter((a) => a.statusCode === 201 && !a.headers['idempotent-replayed'])).toHaveLength(1);
    expect(await employeeCount(accountId)).toBe(1);
  });

  it('refuses an unusable key with the contract’s 400 and runs nothing', async () => {
    const { key, accountId } = await makeKey(t.app);
    for (const bad of ['x'.repeat(256), 'with space', 'ünïcode']) {
      const res = await client(t.app, key).post('/customer/employees/', person(), withKey(bad));
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        details: { 'Idempotency-Key': [expect.any(String)] },
      });
    }
    expect(await employeeCount(accountId)).toBe(0);
  });

  it('ignores the key on reads, and on a request refused before it ran (no key kept)', async () => {
    const { key, accountId } = await makeKey(t.app);
    const api = client(t.app, key);
    expect((await api.get('/customer/employees/', withKey('read'))).statusCode).toBe(200);
    const malformed = await api.request(
      'POST',
      '/customer/employees/',
      '{"first_name":',
      withKey('fix-and-retry'),
    );
    expect(malformed.statusCode).toBe(400);
    const fixed = await api.post('/customer/employees/', person(), withKey('fix-and-retry'));
    expect(fixed.statusCode).toBe(201);
    expect(await employeeCount(accountId)).toBe(1);
  });

  it('runs a request again once the first one’s lease ran out (its process died), and after 24 hours', async () => {
    const { accountId, keyId } = await makeKey(t.app);
    const fingerprint = requestFingerprint('POST', '/x', { a: 1 });
    const now = Date.now();
    const first = await startIdempotentRequest(t.app.db, accountId, keyId, {
      key: 'lease',
      fingerprint,
      now,
    });
    expect(first.run).toBe(true);
    await expect(
      startIdempotentRequest(t.app.db, accountId, keyId, { key: 'lease', fingerprint, now: now + 1000 }),
    ).rejects.toMatchObject({ code: 'request_in_progress' });
    const later = now + IDEMPOTENCY_LEASE_MS + 1;
    const taken = await startIdempotentRequest(t.app.db, accountId, keyId, {
      key: 'lease',
      fingerprint,
      now: later,
    });
    expect(taken).toEqual(first);
    // Expired keys go with the scheduler's pass; a key may then be used for anything.
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    await runScheduledWork(t.app.db, now + IDEMPOTENCY_TTL_MS + 1, log);
    const rows = await t.app.db
      .selectFrom('idempotency_keys')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    expect(rows).toEqual([]);
    const other = requestFingerprint('POST', '/x', { a: 2 });
    expect(
      (await startIdempotentRequest(t.app.db, accountId, keyId, { key: 'lease', fingerprint: other })).run,
    ).toBe(true);
  });

  it('never shows another account’s response for the same key', async () => {
    const a = await makeKey(t.app);
    const b = await makeKey(t.app);
    const body = person();
    const first = await client(t.app, a.key).post('/customer/employees/', body, withKey('same-key'));
    const second = await client(t.app, b.key).post('/customer/employees/', body, withKey('same-key'));
    expect(second.statusCode).toBe(201);
    expect(second.json().id).not.toBe(first.json().id);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
  });
});
