import type { RouteOptions } from 'fastify';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptBodies, FORM_BODY_LIMIT, jsonBody, registerBodyPolicies } from '../src/core/http/bodies.js';
import { anonymousClient } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { client, makeKey } from './helpers/factories.js';

// Every route that can take a body says which media types and how many bytes (config.body);
// a body of another type is a 415 and a larger one a 413, before any of it is parsed; JSON is
// refused when nested deeper than the route accepts. Public routes take only their forms.

const routes: RouteOptions[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { onRoute: (route) => void routes.push(route) });
});

const TOKEN = 'A'.repeat(32);
const deepJson = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** Routes a stranger reaches without any credential. */
const PUBLIC_BODY_ROUTES = [
  ['POST', '/v/:token'],
  ['POST', '/v/:token/i'],
  ['POST', '/admin/api/session'],
];

describe('body policies', () => {
  it('every route whose method carries a body declares what it accepts; public ones take forms of at most 64 KiB', () => {
    const withBodies = routes.filter((r) =>
      [r.method].flat().some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)),
    );
    expect(withBodies.length).toBeGreaterThan(60);
    for (const route of withBodies) {
      const accepts = route.config?.body?.accepts;
      expect(accepts, `${route.method} ${route.url}`).toBeDefined();
      const limits = Object.values(accepts ?? {});
      expect(route.bodyLimit, `${route.method} ${route.url}`).toBe(Math.max(1, ...limits));
    }
    const learner = withBodies.filter((r) => r.url.startsWith('/learn/'));
    expect(learner.length).toBeGreaterThan(0);
    const publicRoutes = [
      ...learner,
      ...routes.filter((r) => PUBLIC_BODY_ROUTES.some(([m, u]) => r.method === m && r.url === u)),
    ];
    for (const route of publicRoutes) {
      const accepts = route.config?.body?.accepts ?? {};
      expect(Math.max(...Object.values(accepts)), route.url).toBeLessThanOrEqual(FORM_BODY_LIMIT);
      if (!route.url.startsWith('/admin/')) expect(Object.keys(accepts)).not.toContain('application/json');
    }
  });

  it('refuses JSON on the simulation and learner pages before reading it, with or without a valid token', async () => {
    for (const url of [`/v/${TOKEN}`, `/v/${TOKEN}/i`, `/learn/${TOKEN}/new-link`]) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: deepJson(100_000),
      });
      expect(res.statusCode, url).toBe(415);
    }
  });

  it('refuses a form over 64 KiB on a public page with a 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v/${TOKEN}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `a=${'x'.repeat(FORM_BODY_LIMIT)}`,
    });
    expect(res.statusCode).toBe(413);
  });

  it('limits the admin sign-in, open to anyone with the anonymous CSRF token, to 64 KiB of JSON nested at most 16 deep', async () => {
    const anonymous = await anonymousClient(t.app);
    const post = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/admin/api/session',
        headers: { ...anonymous.headers, 'content-type': 'application/json' },
        payload,
      });
    expect(
      (await post(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(70_000) }))).statusCode,
    ).toBe(413);
    const deep = await post(deepJson(30_000));
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'json_too_deep', details: { max_depth: 16 } });
  });

  it('refuses an 8 MiB JSON array nesting on the Customer API with a 400 that names the limit', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const res = await api.post('/customer/employees/', deepJson(4 * 1024 * 1024));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'JSON body nested too deeply',
      status: 400,
      code: 'json_too_deep',
      details: { max_depth: 16 },
    });
    // A route that reads no body takes a small one (what client libraries send), no more.
    const big = await api.post('/customer/webhooks/endpoints/1/rotate-secret/', { pad: 'x'.repeat(20_000) });
    expect(big.statusCode).toBe(413);
  });

  it('refuses an object of more than 1,000 members before parsing it, anywhere JSON is taken', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const wide = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":"${i}"`).join(',')}}`;
    for (const path of ['/customer/employees/', '/customer/employees/bulk/', '/customer/groups/']) {
      const res = await api.post(path, wide);
      expect(res.statusCode, path).toBe(400);
      expect(res.json(), path).toMatchObject({
        code: 'json_object_too_large',
        details: { max_members: 1000 },
      });
    }
  });

  it('answers the reported-message route by type: a token as small JSON, a message up to 10 MiB', async () => {
    const { key } = await makeKey(t.app);
    const api = client(t.app, key);
    const json = await api.post('/customer/campaigns/phishing/reports/', {
      token: TOKEN,
      pad: 'x'.repeat(20_000),
    });
    expect(json.statusCode).toBe(413);
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/api_gateway/customer/campaigns/phishing/reports/',
      headers: { apikey: key, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
  });

  it('reports body fields named after built-ins as fields (400), never as a crash', async () => {
    const anonymous = await anonymousClient(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/api/invitations/${TOKEN}/accept`,
      headers: { ...anonymous.headers, 'content-type': 'application/json' },
      payload: '{"__defineGetter__":{"__proto__":{}},"hasOwnProperty":1,"toString":[],"__proto__":{"x":1}}',
    });
    expect(res.statusCode, res.body).toBe(400);
    const details = res.json().details;
    expect(details.__defineGetter__).toEqual(['is not a known field']);
    expect(details.hasOwnProperty).toEqual(['is not a known field']);
    expect(details.toString).toEqual(['is not a known field']);
    expect(Object.keys(details)).not.toContain('x');
  });

  it('refuses to start with a route that declares no body', async () => {
    const app = Fastify();
    const check = registerBodyPolicies(app);
    await app.register(async (scope) => {
      acceptBodies(scope, () => jsonBody(1024));
      scope.post('/declared-by-its-surface', async () => 'ok');
    });
    app.post('/declared', { config: { body: jsonBody(10) } }, async () => 'ok');
    expect(check).not.toThrow();
    app.put('/forgotten', async () => 'ok');
    expect(check).toThrow('route PUT /forgotten declares no body');
    await app.close();
  });
});
