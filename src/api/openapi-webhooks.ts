import { webhookCatalogue } from '../modules/integrations/webhooks/webhooks.catalogue.model.js';

/**
 * What the reference page (`/api/api_gateway/docs`) says of webhooks and of v2.3.0: the event
 * catalogue as OpenAPI 3.1 `webhooks` (one entry per event type, with its sample payload, which
 * Swagger UI lists under "Webhooks"), and the description's sections with a snippet that
 * verifies a delivery's signature.
 */

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description: 'The event’s id (`msg_…`): the same on every attempt; ignore one you have handled.',
    example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
  },
  {
    name: 'webhook-timestamp',
    description: 'Seconds since the epoch when this attempt was signed.',
    example: '1795338843',
  },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>`; two during the 24 hours after a secret rotation.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map(({ name, description, example }) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', examples: [example] },
}));

/** `training.enrollment_completed` → `trainingEnrollmentCompletedEvent`: camelCase, like every operation. */
export const eventOperationId = (type: string): string =>
  `${type.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}Event`;

/** The document's `webhooks`: each event type, what it means, and a sample body. */
export function webhookOperations(): Record<string, unknown> {
  const entries = webhookCatalogue().map(({ type, description, sample }) => [
    type,
    {
      post: {
        operationId: eventOperationId(type),
        summary: description,
        description:
          'Signed as [Standard Webhooks](https://www.standardwebhooks.com) defines; see "Webhooks" under "Using the API", after the operations.',
        tags: ['Webhooks'],
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['type', 'timestamp', 'data'],
                properties: {
                  type: { type: 'string', const: type },
                  timestamp: { type: 'string', format: 'date-time' },
                  data: { type: 'object', description: 'The object as the Customer API shows it.' },
                },
              },
              example: sample,
            },
          },
        },
        responses: {
          '200': { description: 'Received: any 2xx within 10 seconds. Anything else is retried.' },
          '410': { description: 'Gone: the endpoint is disabled at once.' },
        },
      },
    },
  ]);
  return Object.fromEntries(entries);
}

/** The introduction's sections on v2.3.0 and on webhooks (Markdown). */
export const WEBHOOKS_AND_NEWS = `**New in 2.3.0** (see the CHANGELOG; none of it changes what 2.2.0 answered):
create, rename and delete groups; add or remove some members (\`POST\`/\`DELETE …/members/\`);
update and offboard employees; \`POST /customer/employees/bulk/\` upserts up to 10,000 people by
address with a result per row; \`updated_since=\` on the employee and group lists and
\`…/deleted/?since=\` for an incremental sync; \`Idempotency-Key\` on every write; webhooks
(below); SCIM 2.0 at \`/scim/v2/\` for Okta and Microsoft Entra (a bearer token from the
Integration area); a typed TypeScript client (\`clients/typescript\` in the repository).

**Webhooks.** Manage endpoints under \`/customer/webhooks/endpoints/\` or in the Integration area,
each with an event filter; an account has at most 20 (the operator may set another limit). Every event (listed under "Webhooks" at the end of this page, each with
a sample) is POSTed as \`{"type", "timestamp", "data"}\` and signed as
[Standard Webhooks](https://www.standardwebhooks.com) defines: headers \`webhook-id\`,
\`webhook-timestamp\` and \`webhook-signature\` (\`v1,\` + base64 HMAC-SHA256 with your \`whsec_\`
secret). Answer 2xx within 10 seconds; otherwise the delivery is retried after 5 s, 5 min, 30 min,
2 h, 5 h, 10 h and 10 h; \`410 Gone\` disables the endpoint. A delivery may come twice (same
\`webhook-id\`), never not at all. Verify a signature:

\`\`\`js
import { Webhook } from 'standardwebhooks'; // npm install standardwebhooks

const wh = new Webhook(endpointSecret); // the endpoint's secret, whsec_…
// rawBody: the request body exactly as received (a string or Buffer), headers: the request's headers
const event = wh.verify(rawBody, headers); // throws if forged, altered or older than 5 minutes
console.log(event.type, event.data);
\`\`\`

Without the package: compute \`base64(HMAC-SHA256(base64decode(secret without "whsec_"),
"{webhook-id}.{webhook-timestamp}.{body}"))\` and compare it, in constant time, with each
\`v1,\` signature of the header; refuse timestamps more than 5 minutes away.`;
