import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, Body, NoContent, PathId, responses } from '../../../core/http/admin-schemas.js';
import { listEnvelope } from '../../../core/http/page-envelope.js';
import { ListOf, ListQuery } from '../../../core/http/schemas.js';
import { listWindow } from '../../../core/pagination.js';
import { WEBHOOK_EVENTS } from './webhooks.catalogue.model.js';
import { presentDelivery, presentEndpoint, presentEndpointWithSecret } from './webhooks.presenter.js';
import {
  SUBSCRIBABLE_TYPES,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './webhooks.schemas.js';
import {
  createEndpoint,
  deleteEndpoint,
  deliveriesOfEndpoint,
  endpointsOfAccount,
  getEndpoint,
  resendDelivery,
  rotateEndpointSecret,
  sendTestEvent,
  updateEndpoint,
} from './webhooks.service.js';

const tags = ['Webhooks'];
const EndpointParams = Type.Object({ accountId: PathId, id: PathId });
const DeliveryParams = Type.Object({ accountId: PathId, id: PathId, deliveryId: PathId });
const eventTypes = Type.Union([Type.Array(Type.String(), { maxItems: 100 }), Type.Null()], {
  description: 'Event types (`GET /webhooks/event-types`); null: every event.',
});

const EventTypeInfo = Type.Object(
  { type: Type.String(), description: Type.String() },
  { title: 'WebhookEventType' },
);
const WebhookSettings = Type.Object(
  {
    allow_http: Type.Boolean({ description: 'http: URLs are accepted besides https:.' }),
    max_endpoints: Type.Integer({
      description: 'Endpoints an account may have, disabled ones included (WEBHOOKS_MAX_ENDPOINTS).',
    }),
    event_types: Type.Array(EventTypeInfo),
  },
  { title: 'WebhookSettings' },
);
const Secret = Type.Object(
  { secret: Type.String(), previous_secret_expires_at: Type.Union([Type.String(), Type.Null()]) },
  { title: 'WebhookSecret' },
);

/** The Integration area: an account's webhook endpoints and their delivery logs. */
export const webhooksAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const accountId = (request: Parameters<typeof accountOf>[0]) => accountOf(request).accountId;

  app.get(
    '/webhooks/settings',
    {
      config: { adminPermission: 'integrations:read' },
      schema: {
        tags,
        summary: 'What an endpoint may be: the event types and what the operator allows',
        params: AccountParams,
        response: responses({ 200: WebhookSettings }),
      },
    },
    async () => ({
      allow_http: app.config.webhooks.allowHttp,
      max_endpoints: app.config.webhooks.maxEndpoints,
      event_types: WEBHOOK_EVENTS.filter((e) =>
        (SUBSCRIBABLE_TYPES as readonly string[]).includes(e.type),
      ).map((e) => ({ type: e.type, description: e.description })),
    }),
  );

  app.get(
    '/webhooks/endpoints',
    {
      config: { adminPermission: 'integrations:read' },
      schema: {
        tags,
        summary: "The account's webhook endpoints, oldest first",
        params: AccountParams,
        response: responses({ 200: ListOf(WebhookEndpoint) }),
      },
    },
    async (request) => {
      const results = (await endpointsOfAccount(app.db, accountId(request))).map((e) => presentEndpoint(e));
      return { count: results.length, results };
    },
  );

  app.post(
    '/webhooks/endpoints',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Creates an endpoint: the answer holds its secret',
        params: AccountParams,
        body: Body({
          url: Type.String(),
          description: Type.Optional(Type.String()),
          event_types: Type.Optional(eventTypes),
        }),
        response: responses({ 201: WebhookEndpointWithSecret }),
      },
    },
    async (request, reply) => {
      const endpoint = await createEndpoint(app.db, {
        accountId: accountId(request),
        url: request.body.url,
        description: request.body.description,
        eventTypes: request.body.event_types,
        policy: app.config.webhooks,
      });
      return reply.code(201).send(presentEndpointWithSecret(endpoint));
    },
  );

  app.patch(
    '/webhooks/endpoints/:id',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Changes the URL, description or filter; enables or disables it',
        params: EndpointParams,
        body: Body({
          url: Type.Optional(Type.String()),
          description: Type.Optional(Type.String()),
          event_types: Type.Optional(eventTypes),
          enabled: Type.Optional(Type.Boolean()),
        }),
        response: responses({ 200: WebhookEndpoint }),
      },
    },
    async (request) =>
      presentEndpoint(
        await updateEndpoint(app.db, {
          accountId: accountId(request),
          endpointId: request.params.id,
          url: request.body.url,
          description: request.body.description,
          eventTypes: request.body.event_types,
          enabled: request.body.enabled,
          policy: app.config.webhooks,
        }),
      ),
  );

  app.delete(
    '/webhooks/endpoints/:id',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Deletes an endpoint and its log',
        params: EndpointParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      await deleteEndpoint(app.db, accountId(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/webhooks/endpoints/:id/secret',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: "Reveals the endpoint's signing secret",
        params: EndpointParams,
        response: responses({ 200: Secret }),
      },
    },
    async (request) => {
      const endpoint = presentEndpointWithSecret(
        await getEndpoint(app.db, accountId(request), request.params.id),
      );
      return { secret: endpoint.secret, previous_secret_expires_at: endpoint.previous_secret_expires_at };
    },
  );

  app.post(
    '/webhooks/endpoints/:id/rotate-secret',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Makes a new secret; the old one also signs for 24 hours',
        params: EndpointParams,
        response: responses({ 200: WebhookEndpointWithSecret }),
      },
    },
    async (request) =>
      presentEndpointWithSecret(await rotateEndpointSecret(app.db, accountId(request), request.params.id)),
  );

  app.post(
    '/webhooks/endpoints/:id/test',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: 'Queues a `webhook.test` event to this endpoint',
        params: EndpointParams,
        response: responses({ 202: WebhookDelivery }),
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(presentDelivery(await sendTestEvent(app.db, accountId(request), request.params.id))),
  );

  app.get(
    '/webhooks/endpoints/:id/deliveries',
    {
      config: { adminPermission: 'integrations:read' },
      schema: {
        tags,
        summary: "The endpoint's deliveries, newest first",
        params: EndpointParams,
        querystring: ListQuery,
        response: responses({ 200: ListOf(WebhookDelivery) }),
      },
    },
    async (request) =>
      listEnvelope(
        await deliveriesOfEndpoint(app.db, accountId(request), request.params.id, listWindow(request.query)),
        presentDelivery,
      ),
  );

  app.post(
    '/webhooks/endpoints/:id/deliveries/:deliveryId/resend',
    {
      config: { adminPermission: 'integrations:write' },
      schema: {
        tags,
        summary: "Sends a delivery's event again (a new delivery, same webhook-id)",
        params: DeliveryParams,
        response: responses({ 202: WebhookDelivery }),
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          presentDelivery(
            await resendDelivery(app.db, accountId(request), request.params.id, request.params.deliveryId),
          ),
        ),
  );
};
