import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { responses } from '../core/http/admin-schemas.js';
import { CSRF_COOKIE, SESSION_COOKIE } from '../modules/access/sessions/sessions.cookie.service.js';

/**
 * The admin API's own OpenAPI document, made from its route schemas by a second @fastify/swagger
 * registered in the /admin/api scope (so it sees only the admin routes; the Customer API's
 * document leaves them out). The web interface's types and client are generated from it at
 * build time (web/build.mjs); it is served at GET /admin/api/openapi.json.
 */

export const ADMIN_API_BASE = '/admin/api';

declare module 'fastify' {
  interface FastifyInstance {
    /** The admin API's OpenAPI document (only inside the /admin/api scope). */
    adminSwagger: () => Record<string, unknown>;
  }
}

const description = `The JSON API of Vigil's administrator web interface (\`/admin/\`). It is not the
Customer API: it takes a session cookie, never an API key, and may change with the web interface.

**Session.** \`POST /session\` signs in and sets the \`${SESSION_COOKIE}\` cookie (HttpOnly,
SameSite=Lax, Path=/admin). Sessions end after 12 hours idle or 7 days (SESSION_IDLE_MINUTES,
SESSION_MAX_DAYS) and at sign-out. A route that needs a session answers 401 \`Sign-in required\`
without one.

**CSRF.** Every POST, PUT, PATCH and DELETE must carry \`X-CSRF-Token\` with the token from
\`GET /session\` (it changes at sign-in and sign-out), and the \`${CSRF_COOKIE}\` cookie that answer
sets. Missing or wrong: 403 \`Invalid CSRF token\`.

**Tenancy.** Account routes live under \`/accounts/{accountId}\`. An account administrator can use
only their own account; any other answers 404 \`Account not found\`, as one that does not exist.
Operator-only routes answer 403 \`Operator access required\` to account administrators. Objects of
another account are 404 like nonexistent ones; so is a path id that is not a positive integer.

**Requests.** JSON bodies; a field a body does not name is refused (400 \`Validation failed\`, the
field in \`details\`). Rules on values (lengths, ranges, what a campaign's status lets change) are
the services'; \`GET /limits\` gives the bounds the forms need.

**Lists** take \`page\` (from 1) and \`page_size\` (default 25, at most 200) and answer
\`{count, results}\`; a page past the last has no results (not a 404).

**Errors** are \`{"error": "...", "status": N, "details"?: {...}}\`; \`details\` of a 400
\`Validation failed\` maps each field (\`lessons[1].title\` inside a course) to its messages.
Timestamps are ISO 8601 (UTC, milliseconds) or null.`;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Paths relative to the base, without a trailing slash; the security each route needs, from its config. */
const transform: SwaggerTransform = ({ schema, url, route }) => {
  const methods = [route.method].flat();
  const write = methods.some((m) => WRITE_METHODS.has(m));
  const needs = {
    ...(route.config?.adminPublic ? {} : { session: [] }),
    ...(write ? { csrf: [] } : {}),
  };
  return {
    schema: { ...schema, security: Object.keys(needs).length ? [needs] : [] } as typeof schema,
    url: url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url,
  };
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every schema with a `title` becomes a named component (`#/components/schemas/<title>`), so
 * the generated web types have names. Two different schemas with one title are a build error.
 */
const nameSchemas: SwaggerTransformObject = (documentObject) => {
  const doc = ('openapiObject' in documentObject ? documentObject.openapiObject : {}) as Json;
  const components = (doc.components ?? {}) as Json;
  const named = (components.schemas ?? {}) as Record<string, Json>;
  const seen = new Map<string, string>();
  const hoist = (node: unknown, inSchema: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => hoist(n, inSchema));
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      // Below `schema`, every object is a schema (or a map of them); `examples` are data.
      out[key] = key === 'examples' || key === 'example' ? value : hoist(value, inSchema || key === 'schema');
    }
    const title = out.title;
    if (!inSchema || typeof title !== 'string') return out;
    // Examples are moved out of a response's own schema (into its media object) but stay in a
    // nested one: the component goes without them.
    const { examples: _examples, example: _example, ...schema } = out;
    const text = JSON.stringify(schema);
    const earlier = seen.get(title);
    if (earlier !== undefined && earlier !== text) {
      throw new Error(`admin OpenAPI: two different schemas are titled "${title}"`);
    }
    seen.set(title, text);
    named[title] = schema;
    return { $ref: `#/components/schemas/${title}` };
  };
  const paths = hoist(doc.paths, false);
  return {
    ...doc,
    paths,
    components: { ...components, schemas: named },
  } as ReturnType<SwaggerTransformObject>;
};

/** Registers the document's generator in the admin API's scope. Register before the routes. */
export async function registerAdminOpenApi(api: FastifyInstance): Promise<void> {
  await api.register(swagger, {
    decorator: 'adminSwagger',
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Vigil admin API', version: '1.0.0', description },
      servers: [{ url: ADMIN_API_BASE }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'From `POST /session`.',
          },
          csrf: {
            type: 'apiKey',
            in: 'header',
            name: 'X-CSRF-Token',
            description: 'The `csrf_token` of `GET /session`, on every write.',
          },
        },
      },
      tags: [
        {
          name: 'Session',
          description: 'Sign-in, the session and its CSRF token, setup and invitation links.',
        },
        { name: 'Accounts', description: 'Customer accounts; operators manage them.' },
        { name: 'Administrators', description: "An account's administrators and their invitations." },
        { name: 'API keys', description: 'The Integration area.' },
        { name: 'Employees', description: 'People who receive training; CSV import and export.' },
        { name: 'Groups', description: 'Groups of employees and their members.' },
        { name: 'Training campaigns', description: 'Lifecycle, progress and enrollments.' },
        { name: 'Courses', description: 'Built-in courses and the account’s own.' },
        { name: 'Outbox', description: 'The mail queue and its record.' },
        {
          name: 'Phishing results',
          description: 'A phishing campaign’s figures, people and events; an employee’s history.',
        },
      ],
    },
    transform,
    transformObject: nameSchemas,
  });
}

/** GET /admin/api/openapi.json: this document (for a signed-in administrator). */
export const adminOpenApiRoutes: FastifyPluginAsync = async (api) => {
  api.get(
    '/openapi.json',
    {
      config: { adminPermission: 'signed-in' },
      schema: {
        tags: ['Session'],
        summary: 'This document',
        response: responses({
          200: Type.Object(
            { openapi: Type.String() },
            { additionalProperties: true, description: 'OpenAPI 3.1' },
          ),
        }),
      },
    },
    async () => api.adminSwagger(),
  );
};
