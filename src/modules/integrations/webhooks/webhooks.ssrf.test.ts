import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeKey } from '../../../../test/helpers/factories.js';
import { startReceiver } from '../../../../test/helpers/webhook-receiver.js';
import { loadConfig } from '../../../core/config.js';
import { WebhookWorker } from '../../../workers/webhook-worker.js';
import { emitWebhookEvents } from './webhooks.emit.commands.js';
import { insertEndpoint } from './webhooks.repository.js';

// Where webhooks may go: public addresses, and only the networks and hosts the operator lists in
// WEBHOOKS_ALLOWED_NETWORKS. Checked when an endpoint is saved, and again on the address each
// connection uses, with a real receiver on 127.0.0.1 and the real worker and transport.

const log = { info() {}, warn() {}, error() {} };
const strict = (await buildTestApp()).app;
// The operator lists the receiver's address, and nothing else.
const { app } = await buildTestApp({ WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32', WEBHOOKS_ALLOW_HTTP: 'on' });
const receiver = await startReceiver();
const port = new URL(receiver.url).port;

async function apiOf(target: typeof app) {
  const { id } = await makeAccount(target);
  const { key } = await makeKey(target, { accountId: id });
  return { id, api: client(target, key) };
}

const worker = (allowed: string) =>
  new WebhookWorker({
    db: app.db,
    log,
    timeoutMs: 5000,
    leaseMs: 60_000,
    concurrency: 2,
    allowedNetworks: loadConfig({ WEBHOOKS_ALLOWED_NETWORKS: allowed }).webhooks.allowedNetworks,
  });

describe('saving an endpoint', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[64:ff9b::7f00:1]/hook',
    'https://[2002:7f00:1::]/hook',
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://127.1/hook',
    'https://100.64.0.1/hook',
    'https://localhost/hook',
    'https://0.0.0.0/hook',
    'http://example.com/hook',
  ])('refuses %s with a 400 when the operator lists nothing, and writes nothing', async (url) => {
    const { api } = await apiOf(strict);
    const res = await api.post('/customer/webhooks/endpoints/', { url });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.url[0]).toMatch(/private|local|https/);
    expect((await api.get('/customer/webhooks/endpoints/')).json().count).toBe(0);
  });

  it.each([
    `http://127.0.0.2:${port}/hook`,
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data',
    `http://[::127.0.0.1]:${port}/hook`,
    `http://[::ffff:127.0.0.1]:${port}/hook`,
    `http://[64:ff9b::7f00:1]:${port}/hook`,
    `http://0x7f.2:${port}/hook`,
    `http://localhost:${port}/hook`,
  ])('refuses %s where the operator listed 127.0.0.1/32 only', async (url) => {
    const { api } = await apiOf(app);
    const res = await api.post('/customer/webhooks/endpoints/', { url });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.url[0]).toMatch(/private|local/);
    expect((await api.get('/customer/webhooks/endpoints/')).json().count).toBe(0);
  });

  it.each([
    ['https://10.1.2.3/hook', 'private, loopback or reserved address unless', 'WEBHOOKS_ALLOWED_NETWORKS'],
    ['https://localhost/hook', 'local host name unless', 'WEBHOOKS_ALLOWED_NETWORKS'],
    ['http://example.com/hook', 'https URL (http only where', 'WEBHOOKS_ALLOW_HTTP=on'],
  ])(
    'refuses %s naming the setting that would allow it, and the restart it takes',
    async (url, what, setting) => {
      const { api } = await apiOf(strict);
      const [message] = (await api.post('/customer/webhooks/endpoints/', { url })).json().details.url;
      expect(message).toContain(what);
      expect(message).toContain(setting);
      expect(message).toMatch(/restarts Vigil/);
    },
  );

  it('names no setting for what no setting allows (cloud metadata, link-local)', async () => {
    const { api } = await apiOf(strict);
    for (const url of ['https://169.254.169.254/latest/meta-data', 'https://[::ffff:127.0.0.1]/hook']) {
      const [message] = (await api.post('/customer/webhooks/endpoints/', { url })).json().details.url;
      expect(message).toBe('must not point to a link-local, metadata or reserved address');
    }
  });

  it('accepts the listed address however the URL spells it, and stores it as URLs write it', async () => {
    const { api } = await apiOf(app);
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '127.1']) {
      const res = await api.post('/customer/webhooks/endpoints/', { url: `http://${host}:${port}/spelt` });
      expect(res.statusCode, host).toBe(201);
      expect(res.json().url).toBe(`http://127.0.0.1:${port}/spelt`);
    }
  });
});

describe('connecting', () => {
  /** An endpoint saved under another policy (as after the operator changed the list). */
  async function savedEarlier(accountId: number, url: string) {
    return insertEndpoint(app.db, accountId, {
      url,
      description: '',
      event_types: null,
      secret: 'whsec_AAAA',
      created_at: 1,
      updated_at: 1,
    });
  }
  const outcome = (endpointId: number) =>
    app.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'last_error'])
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow();

  it('delivers to a listed network, and refuses every other address at connect time', async () => {
    const { id } = await apiOf(app);
    const at = (path: string) => `http://127.0.0.1:${port}${path}`;
    const listed = await savedEarlier(id, at('/listed'));
    const refused = await Promise.all(
      [
        `http://[::127.0.0.1]:${port}/compatible`,
        `http://[::ffff:127.0.0.1]:${port}/mapped`,
        `http://[64:ff9b::7f00:1]:${port}/nat64`,
        'http://169.254.169.254/latest/meta-data',
        `http://2130706434:${port}/decimal-of-127.0.0.2`,
        `http://0x7f.2:${port}/hex-of-127.0.0.2`,
      ].map((url) => savedEarlier(id, url)),
    );
    await emitWebhookEvents(app.db, id, [{ type: 'employee.deleted', data: { id: 1 } }]);
    await worker('127.0.0.1/32').drain();
    expect(await outcome(listed.id)).toMatchObject({ status: 'succeeded' });
    for (const endpoint of refused) {
      expect((await outcome(endpoint.id)).last_error, endpoint.url).toMatch(/^address refused/);
    }
    expect(receiver.received.map((r) => r.path)).toEqual(['/listed']);
  });

  it('refuses an address that is no longer listed, and a listed name that resolves to loopback', async () => {
    const { id } = await apiOf(app);
    const plain = await savedEarlier(id, `http://127.0.0.1:${port}/unlisted`);
    // `localhost` is listed as a name: its private-use addresses may be reached, never loopback.
    const name = await savedEarlier(id, `http://localhost:${port}/rebound`);
    await emitWebhookEvents(app.db, id, [{ type: 'employee.deleted', data: { id: 2 } }]);
    await worker('10.20.0.0/16,localhost').drain();
    expect((await outcome(plain.id)).last_error).toMatch(/^address refused/);
    expect((await outcome(name.id)).last_error).toMatch(/^address refused: localhost resolves to a private/);
    expect(receiver.received.filter((r) => r.path !== '/listed')).toEqual([]);
  });
});
