import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ACCESS_POINTS } from '../core/auth/permissions.js';
import { API_VERSION, LATEST_API_VERSION } from '../core/http/api-version.js';
import {
  CustomerAuthErrorResponse,
  CustomerErrorResponse,
  customerCodesTable,
} from '../core/http/error-responses.js';
import { componentize } from '../core/http/openapi-components.js';
import { GroupDetail } from '../modules/directory/groups/groups.schemas.js';
import { IDEMPOTENT_METHODS } from '../modules/integrations/idempotency/idempotency.service.js';
import { WebhookEndpointWithSecret } from '../modules/integrations/webhooks/webhooks.schemas.js';
import { ERROR_CODES_SECTION, GUIDE_SECTION } from './docs.page.js';
import { WEBHOOKS_AND_NEWS, webhookOperations } from './openapi-webhooks.js';

const description = `Integrate your HR system or scripts with Vigil: create employees, find them by email,
read groups and replace their membership, read training campaigns.

**Authentication.** Send your key in the \`apiKey\` header. Keys are created by an administrator
(Integration area → New API Key) and hold \`read\`/\`write\` per access point (${ACCESS_POINTS.join(', ')}).

**Errors, retries, pagination, rate limits, webhooks and versions**, and what ${LATEST_API_VERSION} added:
"${GUIDE_SECTION}", after the operations; every error code: "${ERROR_CODES_SECTION}", at the end.`;

/** The conventions every operation follows: a section after the operations. */
const guide = `**Errors** always look like \`{"error": "...", "status": 400, "code": "validation_failed", "details": {...}, "request_id": "..."}\`:
\`error\` is for people, \`code\` for programs (stable; dispatch on it, never on the text),
\`details\` is optional, \`request_id\` equals the \`X-Request-Id\` response header. One exception:
the bodies of the two 401s (\`api_key_required\`, \`invalid_api_key\`) and of the 403 (\`forbidden\`)
are exactly \`{"error": "...", "status": N}\`, as version 2.2.0 has always given them. Every
\`code\`, its status and what it means: "${ERROR_CODES_SECTION}", below.

**Retries.** Send an \`Idempotency-Key\` header (a UUID, say) with a POST, PATCH or DELETE to
make retrying it safe: within 24 hours the same key and request answer the first response
again (\`Idempotent-Replayed: true\`) without doing the work twice.

**Pagination.** \`page\` (from 1) and \`page_size\` (default 100, at most 1000); \`next\` and
\`previous\` are absolute URLs or null.

**Rate limits.** Each key has a per-minute budget (600 by default); every authenticated response
carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`. A 429 carries
\`Retry-After\`: retry with exponential back-off.

${WEBHOOKS_AND_NEWS}

**Versions.** Paths work with or without the trailing slash. Every response says in
\`X-API-Version\` which version answered it: \`${API_VERSION}\` by default, so clients written for
it see exactly what they always saw. Send \`X-API-Version: ${LATEST_API_VERSION}\` to pin this
document's version; the operations ${LATEST_API_VERSION} added answer as ${LATEST_API_VERSION} either
way. The bodies of ${API_VERSION}'s operations are the same under both versions.`;

const integer = (description: string, example: number) => ({
  description,
  schema: { type: 'integer', minimum: 0, examples: [example] },
});

/** The headers Customer API responses carry, documented once each. */
const RESPONSE_HEADERS: Record<string, Record<string, unknown>> = {
  'X-Request-Id': {
    description:
      'The id of this request (a client may send its own, up to 128 visible characters); also `request_id` in error bodies.',
    schema: { type: 'string', examples: ['0f8e4c1a-6d2b-4f3e-9a57-3c1d2b7e8f90'] },
  },
  'X-API-Version': {
    description: `The version that answered: ${API_VERSION}, or ${LATEST_API_VERSION} when the request pinned it (\`X-API-Version: ${LATEST_API_VERSION}\`) or the operation is new in ${LATEST_API_VERSION}.`,
    schema: { type: 'string', enum: [API_VERSION, LATEST_API_VERSION], examples: [API_VERSION] },
  },
  'RateLimit-Limit': integer('The key’s budget of requests per minute.', 600),
  'RateLimit-Remaining': integer('Requests left in the current minute.', 599),
  'RateLimit-Reset': integer('Seconds until the budget is full again.', 42),
  'Retry-After': integer('Seconds to wait before retrying.', 42),
  Location: {
    description: 'The absolute URL of what was created.',
    schema: {
      type: 'string',
      format: 'uri',
      examples: ['https://vigil.example.com/api/api_gateway/customer/employees/17/'],
    },
  },
  ETag: {
    description:
      'The group’s version: changes whenever membership, name or description changes. Send it in `If-Match` to replace the members only if nothing changed since.',
    schema: { type: 'string', examples: ['W/"g17v4"'] },
  },
  'Idempotent-Replayed': {
    description: '`true` on the stored first response of a request repeated with its `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  Allow: {
    description: 'The methods the route has.',
    schema: { type: 'string', examples: ['GET, HEAD'] },
  },
};

const SHARED_PARAMETERS: Record<string, Record<string, unknown>> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the first request with a key runs; the same key with the same method, path and body within 24 hours answers that first response again (status, body, `Location`, with `Idempotent-Replayed: true`) without doing the work again. The same key with another request is a 422; while the first is still running, a 409. Keys belong to the API key; a response of 500 or more is not kept (the retry runs).',
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[!-~]+$',
      examples: ['9b2f6c1e-3d4a-4f7b-8c2d-5e6f7a8b9c0d'],
    },
  },
};

/** Whether `Idempotency-Key` applies to an operation (the document's methods are lower case). */
const idempotent = (method: string) => IDEMPOTENT_METHODS.includes(method.toUpperCase());

const parametersOf = (method: string): string[] => (idempotent(method) ? ['IdempotencyKey'] : []);

/** Statuses answered after the key was accepted and counted: they carry its budget. */
const BUDGETED = /^(2\d\d|400|403|404|409|412|413|415|429)$/;
const ETAG_OPERATIONS = new Set(['getGroup', 'replaceGroupMembers']);

function headersOf(
  status: string,
  op: { method: string; authenticated: boolean; operationId: string },
): string[] {
  const headers = ['X-Request-Id', 'X-API-Version'];
  if (op.authenticated && BUDGETED.test(status))
    headers.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
  if (status === '429') headers.push('Retry-After');
  if (status === '405') headers.push('Allow');
  if (status === '201') headers.push('Location');
  if (idempotent(op.method) && !status.startsWith('5')) headers.push('Idempotent-Replayed');
  if (status === '200' && ETAG_OPERATIONS.has(op.operationId)) headers.push('ETag');
  return headers;
}

/** Collects the route schemas into an OpenAPI 3.1 document. Register before the routes. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Vigil Customer API', version: LATEST_API_VERSION, description },
      // Paths are absolute on the instance (health checks live beside the API): a client's base
      // URL is the instance's address, e.g. https://vigil.example.com.
      servers: [{ url: '/', description: 'The Vigil instance that serves this document' }],
      components: {
        schemas: {
          Error: CustomerErrorResponse,
          AuthError: CustomerAuthErrorResponse,
          // Titled schemas no route names as such (each response copies its properties).
          GroupDetail,
          WebhookEndpointWithSecret,
        },
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'apiKey',
            description: 'Your API key, e.g. `vgl_…`.',
          },
        },
      },
      security: [{ apiKey: [] }],
      tags: [
        { name: 'Employees', description: 'Access point `employees`.' },
        { name: 'Groups', description: 'Access point `groups`.' },
        { name: 'Training campaigns', description: 'Access point `campaigns`.' },
        {
          name: 'Phishing simulations',
          description:
            'Access point `campaigns`. Figures count people, human events only: mail scanners and link previews are classified automated and left out.',
        },
        {
          name: 'Reports',
          description:
            'Access point `reports` (v2.3.0). `reports:write` reports a message, and nothing else: the key a report button carries. `reports:read` lists the real reports of the triage inbox and their verdicts, for a SIEM or SOC.',
        },
        {
          name: 'Webhooks',
          description:
            'Endpoints: access point `employees` (read to list, write to change). The events, each with a sample, are under "Webhooks" at the end of this page.',
        },
        {
          name: 'Audit log',
          description:
            'Access point `audit` (v2.3.0), read only: every change made in the account and every sign-in, for a SIEM.',
        },
        { name: 'Operations', description: 'Health and readiness; no key needed.' },
        // Last, after the operations: sections of their own, no operation carries them.
        { name: GUIDE_SECTION, description: guide },
        {
          name: ERROR_CODES_SECTION,
          description: `Every \`code\` a Customer API client can meet, with its status:\n\n${customerCodesTable()}`,
        },
      ],
    },
    // The admin API has a document of its own (src/admin/openapi.ts); SCIM describes itself
    // (/scim/v2/ServiceProviderConfig, ResourceTypes, Schemas, as RFC 7644 §4 defines).
    transform: ({ schema, url }) => ({
      schema: url.startsWith('/admin/') || url.startsWith('/scim/') ? { ...schema, hide: true } : schema,
      url,
    }),
    transformObject: (documentObject) =>
      ({
        ...componentize(
          ('openapiObject' in documentObject ? documentObject.openapiObject : {}) as Record<string, unknown>,
          { headers: RESPONSE_HEADERS, headersOf, parameters: SHARED_PARAMETERS, parametersOf },
        ),
        webhooks: webhookOperations(),
      }) as ReturnType<SwaggerTransformObject>,
  });
}
