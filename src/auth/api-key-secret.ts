import { createHash, randomBytes } from 'node:crypto';

/**
 * API key secrets: `vgl_` + 40 base62 characters (≈238 random bits). Only the SHA-256 is
 * stored: the key is high-entropy, so a fast hash is as strong as a slow one and costs
 * nothing per request.
 */

export const KEY_PREFIX = 'vgl_';
const BODY_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^vgl_[0-9A-Za-z]{32,128}$/;

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

export function generateApiKey(): NewSecret {
  const key = KEY_PREFIX + randomBase62(BODY_LENGTH);
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 8), hash: hashApiKey(key) };
}

/** A well-formed key; anything else is invalid without asking the database. */
export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
