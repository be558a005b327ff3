import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

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

/** A client's pin (`X-API-Version: 2.3.0`) on the answer (an onRequest step of every request). */
export function answerPinnedVersion(request: FastifyRequest, reply: FastifyReply): void {
  const header = request.headers['x-api-version'];
  if (header === undefined) return;
  const pin = pinned(header);
  if (pin && pin !== API_VERSION) reply.header('x-api-version', pin);
}

/**
 * Routes that v2.3.0 added (`config.since`) answer as 2.3.0 whatever was pinned, errors included
 * (a 401 from authentication too): the header is set as the answer is sent, by a hook only
 * those routes carry, so no other request pays for it.
 */
export function registerRouteVersions(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.since !== LATEST_API_VERSION) return;
    const own = route.onSend === undefined ? [] : [route.onSend].flat();
    route.onSend = [...own, answerAsLatest];
  });
}

const answerAsLatest: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('x-api-version', LATEST_API_VERSION);
  done(null, payload);
};
