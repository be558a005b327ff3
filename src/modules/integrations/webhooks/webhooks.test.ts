import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeKey } from '../../../../test/helpers/factories.js';
import { startReceiver } from '../../../../test/helpers/webhook-receiver.js';
import { type Clock, systemClock } from '../../../core/outbox/clock.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, WebhookWorker } from '../../../workers/webhook-worker.js';

const log = { info() {}, warn() {}, error() {} };
// The receiver listens on 127.0.0.1: the operator allows exactly that address.
const { app } = await buildTestApp({ WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32', WEBHOOKS_ALLOW_HTTP: 'on' });
let answers: Array<{ status: number; body?: string }> = [];
const receiver = await startReceiver(() => answers.shift() ?? { status: 200, body: 'ok' });
// Real time, moved on by the test: retries come due without sleeping, signatures stay fresh.
let offset = 0;
const clock: Clock & { advance(ms: number): void } = {
  now: () => Date.now() + offset,
  sleep: systemClock.sleep,
  advance: (ms) => {
    offset += ms;
  },
};
const worker = () =>
  new WebhookWorker({
    db: app.db,
    log,
    timeoutMs: 5000,
    leaseMs: 60_000,
    concurrency: 2,
    allowedNetworks: app.config.webhooks.allowedNetworks,
    clock,
    random: () => 0.5,
  });

async function account() {
  const { id } = await makeAccount(app);
  const { key } = await makeKey(app, { accountId: id });
  return { id, api: client(app, key) };
}

async function endpoint(api: ReturnType<typeof client>, path: string, eventTypes?: string[] | null) {
  const res = await api.post('/customer/webhooks/endpoints/', {
    url: `${receiver.url}${path}`,
    description: 'test receiver',
    ...(eventTypes !== undefined ? { event_types: eventTypes } : {}),
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; secret: string };
}

const at = (path: string) => receiver.received.filter((r) => r.path === path);
const bodies = (path: string) => at(path).map((r) => JSON.parse(r.body));

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret shown once, and lists it without', async () => {
    const { api } = await account();
    const created = await endpoint(api, '/create');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await api.get('/customer/webhooks/endpoints/');
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([
      expect.objectContaining({ id: created.id, enabled: true, event_types: null, disabled_reason: null }),
    ]);
    expect(list.body).not.toContain(created.secret);
  });

  it('refuses unknown event types and URLs that are no URLs', async () => {
    const { api } = await account();
    const bad = await api.post('/customer/webhooks/endpoints/', { url: 'not a url', event_types: ['nope'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Validation failed');
    expect((await api.get('/customer/webhooks/endpoints/')).json().count).toBe(0);
  });
});

describe('delivery', () => {
  it('signs employee.created as Standard Webhooks defines, verifiable with the standardwebhooks package', async () => {
    const { api } = await account();
    const { secret } = await endpoint(api, '/signed');
    const made = await api.post('/customer/employees/', {
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.com',
    });
    expect((await worker().drain()).succeeded).toBe(1);
    const [hook] = at('/signed');
    expect(hook?.headers['webhook-id']).toMatch(/^msg_/);
    expect(hook?.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(hook?.headers['webhook-signature']).toMatch(/^v1,/);
    const verified = new Webhook(secret).verify(hook?.body ?? '', hook?.headers as Record<string, string>);
    expect(verified).toEqual({ type: 'employee.created', timestamp: expect.any(String), data: made.json() });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        hook?.body ?? '',
        hook?.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it('signs with both secrets during a rotation, each verifying', async () => {
    const { api } = await account();
    const { id, secret: old } = await endpoint(api, '/rotated');
    const rotated = await api.post(`/customer/webhooks/endpoints/${id}/rotate-secret/`, undefined);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.json().previous_secret_expires_at).not.toBeNull();
    await api.post('/customer/groups/', { name: 'Sales' });
    await worker().drain();
    const [hook] = at('/rotated');
    expect(String(hook?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    const headers = hook?.headers as Record<string, string>;
    expect(new Webhook(fresh).verify(hook?.body ?? '', headers)).toMatchObject({ type: 'group.created' });
    expect(new Webhook(old).verify(hook?.body ?? '', headers)).toMatchObject({ type: 'group.created' });
  });

  it('sends only the event types of the filter', async () => {
    const { api } = await account();
    await endpoint(api, '/filtered', ['group.created', 'group.membership_changed']);
    const employee = (
      await api.post('/customer/employees/', { first_name: 'A', last_name: 'B', email: 'ab@example.com' })
    ).json();
    const group = (await api.post('/customer/groups/', { name: 'Ops' })).json();
    await api.post(`/customer/groups/${group.id}/members/`, { employee_ids: [employee.id] });
    await worker().drain();
    expect(bodies('/filtered').map((b) => b.type)).toEqual(['group.created', 'group.membership_changed']);
    expect(bodies('/filtered')[1].data).toEqual({
      group: { id: group.id, name: 'Ops', description: '', employee_count: 1 },
      added_employee_ids: [employee.id],
      removed_employee_ids: [],
    });
  });

  it('never sends one account’s events to another’s endpoint, nor shows its endpoints', async () => {
    const a = await account();
    const b = await account();
    const mine = await endpoint(a.api, '/tenant-a');
    await endpoint(b.api, '/tenant-b');
    await a.api.post('/customer/groups/', { name: 'Only A' });
    await worker().drain();
    expect(bodies('/tenant-a').map((x) => x.data.name)).toEqual(['Only A']);
    expect(at('/tenant-b')).toEqual([]);
    expect((await b.api.get(`/customer/webhooks/endpoints/${mine.id}/`)).statusCode).toBe(404);
    expect((await b.api.get(`/customer/webhooks/endpoints/${mine.id}/deliveries/`)).statusCode).toBe(404);
    const patched = await b.api.request('PATCH', `/customer/webhooks/endpoints/${mine.id}/`, {
      enabled: false,
    });
    expect(patched.statusCode).toBe(404);
    expect((await a.api.get(`/customer/webhooks/endpoints/${mine.id}/`)).json().enabled).toBe(true);
  });

  it('retries on the schedule, logs each answer, and fails after the last attempt', async () => {
    const { api } = await account();
    const { id } = await endpoint(api, '/failing');
    answers = Array.from({ length: MAX_ATTEMPTS }, () => ({ status: 500, body: 'x'.repeat(3000) }));
    await api.post('/customer/groups/', { name: 'Retry' });
    await worker().drain();
    let log = (await api.get(`/customer/webhooks/endpoints/${id}/deliveries/`)).json().results[0];
    expect(log).toMatchObject({ status: 'queued', attempts: 1, response_status: 500, error: 'HTTP 500' });
    expect(log.response_excerpt).toHaveLength(1024);
    // The first retry: 5 s after the attempt (the jitter pinned at its middle).
    expect(Date.parse(log.next_attempt_at) - Date.parse(log.last_attempt_at)).toBeGreaterThanOrEqual(
      RETRY_DELAYS_MS[0] as number,
    );
    expect(Date.parse(log.next_attempt_at) - Date.parse(log.last_attempt_at)).toBeLessThan(
      (RETRY_DELAYS_MS[0] as number) + 1000,
    );
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay * 1.1);
      await worker().drain();
    }
    log = (await api.get(`/customer/webhooks/endpoints/${id}/deliveries/`)).json().results[0];
    expect(log).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, next_attempt_at: null });
    expect(at('/failing')).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(at('/failing').map((h) => h.headers['webhook-id'])).size).toBe(1);
    // Resent: a new delivery of the same event, with the same webhook-id.
    const resent = await api.post(
      `/customer/webhooks/endpoints/${id}/deliveries/${log.id}/resend/`,
      undefined,
    );
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toMatchObject({ status: 'queued', webhook_id: log.webhook_id });
    await worker().drain();
    expect(at('/failing')).toHaveLength(MAX_ATTEMPTS + 1);
    const after = (await api.get(`/customer/webhooks/endpoints/${id}/deliveries/`)).json();
    expect(after.results[0]).toMatchObject({
      status: 'succeeded',
      response_status: 200,
      response_excerpt: 'ok',
    });
    expect((await api.get(`/customer/webhooks/endpoints/${id}/`)).json().failing_since).toBeNull();
  });

  it('disables an endpoint that answers 410 Gone, and tells why', async () => {
    const { api } = await account();
    const { id } = await endpoint(api, '/gone');
    answers = [{ status: 410, body: 'gone' }];
    await api.post('/customer/groups/', { name: 'G1' });
    await worker().drain();
    const shown = (await api.get(`/customer/webhooks/endpoints/${id}/`)).json();
    expect(shown).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    await api.post('/customer/groups/', { name: 'G2' });
    await worker().drain();
    expect(at('/gone')).toHaveLength(1);
    const resend = await api.post(
      `/customer/webhooks/endpoints/${id}/deliveries/${(await api.get(`/customer/webhooks/endpoints/${id}/deliveries/`)).json().results[0].id}/resend/`,
      undefined,
    );
    expect(resend.statusCode).toBe(409);
    expect(resend.json().code).toBe('webhook_endpoint_disabled');
  });
});
