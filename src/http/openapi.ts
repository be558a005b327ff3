import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ACCESS_POINTS } from '../auth/permissions.js';
import { CustomerErrorResponse, customerCodesTable } from './error-responses.js';

export const API_VERSION = '2.2.0';

const description = `Integrate your HR system or scripts with Vigil: create employees, find them by email,
read groups and replace their membership, read training campaigns.

**Authentication.** Send your key in the \`apiKey\` header. Keys are created by an administrator
(Integration area → New API Key) and hold \`read\`/\`write\` per access point (${ACCESS_POINTS.join(', ')}).

**Errors** always look like \`{"error": "...", "status": 400, "code": "validation_failed", "details": {...}, "request_id": "..."}\`:
\`error\` is for people, \`code\` for programs (stable; dispatch on it, never on the text),
\`details\` is optional, \`request_id\` equals the \`X-Request-Id\` response header. One exception:
the bodies of the two 401s (\`api_key_required\`, \`invalid_api_key\`) and of the 403 (\`forbidden\`)
are exactly \`{"error": "...", "status": N}\`, as version 2.2.0 has always given them.

${customerCodesTable()}

**Pagination.** \`page\` (from 1) and \`page_size\` (default 100, at most 1000); \`next\` and
\`previous\` are absolute URLs or null.

**Rate limits.** Each key has a per-minute budget (600 by default); every authenticated response
carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`. A 429 carries
\`Retry-After\`: retry with exponential back-off.

Paths work with or without the trailing slash. Every response carries \`X-API-Version: ${API_VERSION}\`.`;

/** Collects the route schemas into an OpenAPI 3.1 document. Register before the routes. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Vigil Customer API', version: API_VERSION, description },
      components: {
        schemas: { Error: CustomerErrorResponse },
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
        { name: 'Operations', description: 'Health and readiness; no key needed.' },
      ],
    },
    // The admin API has a document of its own (src/admin/openapi.ts).
    transform: ({ schema, url }) => ({
      schema: url.startsWith('/admin/') ? { ...schema, hide: true } : schema,
      url,
    }),
  });
}
