import type { JsonBody, QueryParams, Success } from '../operations.js';
import { PageIterator } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';

export type WebhookEndpoint = Success<'getWebhookEndpoint'>;
export type WebhookEndpointWithSecret = Success<'createWebhookEndpoint'>;
export type NewWebhookEndpoint = JsonBody<'createWebhookEndpoint'>;
export type WebhookEndpointChanges = JsonBody<'updateWebhookEndpoint'>;
export type WebhookDelivery = Success<'listWebhookDeliveries'>['results'][number];
export type WebhookListParams = QueryParams<'listWebhookEndpoints'>;
export type WebhookDeliveryListParams = QueryParams<'listWebhookDeliveries'>;

/**
 * `client.webhooks`: the account's webhook endpoints (Standard Webhooks). The secret (`whsec_…`)
 * is in the answers of `create` and `rotateSecret` only; verify deliveries with it, e.g. with the
 * `standardwebhooks` package.
 */
export class Webhooks {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Every endpoint, page by page as you iterate. */
  list(params: WebhookListParams = {}): PageIterator<WebhookEndpoint, WebhookListParams> {
    return new PageIterator(
      async (query) => (await this.#t.call('listWebhookEndpoints', { query })).data,
      params,
    );
  }

  async get(id: number, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.#t.call('getWebhookEndpoint', { path: { endpoint_id: id } }, options)).data;
  }

  /** Creates an endpoint; the answer carries its secret, shown this once. */
  async create(body: NewWebhookEndpoint, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return (await this.#t.call('createWebhookEndpoint', { body }, options)).data;
  }

  /** Changes the URL, description, event filter or enabled state given. */
  async update(id: number, body: WebhookEndpointChanges, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.#t.call('updateWebhookEndpoint', { path: { endpoint_id: id }, body }, options)).data;
  }

  async delete(id: number, options?: RequestOptions): Promise<void> {
    await this.#t.call('deleteWebhookEndpoint', { path: { endpoint_id: id } }, options);
  }

  /** A new secret; for 24 hours deliveries are signed with both the new and the old one. */
  async rotateSecret(id: number, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return (await this.#t.call('rotateWebhookSecret', { path: { endpoint_id: id } }, options)).data;
  }

  /** The endpoint's delivery log, newest first, page by page as you iterate. */
  deliveries(
    id: number,
    params: WebhookDeliveryListParams = {},
  ): PageIterator<WebhookDelivery, WebhookDeliveryListParams> {
    return new PageIterator(
      async (query) =>
        (await this.#t.call('listWebhookDeliveries', { path: { endpoint_id: id }, query })).data,
      params,
    );
  }

  /** Sends a delivery's event again (same `webhook-id`). */
  async resend(id: number, deliveryId: number, options?: RequestOptions) {
    const path = { endpoint_id: id, delivery_id: deliveryId };
    return (await this.#t.call('resendWebhookDelivery', { path }, options)).data;
  }
}
