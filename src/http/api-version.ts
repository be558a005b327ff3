import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * API versions. Every response says in `X-API-Version` which version answered it. The contract
 * fixes `2.2.0` for what version 2.2.0 has, so that stays the default; a client that wants
 * v2.3.0 pins it by sending `X-API-Version: 2.3.0` (or `2.3`), as Stripe-Version and
 * X-GitHub-Api-Version work, and the routes that v2.3.0 added always answer as 2.3.0 (they
 * have no 2.2.0 answer). The bytes of a v2.2.0 route's body are the same under either version;
 * only the header differs. A version this server does not know is answered as the default, and
 * the header says so.
 */
export const API_VERSION = '2.2.0';
export const LATEST_API_VERSION = '2.3.0';
export const API_VERSIONS = [API_VERSION, LATEST_API_VERSION] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The version that added this route; it answers as that version at least. */
    since?: ApiVersion;
  }
}

/** `2.3`, `2.3.0` and `v2.3.0` pin 2.3.0; anything else is not a pin. */
function pinned(header: string | string[] | undefined): ApiVersion | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().replace(/^v/i, '');
  if (!value) return undefined;
  return API_VERSIONS.find((v) => v === value || v === `${value}.0`);
}

/** Sets `X-API-Version` to the version this request is answered as (an onRequest step). */
export function answerVersion(request: FastifyRequest, reply: FastifyReply): void {
  const since = request.routeOptions.config?.since;
  if (since === LATEST_API_VERSION) {
    reply.header('x-api-version', LATEST_API_VERSION);
    return;
  }
  const pin = pinned(request.headers['x-api-version']);
  if (pin && pin !== API_VERSION) reply.header('x-api-version', pin);
}
