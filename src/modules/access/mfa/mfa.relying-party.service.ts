import type { FastifyRequest } from 'fastify';
import type { RelyingParty } from './mfa.service.js';

/**
 * The WebAuthn relying party of a request: the host of PUBLIC_URL when it is set (so a passkey
 * works whichever address reached the server), else the host the browser used; the origin a
 * passkey's answer must come from goes with it.
 */
export function relyingPartyOf(request: FastifyRequest): RelyingParty {
  const configured = request.server.config.publicUrl;
  if (configured) {
    const url = new URL(configured);
    return { id: url.hostname, origin: url.origin, name: 'Vigil' };
  }
  const url = new URL(`${request.protocol}://${request.host || 'localhost'}`);
  return { id: url.hostname, origin: url.origin, name: 'Vigil' };
}
