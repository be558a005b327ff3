import { Type } from '@sinclair/typebox';
import {
  bodyErrors,
  conflictErrors,
  errorSchema,
  idempotencyErrors,
  listErrors,
  standardErrors,
} from '../../../core/http/error-responses.js';
import { Id, PageQuery, Paginated, PathId, Timestamp } from '../../../core/http/schemas.js';
import { WEBHOOK_EVENT_TYPES } from './webhooks.catalogue.model.js';

/** Event types an endpoint can subscribe to (`webhook.test` goes only where it is sent). */
export const SUBSCRIBABLE_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test');

const at = '2026-11-22T09:14:03.512Z';
const endpointExample = {
  id: 4,
  url: 'https://hr.example.com/vigil/webhooks',
  description: 'HR system',
  event_types: ['employee.created', 'training.enrollment_completed'],
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: at,
  updated_at: at,
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const deliveryExample = {
  id: 91,
  webhook_id: 'msg_2mQ8vX0bN1c4R7tYpL3kZa5E',
  event_type: 'employee.created',
  status: 'succeeded',
  attempts: 1,
  created_at: at,
  last_attempt_at: at,
  next_attempt_at: null,
  succeeded_at: at,
  response_status: 200,
  response_excerpt: 'ok',
  error: null,
};

const eventType = Type.Unsafe<string>({ type: 'string', enum: [...SUBSCRIBABLE_TYPES] });
const eventTypes = Type.Union([Type.Array(eventType, { minItems: 1, maxItems: 100 }), Type.Null()], {
  description: 'The event types sent to this endpoint; `null`: every event.',
});
const nullableTimestamp = Type.Union([Timestamp, Type.Null()]);

const endpointFields = {
  id: Id,
  url: Type.String({ format: 'uri', description: 'Where events are POSTed.' }),
  description: Type.String(),
  event_types: eventTypes,
  enabled: Type.Boolean(),
  disabled_reason: Type.Union(
    [Type.Literal('manual'), Type.Literal('failing'), Type.Literal('gone'), Type.Null()],
    {
      description:
        '`manual`: disabled by someone; `failing`: every attempt failed for 5 days; `gone`: the receiver answered 410 Gone.',
    },
  ),
  disabled_at: nullableTimestamp,
  failing_since: Type.Union([Timestamp, Type.Null()], {
    description: 'The first failed attempt since the last success; null when the last attempt succeeded.',
  }),
  previous_secret_expires_at: Type.Union([Timestamp, Type.Null()], {
    description: 'After a rotation: until then deliveries are signed with the old secret too.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const WebhookEndpoint = Type.Object(endpointFields, {
  title: 'WebhookEndpoint',
  examples: [endpointExample],
});

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description: 'The signing secret (`whsec_` + base64): shown in this answer only. Keep it safe.',
    }),
  },
  { title: 'WebhookEndpointWithSecret', examples: [{ ...endpointExample, secret: secretExample }] },
);

export const WebhookDelivery = Type.Object(
  {
    id: Id,
    webhook_id: Type.String({
      description: 'The `webhook-id` header: the same for every attempt and resend.',
    }),
    event_type: Type.String(),
    status: Type.Union(
      ['queued', 'sending', 'succeeded', 'failed', 'cancelled'].map((s) => Type.Literal(s)),
      { description: '`failed`: every attempt failed (or 410); `cancelled`: the endpoint was disabled.' },
    ),
    attempts: Type.Integer({ minimum: 0 }),
    created_at: Timestamp,
    last_attempt_at: nullableTimestamp,
    next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'While queued: the next attempt.' }),
    succeeded_at: nullableTimestamp,
    response_status: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The last answer’s HTTP status.',
    }),
    response_excerpt: Type.Union([Type.String(), Type.Null()], {
      description: 'The first KiB of the last answer’s body, as text.',
    }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed.' }),
  },
  { title: 'WebhookDelivery', examples: [deliveryExample] },
);

export const NewWebhookEndpoint = Type.Object(
  {
    url: Type.String({
      description:
        'An https URL (http only where the operator allows it) that does not point to a private, loopback or reserved address.',
    }),
    description: Type.Optional(Type.String({ description: '0–500 characters.' })),
    event_types: Type.Optional(eventTypes),
  },
  {
    title: 'NewWebhookEndpoint',
    examples: [{ url: endpointExample.url, description: 'HR system', event_types: ['employee.created'] }],
    additionalProperties: true,
  },
);

export const WebhookEndpointChanges = Type.Object(
  {
    url: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    event_types: Type.Optional(eventTypes),
    enabled: Type.Optional(
      Type.Boolean({
        description: '`false` disables it (queued deliveries are cancelled); `true` enables it again.',
      }),
    ),
  },
  { title: 'WebhookEndpointChanges', examples: [{ enabled: false }], additionalProperties: true },
);

export const EndpointParams = Type.Object({ endpoint_id: PathId({ description: 'The endpoint id.' }) });
export const DeliveryParams = Type.Object({
  endpoint_id: PathId({ description: 'The endpoint id.' }),
  delivery_id: PathId({ description: 'The delivery id.' }),
});
export const ListQuery = Type.Object(PageQuery);

const endpointNotFound = errorSchema('No webhook endpoint with this id in this account.', [
  { code: 'webhook_endpoint_not_found' },
]);
const urlRefused = {
  code: 'validation_failed' as const,
  details: {
    url: [
      'must not point to a private, loopback or reserved address unless the operator lists its network or host name in WEBHOOKS_ALLOWED_NETWORKS and restarts Vigil',
    ],
  },
};

export const listEndpointsResponses = {
  200: Paginated(WebhookEndpoint, 'WebhookEndpointPage'),
  ...listErrors('employees'),
};
export const createEndpointResponses = {
  201: Type.Object(WebhookEndpointWithSecret.properties, {
    description: 'Created and enabled, with its secret (shown this once). `Location` names it.',
    examples: [{ ...endpointExample, secret: secretExample }],
  }),
  ...bodyErrors('employees', [urlRefused]),
  ...idempotencyErrors,
  409: conflictErrors(
    'The account has as many endpoints as it may have (20 unless the operator set another limit), disabled ones included: delete one first.',
    [
      {
        code: 'webhook_endpoint_limit_reached',
        error: 'An account may have at most 20 webhook endpoints (disabled ones included); delete one first',
      },
    ],
  ),
};
export const getEndpointResponses = {
  200: Type.Object(WebhookEndpoint.properties, {
    description: 'The endpoint (without its secret).',
    examples: [endpointExample],
  }),
  ...standardErrors('employees', 'read'),
  404: endpointNotFound,
};
export const updateEndpointResponses = {
  200: Type.Object(WebhookEndpoint.properties, {
    description: 'The endpoint after the change.',
    examples: [endpointExample],
  }),
  ...bodyErrors('employees', [urlRefused]),
  ...idempotencyErrors,
  404: endpointNotFound,
};
export const deleteEndpointResponses = {
  204: Type.Unsafe<undefined>({ type: 'null', description: 'Deleted, with its delivery log.' }),
  ...standardErrors('employees', 'write'),
  ...idempotencyErrors,
  404: endpointNotFound,
};
export const rotateSecretResponses = {
  200: Type.Object(WebhookEndpointWithSecret.properties, {
    description: 'The endpoint with its new secret; for 24 hours deliveries carry a signature with each.',
    examples: [
      { ...endpointExample, secret: secretExample, previous_secret_expires_at: '2026-11-23T09:14:03.512Z' },
    ],
  }),
  ...standardErrors('employees', 'write'),
  ...idempotencyErrors,
  404: endpointNotFound,
};
export const listDeliveriesResponses = {
  200: Paginated(WebhookDelivery, 'WebhookDeliveryPage'),
  ...listErrors('employees'),
  404: errorSchema('No such endpoint in this account, or the page is past the last page.', [
    { code: 'webhook_endpoint_not_found' },
    { code: 'invalid_page' },
  ]),
};
export const resendResponses = {
  202: Type.Object(WebhookDelivery.properties, {
    description: 'A new delivery of the same event (same `webhook-id`), queued.',
    examples: [
      {
        ...deliveryExample,
        status: 'queued',
        attempts: 0,
        last_attempt_at: null,
        next_attempt_at: at,
        succeeded_at: null,
        response_status: null,
        response_excerpt: null,
      },
    ],
  }),
  ...standardErrors('employees', 'write'),
  ...idempotencyErrors,
  404: errorSchema('No such endpoint in this account, or no such delivery of it.', [
    { code: 'webhook_endpoint_not_found' },
    { code: 'webhook_delivery_not_found' },
  ]),
  409: conflictErrors('The endpoint is disabled: enable it first.', [{ code: 'webhook_endpoint_disabled' }]),
};
