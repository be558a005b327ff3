import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildAdminOpenApiDocument } from '../src/admin/openapi-document.js';
import { adminSender, signInAs } from './helpers/admin.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { coded } from './helpers/errors.js';
import { makeAccount } from './helpers/factories.js';

// The admin API's contract: its OpenAPI document (GET /admin/api/openapi.json) is valid, lists
// every route the app registers under /admin/api with its schemas, and equals the document the
// build makes the web interface's types from; bodies refuse fields they do not name.

// Every route the real app registers, seen by Fastify's own onRoute hook: the app's Fastify
// instance gets the hook as it is made, before any route.
const registered = vi.hoisted(() => ({ routes: [] as RouteOptions[], recording: true }));
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const factory = ((options?: object) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => {
      if (registered.recording) registered.routes.push(route);
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: factory };
});

let t: TestApp;
// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON, inspected field by field
let doc: any;
let adminRoutes: RouteOptions[];
const send = (...args: Parameters<ReturnType<typeof adminSender>>) => adminSender(t.app)(...args);

beforeAll(async () => {
  t = await buildTestApp();
  registered.recording = false;
  adminRoutes = registered.routes.filter((r) => r.url.startsWith('/admin/api/') && r.method !== 'HEAD');
  const admin = await signInAs(t.app, { role: 'operator' });
  const res = await send(admin, 'GET', '/openapi.json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

/** `/admin/api/accounts/:accountId/` → `/accounts/{accountId}`, as the document names paths. */
const documentPath = (url: string) =>
  url
    .slice('/admin/api'.length)
    .replace(/:(\w+)/g, '{$1}')
    .replace(/(.)\/$/, '$1');

describe('GET /admin/api/openapi.json', () => {
  it('needs a session', async () => {
    const res = await send(undefined, 'GET', '/openapi.json');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Sign-in required', status: 401, ...coded('sign_in_required') });
  });

  it('is a valid OpenAPI 3.1 document, apart from the Customer API’s', async () => {
    // Redocly's structural checks (the ones openapi-typescript runs in the build) and its
    // recommended rules: no errors (warnings, such as operations without an operationId, allowed).
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: '/openapi.json',
      config,
    });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/admin/api' }]);

    const customer = (await t.app.inject({ method: 'GET', url: '/api/api_gateway/openapi.json' })).json();
    expect(Object.keys(customer.paths).filter((p) => p.includes('admin'))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.includes('customer'))).toEqual([]);
  });

  it('is the document the build makes the web interface’s types from', async () => {
    expect(await buildAdminOpenApiDocument()).toEqual(doc);
  });

  it('documents every route registered under /admin/api, with its schemas', () => {
    expect(adminRoutes.length).toBeGreaterThan(50);
    for (const route of adminRoutes) {
      const name = `${route.method} ${route.url}`;
      const schema = route.schema as Record<string, { properties?: object; additionalProperties?: unknown }>;
      const pathParams = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect(schema?.response, `${name}: response schema`).toBeDefined();
      if (pathParams.length > 0) {
        expect(Object.keys(schema.params?.properties ?? {}).sort(), `${name}: params schema`).toEqual(
          [...pathParams].sort(),
        );
      }
      // A JSON body is closed; a body of another type (a logo's image) has no properties.
      const consumes = (schema as { consumes?: string[] }).consumes;
      if (schema.body && (!consumes || consumes.includes('application/json')))
        expect(schema.body.additionalProperties, `${name}: body closed`).toBe(false);

      for (const method of [route.method].flat()) {
        const operation = doc.paths[documentPath(route.url)]?.[method.toLowerCase()];
        expect(operation, `${name} in the document`).toBeDefined();
        expect(operation.summary, `${name}: summary`).toMatch(/\w/);
        const inPath = (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'path');
        expect(inPath.map((p: { name: string }) => p.name).sort(), `${name}: path parameters`).toEqual(
          [...pathParams].sort(),
        );
        const statuses = Object.keys(operation.responses);
        expect(statuses, `${name}: a success`).toEqual(
          expect.arrayContaining([expect.stringMatching(/^2\d\d$/)]),
        );
        expect(statuses, `${name}: the error shape`).toEqual(expect.arrayContaining(['4XX', '5XX']));
        if (schema.body)
          for (const type of consumes ?? ['application/json'])
            expect(
              operation.requestBody?.content?.[type]?.schema,
              `${name}: the body as ${type}`,
            ).toBeDefined();
      }
    }
  });

  it('names the shapes the web interface uses', () => {
    for (const name of ['Group', 'Employee', 'Campaign', 'Course', 'Message', 'ApiKey', 'Limits', 'Error']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });
});

describe('bodies of the admin API', () => {
  it('refuse a field they do not name, in the contract’s 400 shape, and change nothing', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const base = `/accounts/${account.id}`;
    const res = await send(admin, 'POST', `${base}/groups`, { name: 'Sales', colour: 'red' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Validation failed',
      status: 400,
      details: { colour: ['is not a known field'] },
      ...coded('validation_failed'),
    });
    expect((await send(admin, 'GET', `${base}/groups`)).json()).toEqual({ count: 0, results: [] });

    const nested = await send(admin, 'POST', `${base}/courses`, {
      title: 'Travel',
      minutes: 5,
      pass_mark: 80,
      lessons: [{ title: 'One', markdown: 'Text', html: '<p>Text</p>' }],
      quiz: [{ question: 'Q', choices: ['a', 'b'], answer: 0 }],
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().details).toEqual({ lessons: ['each entry must not have the field "html"'] });
  });
});

describe('GET /admin/api/limits', () => {
  it('gives the bounds the services check, without a session', async () => {
    const res = await send(undefined, 'GET', '/limits');
    expect(res.statusCode).toBe(200);
    const limits = res.json();
    expect(limits).toMatchObject({
      name_max: 150,
      password: { min: 12, max: 256 },
      import_rows: 1000,
      by_email_addresses: 10_000,
      key_rate_limit: { min: 1, max: 1_000_000 },
      campaign: { courses_max: 20, reminders_max: 10, reminder_day_max: 365 },
      course: { summary_max: 500, minutes: { min: 1, max: 600 }, choices: { min: 2, max: 6 } },
    });
    expect(limits.campaign.editable_fields).toEqual({
      draft: expect.arrayContaining(['name', 'course_keys', 'group_ids', 'start_date', 'due_date']),
      scheduled: expect.arrayContaining(['name', 'course_keys', 'start_date']),
      active: ['name', 'description', 'due_date', 'reminder_days', 'enroll_new_members'],
      completed: ['name', 'description'],
      archived: [],
    });
  });

  it('matches what a status really lets change', async () => {
    const account = await makeAccount(t.app);
    const admin = await signInAs(t.app, { role: 'account_admin', accountId: account.id });
    const base = `/accounts/${account.id}`;
    const created = (await send(admin, 'POST', `${base}/campaigns`, { name: 'Q4' })).json();
    await send(admin, 'POST', `${base}/campaigns/${created.id}/archive`);
    const archived = await send(admin, 'PATCH', `${base}/campaigns/${created.id}`, { name: 'Renamed' });
    expect(archived.statusCode).toBe(409);
  });
});
