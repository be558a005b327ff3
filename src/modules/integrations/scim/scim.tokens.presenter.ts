import { iso, isoOrNull } from '../../../core/time.js';
import type { ScimToken } from './scim.tokens.service.js';

/** A SCIM token as administrators see it: never the secret. */
export function presentScimToken(token: ScimToken) {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    status: token.revoked_at === null ? ('active' as const) : ('revoked' as const),
    created_at: iso(token.created_at),
    last_used_at: isoOrNull(token.last_used_at),
    revoked_at: isoOrNull(token.revoked_at),
  };
}
