import { randomInt } from 'node:crypto';

/**
 * The rules of second factors that need no database: recovery codes (how they look, how a typed
 * one is read), the shapes of codes, and how long things last.
 */

/** How many recovery codes an administrator holds at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a WebAuthn challenge may be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** How long a session waiting for its second step (or for a first enrolment) lives. */
export const PENDING_SESSION_MS = 15 * 60_000;
/** A factor's name: what its owner calls it ("Phone", "YubiKey 5"). */
export const FACTOR_NAME_MAX = 64;
/** More than any real answer of an authenticator (a passkey's JSON is a few kilobytes at most). */
export const PASSKEY_RESPONSE_MAX = 16 * 1024;

// No 0/O, 1/l/i: read off paper without ambiguity.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new recovery codes, `xxxxx-xxxxx` (about 49 bits each). */
export function newRecoveryCodes(): string[] {
  const codes: string[] = [];
  for (let i = 0; i < RECOVERY_CODE_COUNT; i++) {
    let code = '';
    for (let j = 0; j < 10; j++) code += ALPHABET[randomInt(ALPHABET.length)];
    codes.push(`${code.slice(0, 5)}-${code.slice(5)}`);
  }
  return codes;
}

/** A typed recovery code as stored (lower case, no spaces or dashes), or null when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  if (typed.length > 64) return null;
  const code = typed.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{10}$/.test(code) ? code : null;
}

/** A typed TOTP code (spaces allowed, as apps show "123 456"), or null when it is not six digits. */
export function normalizeTotpCode(typed: string): string | null {
  if (typed.length > 32) return null;
  const code = typed.replace(/\s/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/** A factor's name, trimmed; null when empty or too long. */
export function factorName(typed: unknown, fallback: string): string | null {
  if (typed === undefined || typed === null) return fallback;
  if (typeof typed !== 'string') return null;
  const name = typed.trim();
  if (name === '') return fallback;
  return name.length > FACTOR_NAME_MAX ? null : name;
}
