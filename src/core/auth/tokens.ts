import { createHash, randomBytes } from 'node:crypto';

/** Bearer tokens of sessions and links: 256 random bits; only their SHA-256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export function isWellFormedToken(token: string | undefined): token is string {
  return token !== undefined && TOKEN_PATTERN.test(token);
}
