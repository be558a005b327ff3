import { iso, isoOrNull } from '../../../core/time.js';
import type { ApiKey } from './keys.service.js';

/** A key as operators and administrators see it: never the secret. */
export function presentKey(key: ApiKey, now = Date.now()) {
  return {
    id: key.id,
    account_id: key.account_id,
    name: key.name,
    prefix: key.prefix,
    permissions: key.permissions,
    rate_limit: key.rate_limit,
    status:
      key.revoked_at !== null
        ? ('revoked' as const)
        : key.expires_at !== null && key.expires_at <= now
          ? ('expired' as const)
          : ('active' as const),
    created_at: iso(key.created_at),
    expires_at: isoOrNull(key.expires_at),
    revoked_at: isoOrNull(key.revoked_at),
    last_used_at: isoOrNull(key.last_used_at),
  };
}
