import type { FastifyInstance } from 'fastify';
import { MIB } from '../../../core/http/bodies.js';
import { guardedFetch, plainHttpAllowed } from '../../../core/http/guarded-fetch.js';
import { publicBaseUrl } from '../../../core/http/links.js';
import type { SsoEnv } from './sso.model.js';

/** An identity provider's discovery, keys, token and metadata answers are read within this long. */
const FETCH_TIMEOUT_MS = 10_000;

/**
 * What SSO needs from the app: its secret box, the public URL, and a fetch that reaches only the
 * addresses webhooks may reach (public ones, and those WEBHOOKS_ALLOWED_NETWORKS lists).
 */
export function ssoEnvOf(app: FastifyInstance): SsoEnv {
  const allowList = app.config.webhooks.allowedNetworks;
  return {
    secretBox: app.secretBox,
    fetch: guardedFetch({ allowList, timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MIB }),
    baseUrl: publicBaseUrl(app),
    plainHttpAllowed: (url) => plainHttpAllowed(url, allowList),
  };
}
