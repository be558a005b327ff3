import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCustomerOpenApiDocument } from '../src/api/openapi-document.js';
import { ERRORS, type ErrorCode } from '../src/core/errors.js';
import { CUSTOMER_API_CODES } from '../src/core/http/error-responses.js';
import { webhookCatalogue } from '../src/modules/integrations/webhooks/webhooks.catalogue.model.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { ALL_GRANTS, client, makeKey } from './helpers/factories.js';

let t: TestApp;
// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON, inspected field by field
let doc: any;
beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/api_gateway/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

const PREFIX = '/api/api_gateway';

/** The description of a section of the document (a tag no operation carries). */
const section = (name: string): string =>
  doc.tags.find((tag: { name: string }) => tag.name === name)?.description ?? '';
/** Errors every authenticated route can give. */
const ALWAYS = [401, 403, 405, 429, 500, 503];

interface DocumentedRoute {
  method: 'get' | 'post' | 'put' | 'patch';
  path: string;
  success: number;
  accessPoint: string;
  right: 'read' | 'write';
  /** Route-specific errors, each with the messages its examples must show. */
  errors: Record<number, string[]>;
}

const listErrors = { 400: ['Validation failed'], 404: ['Invalid page'] };
const bodyErrors = {
  400: ['Malformed JSON body', 'Validation failed'],
  413: ['Payload too large'],
  415: ['Unsupported media type'],
};

const ROUTES: DocumentedRoute[] = [
  {
    method: 'post',
    path: '/customer/employees/',
    success: 201,
    accessPoint: 'employees',
    right: 'write',
    errors: {
      ...bodyErrors,
      409: ['Email already exists', 'Request in progress'],
      422: ['Idempotency key reused with a different request'],
    },
  },
  {
    method: 'get',
    path: '/customer/employees/',
    success: 200,
    accessPoint: 'employees',
    right: 'read',
    errors: listErrors,
  },
  {
    method: 'get',
    path: '/customer/employees/{employee_id}/',
    success: 200,
    accessPoint: 'employees',
    right: 'read',
    errors: { 404: ['Employee not found'] },
  },
  {
    method: 'get',
    path: '/customer/groups/',
    success: 200,
    accessPoint: 'groups',
    right: 'read',
    errors: listErrors,
  },
  {
    method: 'get',
    path: '/customer/groups/{group_id}/',
    success: 200,
    accessPoint: 'groups',
    right: 'read',
    errors: { 404: ['Group not found'] },
  },
  {
    method: 'put',
    path: '/customer/groups/{group_id}/',
    success: 200,
    accessPoint: 'groups',
    right: 'write',
    errors: {
      ...bodyErrors,
      400: [...bodyErrors[400], 'Invalid employee_ids'],
      404: ['Group not found'],
      412: ['Precondition failed'],
    },
  },
  {
    method: 'post',
    path: '/customer/employees/bulk/',
    success: 200,
    accessPoint: 'employees',
    right: 'write',
    errors: {
      ...bodyErrors,
      409: ['Request in progress'],
      422: ['Idempotency key reused with a different request'],
    },
  },
  {
    method: 'get',
    path: '/customer/employees/deleted/',
    success: 200,
    accessPoint: 'employees',
    right: 'read',
    errors: listErrors,
  },
  {
    method: 'get',
    path: '/customer/groups/deleted/',
    success: 200,
    accessPoint: 'groups',
    right: 'read',
    errors: listErrors,
  },
  {
    method: 'get',
    path: '/customer/campaigns/training/',
    success: 200,
    accessPoint: 'campaigns',
    right: 'read',
    errors: listErrors,
  },
  {
    method: 'get',
    path: '/customer/campaigns/training/{campaign_id}/',
    success: 200,
    accessPoint: 'campaigns',
    right: 'read',
    errors: { 404: ['Campaign not found'] },
  },
  {
    method: 'get',
    path: '/customer/campaigns/training/{campaign_id}/enrollments/',
    success: 200,
    accessPoint: 'campaigns',
    right: 'read',
    errors: { 400: ['Validation failed'], 404: ['Campaign not found', 'Invalid page'] },
  },
  ...webhookRoutes(),
];

/** The webhook endpoints' routes (v2.3.0): the `employees` access point. */
function webhookRoutes(): DocumentedRoute[] {
  const base = '/customer/webhooks/endpoints/';
  const idempotency = {
    409: ['Request in progress'],
    422: ['Idempotency key reused with a different request'],
  };
  const notFound = { 404: ['Webhook endpoint not found'] };
  const route = (
    method: DocumentedRoute['method'],
    path: string,
    success: number,
    errors: DocumentedRoute['errors'],
  ) => ({
    method,
    path: `${base}${path}`,
    success,
    accessPoint: 'employees',
    right: method === 'get' ? ('read' as const) : ('write' as const),
    errors,
  });
  return [
    route('get', '', 200, listErrors),
    route('post', '', 201, { ...bodyErrors, ...idempotency }),
    route('get', '{endpoint_id}/', 200, notFound),
    route('patch', '{endpoint_id}/', 200, { ...bodyErrors, ...idempotency, ...notFound }),
    route('post', '{endpoint_id}/rotate-secret/', 200, { ...idempotency, ...notFound }),
    route('get', '{endpoint_id}/deliveries/', 200, {
      400: ['Validation failed'],
      404: ['Webhook endpoint not found', 'Invalid page'],
    }),
    route('post', '{endpoint_id}/deliveries/{delivery_id}/resend/', 202, {
      ...idempotency,
      404: ['Webhook endpoint not found', 'Webhook delivery not found'],
      409: ['This webhook endpoint is disabled', 'Request in progress'],
    }),
  ];
}

/** Messages every route must document for the errors all routes share. */
function commonErrors(route: DocumentedRoute): Record<number, string[]> {
  return {
    401: ['API key required', 'Invalid API key'],
    403: [`API key lacks ${route.right} permission on ${route.accessPoint}`],
    405: ['Method not allowed'],
    429: ['Rate limit exceeded'],
    500: ['Internal server error'],
    503: ['Service unavailable'],
  };
}

/** The examples of a response: OpenAPI 3.1 allows one `example` or named `examples`. */
function examplesOf(media: { example?: unknown; examples?: Record<string, { value: unknown }> }) {
  const named = Object.values(media.examples ?? {}).map((e) => e.value);
  return media.example !== undefined ? [media.example, ...named] : named;
}

const name = (r: DocumentedRoute) => `${r.method.toUpperCase()} ${r.path}`;

describe('GET /api/api_gateway/openapi.json', () => {
  it('is an OpenAPI 3.1.0 document served without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/api_gateway/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ version: '2.3.0' });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'apiKey',
    });
  });

  it.each(ROUTES.map((r) => [name(r), r] as const))('documents %s with the apiKey scheme', (_, route) => {
    const operation = doc.paths[`${PREFIX}${route.path}`]?.[route.method];
    expect(operation, 'operation present').toBeDefined();
    const security = operation.security ?? doc.security;
    expect(security).toContainEqual({ apiKey: [] });
  });

  it.each(ROUTES.map((r) => [name(r), r] as const))(
    'documents the success and every error of %s, each described with examples',
    (_, route) => {
      const responses = doc.paths[`${PREFIX}${route.path}`][route.method].responses;
      const expected = { ...commonErrors(route), ...route.errors };
      expect(Object.keys(responses).sort()).toEqual([String(route.success), ...Object.keys(expected)].sort());
      expect(ALWAYS.every((status) => status in expected)).toBe(true);

      const success = responses[route.success];
      expect(success.description).toMatch(/\w/);
      expect(success.description, 'not the generator placeholder').not.toBe('Default Response');
      expect(examplesOf(success.content['application/json']).length).toBeGreaterThan(0);

      for (const [status, messages] of Object.entries(expected)) {
        const response = responses[status];
        expect(response.description, `${status} description`).toMatch(/\w/);
        expect(response.description).not.toBe('Default Response');
        const examples = examplesOf(response.content['application/json']);
        expect(examples.length, `${status} examples`).toBeGreaterThan(0);
        for (const example of examples) {
          expect(example, `${status} example`).toMatchObject({
            error: expect.any(String),
            status: Number(status),
          });
        }
        expect(examples.map((e) => (e as { error: string }).error)).toEqual(expect.arrayContaining(messages));
      }
    },
  );

  it('gives page 1 as the example of every page parameter, which works on a new account ("Try it out")', async () => {
    const { key } = await makeKey(t.app, { grants: [...ALL_GRANTS, 'audit:r'] });
    type Parameter = {
      name: string;
      in: string;
      example?: unknown;
      schema: { example?: unknown; examples?: unknown[] };
    };
    const lists = Object.entries<Record<string, { parameters?: Parameter[] }>>(doc.paths).flatMap(
      ([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.parameters?.some((p) => p.name === 'page' && p.in === 'query'))
          .map(([method, operation]) => ({ method, path, operation })),
    );
    expect(lists.map((l) => l.path)).toEqual(
      expect.arrayContaining([`${PREFIX}/customer/employees/`, `${PREFIX}/customer/groups/`]),
    );
    expect(lists.length).toBeGreaterThanOrEqual(4);
    for (const { path, operation } of lists) {
      const page = operation.parameters!.find((p) => p.name === 'page')!;
      const examples = [page.example, page.schema.example, ...(page.schema.examples ?? [])].filter(
        (e) => e !== undefined,
      );
      expect([...new Set(examples)], path).toEqual([1]);
      if (path.includes('{')) continue;
      const res = await client(t.app, key).get(`${path.slice(PREFIX.length)}?page=${examples[0]}`);
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
      // A new account's audit log holds the one change made in it: the key's creation.
      if (path.endsWith('/customer/audit-log/'))
        expect(res.json().results.map((r: { action: string }) => r.action)).toEqual(['api_key.created']);
      else expect(res.json()).toMatchObject({ count: 0, results: [] });
    }
  });

  it('gives examples that match their own schemas', () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const route of ROUTES) {
      const operation = doc.paths[`${PREFIX}${route.path}`][route.method];
      for (const [status, response] of Object.entries<{
        content: Record<string, { schema: object; example?: unknown }>;
      }>(operation.responses)) {
        const media = response.content['application/json']!;
        // Against the document's components: the schemas refer to them by `$ref`.
        const validate = ajv.compile({ allOf: [media.schema], components: doc.components });
        for (const example of examplesOf(media)) {
          expect(validate(example), `${name(route)} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(
            true,
          );
        }
      }
    }
  });
});

/** An error response's schema: the shared Error narrowed to its codes, or the exact AuthError. */
type ErrorSchema = {
  $ref?: string;
  allOf?: [{ $ref: string }, { properties: { code: { enum: string[] } } }];
};
const codesOf = (schema: ErrorSchema): string[] | undefined => schema.allOf?.[1].properties.code.enum;

describe('error codes in the OpenAPI document', () => {
  interface Media {
    schema: ErrorSchema;
    example?: unknown;
    examples?: Record<string, { value: unknown }>;
  }
  const errorResponses = () =>
    ROUTES.flatMap((route) =>
      Object.entries<{ content: Record<string, Media> }>(
        doc.paths[`${PREFIX}${route.path}`][route.method].responses,
      )
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => ({
          where: `${name(route)} ${status}`,
          status: Number(status),
          media: response.content['application/json']!,
        })),
    );

  it('gives each error response the codes it can carry as an enum, with an example of each', () => {
    for (const { where, status, media } of errorResponses()) {
      const examples = examplesOf(media) as Record<string, unknown>[];
      const codes = codesOf(media.schema);
      if (codes === undefined) {
        // The authentication errors, whose body the contract states exactly.
        expect(media.schema, where).toEqual({ $ref: '#/components/schemas/AuthError' });
        expect([401, 403], where).toContain(status);
        for (const example of examples)
          expect(Object.keys(example).sort(), where).toEqual(['error', 'status']);
        continue;
      }
      expect(media.schema.allOf?.[0], where).toEqual({ $ref: '#/components/schemas/Error' });
      expect([...new Set(examples.map((e) => e.code))].sort(), where).toEqual([...codes].sort());
      for (const code of codes) expect(ERRORS[code as ErrorCode]?.status, `${where} ${code}`).toBe(status);
      for (const example of examples) expect(example.request_id, where).toEqual(expect.any(String));
    }
  });

  it('lists every code a Customer API client can meet in components.schemas.Error and in its section', () => {
    const listed: string[] = doc.components.schemas.Error.properties.code.enum;
    expect(listed).toEqual([...CUSTOMER_API_CODES]);
    const used = new Set(errorResponses().flatMap(({ media }) => codesOf(media.schema) ?? []));
    for (const code of used) expect(listed, code).toContain(code);
    for (const code of ['api_key_required', 'invalid_api_key', 'forbidden', 'not_found', 'bad_request']) {
      expect(listed).toContain(code);
    }
    for (const code of listed) {
      expect(section('Error codes')).toContain(`| \`${code}\` | ${ERRORS[code as ErrorCode].status} |`);
    }
  });
});

describe('a document client generators can use', () => {
  type Operation = {
    operationId?: string;
    parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
    requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
    responses: Record<
      string,
      { headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown> }> }
    >;
  };
  const operations = () =>
    Object.entries<Record<string, Operation>>(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ where: `${method} ${path}`, operation })),
    );

  it('names every operation once, in camelCase', () => {
    const ids = operations().map(({ where, operation }) => {
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['createEmployee', 'listEmployees', 'getGroup', 'replaceGroupMembers']),
    );
  });

  it('lists every webhook event with its sample body, and says how to verify a signature', () => {
    const types = webhookCatalogue().map((e) => e.type);
    expect(Object.keys(doc.webhooks)).toEqual(types);
    for (const entry of webhookCatalogue()) {
      const post = doc.webhooks[entry.type].post;
      expect(post.operationId).toMatch(/^[a-z][A-Za-z]+Event$/);
      expect(post.parameters.map((p: { name: string }) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      expect(post.requestBody.content['application/json'].example).toEqual(entry.sample);
    }
    expect(section('Using the API')).toContain('wh.verify(rawBody, headers)');
    expect(section('Using the API')).toContain('New in 2.3.0');
  });

  it('refers to named schemas for every body, and declares the server', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    for (const { where, operation } of operations()) {
      const bodies = [
        ...Object.values(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap((r) => Object.values(r.content ?? {})),
      ];
      for (const { schema } of bodies) {
        if (schema.format === 'binary') continue; // a forwarded message/rfc822
        const ref = (schema.$ref ?? (schema.allOf as { $ref: string }[] | undefined)?.[0]?.$ref) as string;
        expect(ref, `${where}: ${JSON.stringify(schema).slice(0, 120)}`).toMatch(
          /^#\/components\/schemas\/\w+$/,
        );
        expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
      }
    }
    for (const name of [
      'Employee',
      'EmployeePage',
      'NewEmployee',
      'GroupDetail',
      'GroupMembership',
      'Enrollment',
    ])
      expect(doc.components.schemas[name], name).toBeDefined();
  });

  it('documents path ids and page numbers as integers from 1, and the status filters as enums', () => {
    for (const { where, operation } of operations()) {
      for (const p of operation.parameters ?? []) {
        if (p.in === 'path' || p.name === 'page' || p.name === 'page_size') {
          expect(p.schema, `${where} ${p.name}`).toMatchObject({ type: 'integer', minimum: 1 });
        }
      }
    }
    const parameter = (path: string, name: string) =>
      doc.paths[`${PREFIX}${path}`].get.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(parameter('/customer/campaigns/training/{campaign_id}/enrollments/', 'status').enum).toEqual([
      'not_started',
      'in_progress',
      'completed',
      'overdue',
    ]);
    expect(parameter('/customer/campaigns/phishing/{campaign_id}/results/', 'status').enum).toContain(
      'clicked',
    );
  });

  it('names the headers each response carries', () => {
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const { where, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.headers?.['X-Request-Id'], `${where} ${status}`).toEqual(header('X-Request-Id'));
        expect(response.headers?.['X-API-Version'], `${where} ${status}`).toEqual(header('X-API-Version'));
        if (status === '429') expect(response.headers?.['Retry-After'], where).toEqual(header('Retry-After'));
        if (status === '201') expect(response.headers?.Location, where).toEqual(header('Location'));
      }
    }
    const employees = doc.paths[`${PREFIX}/customer/employees/`].get.responses['200'].headers;
    expect(Object.keys(employees)).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    expect(doc.paths[`${PREFIX}/customer/groups/{group_id}/`].get.responses['200'].headers.ETag).toEqual(
      header('ETag'),
    );
    expect(doc.paths[`${PREFIX}/customer/groups/{group_id}/`].put.responses['200'].headers.ETag).toEqual(
      header('ETag'),
    );
    for (const name of [
      'RateLimit-Limit',
      'Retry-After',
      'Location',
      'ETag',
      'X-Request-Id',
      'X-API-Version',
    ])
      expect(doc.components.headers[name], name).toBeDefined();
  });

  it('offers Idempotency-Key on every POST, PATCH and DELETE, and on nothing else', () => {
    const ref = { $ref: '#/components/parameters/IdempotencyKey' };
    for (const { where, operation } of operations()) {
      const write = /^(post|patch|delete) /.test(where);
      expect(
        (operation.parameters ?? []).some((p) => JSON.stringify(p) === JSON.stringify(ref)),
        where,
      ).toBe(write);
    }
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
  });

  it('is the document `npm run openapi` writes (the one CI lints)', async () => {
    expect(await buildCustomerOpenApiDocument()).toEqual(doc);
  });
});

describe('the order of the reference', () => {
  it('introduces the API briefly, then the operations; the conventions and the error codes come after them', () => {
    const names: string[] = doc.tags.map((tag: { name: string }) => tag.name);
    expect(names.slice(-2)).toEqual(['Using the API', 'Error codes']);
    const carried = new Set(
      Object.values<Record<string, { tags?: string[] }>>(doc.paths).flatMap((item) =>
        Object.values(item).flatMap((operation) => operation.tags ?? []),
      ),
    );
    // Every other tag has operations; these two are sections, after the last of them.
    expect(names.filter((name) => !carried.has(name))).toEqual(['Using the API', 'Error codes']);
    // Every tag an operation carries is declared: Swagger UI shows an undeclared one at the very
    // end, after the sections.
    expect([...carried].filter((name) => !names.includes(name))).toEqual([]);
    expect(doc.info.description).not.toContain('| code | status |');
    expect(doc.info.description).not.toContain('Idempotency-Key');
    expect(doc.info.description).toContain('"Using the API", after the operations');
    expect(doc.info.description.length).toBeLessThan(800);
    expect(section('Using the API')).toContain('Idempotency-Key');
    expect(section('Error codes')).toContain('| code | status | meaning |');
  });
});

describe('GET /api/api_gateway/docs', () => {
  it("is Vigil's page: its title and mark, nothing of Swagger UI's or Fastify's", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/api_gateway/docs' });
    expect(page.body).toMatch(/<title>Vigil Customer API reference<\/title>/);
    expect(page.body).not.toMatch(/Swagger UI|favicon-(16|32)x/);
    const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page.body)?.[1];
    const mark = await t.app.inject({ method: 'GET', url: icon ?? '/missing' });
    expect(mark.statusCode).toBe(200);
    expect(mark.headers['content-type']).toBe('image/svg+xml');
    expect(mark.body).toBe(readFileSync('web/public/favicon.svg', 'utf8'));
    const script = await t.app.inject({
      method: 'GET',
      url: '/api/api_gateway/docs/static/swagger-initializer.js',
    });
    // No logo of Fastify's swapped into a bar: the page has Vigil's bar (vigil.js).
    expect(script.body).not.toMatch(/data:image/);
    expect(script.body).toContain('window.vigilDocsPlugin(system)');
  });

  it.each(['/api/api_gateway/docs', '/api/api_gateway/docs/'])(
    '%s serves a reference page whose scripts and styles are all served locally',
    async (url) => {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);

      const references = [
        ...page.body.matchAll(/<script[^>]*\ssrc="([^"]+)"/g),
        ...page.body.matchAll(/<link[^>]*\shref="([^"]+)"/g),
      ].map((m) => m[1]!);
      expect(references.some((r) => r.endsWith('.js'))).toBe(true);
      expect(references.some((r) => r.endsWith('.css'))).toBe(true);
      for (const reference of references) {
        expect(reference, 'no other host').not.toMatch(/^([a-z]+:)?\/\//i);
        const resolved = new URL(reference, `http://localhost${url}`);
        expect(resolved.host).toBe('localhost');
        const asset = await t.app.inject({ method: 'GET', url: resolved.pathname });
        expect(asset.statusCode, `${reference} → ${resolved.pathname}`).toBe(200);
        expect(asset.rawPayload.length).toBeGreaterThan(0);
      }
    },
  );

  it('lets a browser that reached it over plain HTTP load its scripts and styles: its policy upgrades nothing to HTTPS', async () => {
    for (const url of [
      '/api/api_gateway/docs',
      '/api/api_gateway/docs/',
      '/api/api_gateway/docs/static/swagger-initializer.js',
    ]) {
      const page = await t.app.inject({ method: 'GET', url, headers: { host: 'vigil.lan:8080' } });
      expect(page.statusCode, url).toBe(200);
      const policy = page.headers['content-security-policy'] as string;
      expect(policy, url).not.toMatch(/upgrade-insecure-requests/);
      // swagger-ui's own policy otherwise: scripts from this server only.
      expect(policy).toMatch(/(^|; )script-src 'self'(;|$)/);
      expect(policy).toMatch(/^default-src 'self'/);
      expect(policy.split(';').every((directive) => directive.trim() !== '')).toBe(true);
    }
    const api = await t.app.inject({ method: 'GET', url: '/healthz', headers: { host: 'vigil.lan:8080' } });
    expect(api.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
  });

  it('feeds the page the same OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/api_gateway/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(doc);
  });
});
