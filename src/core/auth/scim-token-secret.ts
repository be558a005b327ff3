import { generatePrefixedSecret, hashApiKey, secretPattern } from './api-key-secret.js';

/**
 * SCIM bearer tokens: `vgs_` + 40 base62 characters (≈238 random bits), made and stored as API
 * keys are (api-key-secret.ts): only the SHA-256 is kept, a fast hash being as strong as a slow
 * one for a secret this random. The other prefix tells the two apart in a log or a leak report.
 */

export const SCIM_TOKEN_PREFIX = 'vgs_';
const TOKEN_PATTERN = secretPattern(SCIM_TOKEN_PREFIX);

export interface NewScimToken {
  token: string;
  /** Shown in lists to recognise a token: `vgs_` and the next 8 characters. */
  prefix: string;
  hash: string;
}

export const hashScimToken = hashApiKey;

export function generateScimToken(): NewScimToken {
  const { secret, ...rest } = generatePrefixedSecret(SCIM_TOKEN_PREFIX);
  return { token: secret, ...rest };
}

/** A well-formed token; anything else is refused without asking the database. */
export function isWellFormedScimToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}
