import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../../test/helpers/admin.js';
import { buildTestApp } from '../../../../test/helpers/app.js';
import { client, makeAccount, makeKey } from '../../../../test/helpers/factories.js';
import { createEndpoint, endpointsOfAccount } from './webhooks.service.js';

// An account has at most WEBHOOKS_MAX_ENDPOINTS endpoints (20 by default, as the documentation
// says), disabled ones included: what one event fans out to stays bounded.

const { app } = await buildTestApp();
const LIMIT = 20;

async function account() {
  const { id } = await makeAccount(app);
  const { key } = await makeKey(app, { accountId: id });
  return { id, api: client(app, key) };
}

const create = (api: ReturnType<typeof client>, i: number) =>
  api.post('/customer/webhooks/endpoints/', { url: `https://hooks.example.com/${i}` });

async function fill(api: ReturnType<typeof client>, count: number) {
  for (let i = 0; i < count; i++) expect((await create(api, i)).statusCode).toBe(201);
}

function expectLimitReached(res: { statusCode: number; json(): Record<string, unknown> }) {
  expect(res.statusCode).toBe(409);
  expect(res.json()).toMatchObject({
    status: 409,
    code: 'webhook_endpoint_limit_reached',
    error: `An account may have at most ${LIMIT} webhook endpoints (disabled ones included); delete one first`,
  });
}

describe('the endpoint limit', () => {
  it('refuses the 21st endpoint through the Customer API and writes nothing; deleting one frees a place', async () => {
    const { api } = await account();
    await fill(api, LIMIT);
    expectLimitReached(await create(api, LIMIT));
    const list = (await api.get('/customer/webhooks/endpoints/')).json();
    expect(list.count).toBe(LIMIT);
    // A disabled endpoint still counts.
    const first = list.results[0].id as number;
    await api.request('PATCH', `/customer/webhooks/endpoints/${first}/`, { enabled: false });
    expectLimitReached(await create(api, LIMIT));
    expect((await api.request('DELETE', `/customer/webhooks/endpoints/${first}/`)).statusCode).toBe(204);
    expect((await create(api, LIMIT)).statusCode).toBe(201);
    expect((await api.get('/customer/webhooks/endpoints/')).json().count).toBe(LIMIT);
  });

  it('is per account', async () => {
    const full = await account();
    await fill(full.api, LIMIT);
    const other = await account();
    expect((await create(other.api, 0)).statusCode).toBe(201);
  });

  it('refuses the 21st endpoint in the admin API too, whose settings tell the limit', async () => {
    const { id, api } = await account();
    await fill(api, LIMIT);
    const admin = await signInAs(app, { role: 'account_admin', accountId: id });
    const base = `/admin/api/accounts/${id}/webhooks`;
    const settings = await app.inject({ method: 'GET', url: `${base}/settings`, headers: admin.headers });
    expect(settings.json().max_endpoints).toBe(LIMIT);
    const res = await app.inject({
      method: 'POST',
      url: `${base}/endpoints`,
      headers: admin.headers,
      payload: { url: 'https://hooks.example.com/admin' },
    });
    expectLimitReached(res);
    const listed = await app.inject({ method: 'GET', url: `${base}/endpoints`, headers: admin.headers });
    expect(listed.json().count).toBe(LIMIT);
  });

  it('lets exactly one of concurrent creates take the last place', async () => {
    const { id, api } = await account();
    await fill(api, LIMIT - 1);
    // PostgreSQL: connections open beforehand, so the transactions really overlap.
    await Promise.all(Array.from({ length: 8 }, () => endpointsOfAccount(app.db, id)));
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        createEndpoint(app.db, {
          accountId: id,
          url: `https://hooks.example.com/race-${i}`,
          policy: app.config.webhooks,
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const attempt of attempts.filter((a) => a.status === 'rejected'))
      expect((attempt as PromiseRejectedResult).reason.code).toBe('webhook_endpoint_limit_reached');
    expect((await api.get('/customer/webhooks/endpoints/')).json().count).toBe(LIMIT);
  });
});
