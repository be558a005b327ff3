import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { absoluteUrl } from '../../../core/http/links.js';
import { presentPage } from '../../../core/http/page-envelope.js';
import { pageRequest } from '../../../core/pagination.js';
import { presentDelivery, presentEndpoint, presentEndpointWithSecret } from './webhooks.presenter.js';
import {
  createEndpointResponses,
  DeliveryParams,
  deleteEndpointResponses,
  EndpointParams,
  getEndpointResponses,
  ListQuery,
  listDeliveriesResponses,
  listEndpointsResponses,
  NewWebhookEndpoint,
  resendResponses,
  rotateSecretResponses,
  updateEndpointResponses,
  WebhookEndpointChanges,
} from './webhooks.schemas.js';
import {
  createEndpoint,
  deleteEndpoint,
  findDeliveries,
  findEndpoints,
  getEndpoint,
  resendDelivery,
  rotateEndpointSecret,
  updateEndpoint,
} from './webhooks.service.js';

const tags = ['Webhooks'];
const base = '/customer/webhooks/endpoints/';

/**
 * Webhook endpoints through the Customer API. Their events carry employees' data, so they
 * belong to the `employees` access point: reading needs `employees:read`, managing `employees:write`.
 */
export const webhooksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    base,
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        description: 'Ordered by id. Secrets are never listed.',
        tags,
        querystring: ListQuery,
        response: listEndpointsResponses,
      },
      config: { permission: 'employees:read', since: '2.3.0' },
    },
    async (request) =>
      presentPage(
        request,
        await findEndpoints(app.db, request.auth.accountId, pageRequest(request.query)),
        (e) => presentEndpoint(e),
      ),
  );

  app.post(
    base,
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint',
        description:
          'Events are POSTed to `url`, signed as Standard Webhooks defines (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer holds the signing secret: the only time it is shown. An account has at most 20 endpoints (the operator may set another limit), disabled ones included; one more is a 409 `webhook_endpoint_limit_reached`.',
        tags,
        body: NewWebhookEndpoint,
        response: createEndpointResponses,
      },
      config: { permission: 'employees:write', since: '2.3.0' },
    },
    async (request, reply) => {
      const endpoint = await createEndpoint(app.db, {
        accountId: request.auth.accountId,
        url: request.body.url,
        description: request.body.description,
        eventTypes: request.body.event_types,
        policy: app.config.webhooks,
      });
      reply.header('Location', absoluteUrl(request, `${app.apiPrefix}${base}${endpoint.id}/`));
      return reply.status(201).send(presentEndpointWithSecret(endpoint));
    },
  );

  app.get(
    `${base}:endpoint_id/`,
    {
      schema: {
        operationId: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        tags,
        params: EndpointParams,
        response: getEndpointResponses,
      },
      config: { permission: 'employees:read', since: '2.3.0' },
    },
    async (request) =>
      presentEndpoint(await getEndpoint(app.db, request.auth.accountId, request.params.endpoint_id)),
  );

  app.patch(
    `${base}:endpoint_id/`,
    {
      schema: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Change, enable or disable a webhook endpoint',
        description: 'Fields not sent stay as they are.',
        tags,
        params: EndpointParams,
        body: WebhookEndpointChanges,
        response: updateEndpointResponses,
      },
      config: { permission: 'employees:write', since: '2.3.0' },
    },
    async (request) =>
      presentEndpoint(
        await updateEndpoint(app.db, {
          accountId: request.auth.accountId,
          endpointId: request.params.endpoint_id,
          url: request.body.url,
          description: request.body.description,
          eventTypes: request.body.event_types,
          enabled: request.body.enabled,
          policy: app.config.webhooks,
        }),
      ),
  );

  app.delete(
    `${base}:endpoint_id/`,
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        tags,
        params: EndpointParams,
        response: deleteEndpointResponses,
      },
      config: { permission: 'employees:write', since: '2.3.0' },
    },
    async (request, reply) => {
      await deleteEndpoint(app.db, request.auth.accountId, request.params.endpoint_id);
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}:endpoint_id/rotate-secret/`,
    {
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate a webhook endpoint’s secret',
        description:
          'A new secret signs every delivery from now on; for 24 hours the old one signs them too (two signatures in `webhook-signature`), so your receiver can switch without missing a message.',
        tags,
        params: EndpointParams,
        response: rotateSecretResponses,
      },
      config: { permission: 'employees:write', since: '2.3.0' },
    },
    async (request) =>
      presentEndpointWithSecret(
        await rotateEndpointSecret(app.db, request.auth.accountId, request.params.endpoint_id),
      ),
  );

  app.get(
    `${base}:endpoint_id/deliveries/`,
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'List a webhook endpoint’s deliveries',
        description:
          'Newest first: status, attempts, the last answer’s status and the first KiB of its body.',
        tags,
        params: EndpointParams,
        querystring: ListQuery,
        response: listDeliveriesResponses,
      },
      config: { permission: 'employees:read', since: '2.3.0' },
    },
    async (request) =>
      presentPage(
        request,
        await findDeliveries(
          app.db,
          request.auth.accountId,
          request.params.endpoint_id,
          pageRequest(request.query),
        ),
        presentDelivery,
      ),
  );

  app.post(
    `${base}:endpoint_id/deliveries/:delivery_id/resend/`,
    {
      schema: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send a delivery’s event again',
        description:
          'Queues a new delivery of the same event, with the same `webhook-id` (receivers dedupe on it).',
        tags,
        params: DeliveryParams,
        response: resendResponses,
      },
      config: { permission: 'employees:write', since: '2.3.0' },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          presentDelivery(
            await resendDelivery(
              app.db,
              request.auth.accountId,
              request.params.endpoint_id,
              request.params.delivery_id,
            ),
          ),
        ),
  );
};
