/**
 * Keys that authenticated recently, by secret hash, so a request does not ask the database who
 * it is. An entry lives `ttlMs` at most: a key revoked (or re-budgeted) by another process or
 * instance stops working within that time; by this process, at once (`forget`). Expiry is
 * checked on every request. Unknown keys are never remembered.
 */
/** What the cache needs of a key (keys.service's AuthenticatedKey). */
interface CachedKey {
  keyId: number;
}

interface Entry {
  key: CachedKey;
  expiresAt: number | null;
  until: number;
}

const MAX_ENTRIES = 10_000;
const entries = new Map<string, Entry>();

export function rememberedKey<K extends CachedKey>(hash: string, now: number): K | null | undefined {
  const entry = entries.get(hash);
  if (!entry) return undefined;
  if (entry.until <= now) {
    entries.delete(hash);
    return undefined;
  }
  return entry.expiresAt !== null && entry.expiresAt <= now ? null : (entry.key as K);
}

export function rememberKey(hash: string, key: CachedKey, expiresAt: number | null, until: number): void {
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  entries.set(hash, { key, expiresAt, until });
}

/** This process changed the key (revoked, new budget): the next request reads it again. */
export function forgetKey(keyId: number): void {
  for (const [hash, entry] of entries) if (entry.key.keyId === keyId) entries.delete(hash);
}
