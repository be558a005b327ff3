import { createHash, randomBytes } from 'node:crypto';

/**
 * API key secrets: `vgl_` + 40 base62 characters (≈238 random bits). Only the SHA-256 is
 * stored: the key is high-entropy, so a fast hash is as strong as a slow one and costs
 * nothing per request.
 */

export const KEY_PREFIX = 'vgl_';
const BODY_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = secretPattern(KEY_PREFIX);

/** What a well-formed `<prefix><base62>` secret looks like; anything else is refused unread. */
export function secretPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}[0-9A-Za-z]{32,128}$`);
}

/** Uniformly random base62 text (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export interface NewSecret {
  key: string;
  /** Shown in key lists to recognise a key: `vgl_` and the next 8 characters. */
  prefix: string;
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new `<prefix>` + 40 base62 secret, the part lists show (the prefix and 8 more characters) and its hash. */
export function generatePrefixedSecret(prefix: string): { secret: string; prefix: string; hash: string } {
  const secret = prefix + randomBase62(BODY_LENGTH);
  return { secret, prefix: secret.slice(0, prefix.length + 8), hash: hashApiKey(secret) };
}

export function generateApiKey(): NewSecret {
  const { secret, ...rest } = generatePrefixedSecret(KEY_PREFIX);
  return { key: secret, ...rest };
}

/** A well-formed key; anything else is invalid without asking the database. */
export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
