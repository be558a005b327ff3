import { createHmac, timingSafeEqual } from 'node:crypto';
import { getOrCreateSecret } from '../../../core/auth/secrets.repository.js';
import type { Db } from '../../../core/db/database.js';
import { linkTo } from '../../../core/http/links.js';

/**
 * Personal learner links: `<enrollment id>.<expiry, base-36 seconds>.<HMAC-SHA256>`, signed with
 * a server secret kept in the database. Nothing per link is stored, so a message retried after a
 * crash carries a link that works just like the first, and every instance can check any link.
 * Unguessable: forging one means forging a 256-bit HMAC.
 */

const SECRET_NAME = 'learner-links';
let cached: { db: Db; secret: string } | undefined;

/** The signing secret, generated on first use (one per database, cached per process). */
export async function learnerLinkSecret(db: Db): Promise<string> {
  if (cached?.db !== db) cached = { db, secret: await getOrCreateSecret(db, SECRET_NAME) };
  return cached.secret;
}

function signature(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`learner:${payload}`).digest();
}

/** A token for the learner page of one enrollment, valid until `expiresAt` (epoch ms). */
export function signLearnerToken(secret: string, enrollmentId: number, expiresAt: number): string {
  const payload = `${enrollmentId}.${Math.ceil(expiresAt / 1000).toString(36)}`;
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

export type LearnerToken =
  | { valid: true; enrollmentId: number; expiresAt: number; expired: boolean }
  | { valid: false };

/**
 * Reads a token. A correctly signed but expired token is reported as such (so the page can offer
 * a fresh link by email); anything else, altered or made up, is simply not valid.
 */
export function readLearnerToken(secret: string, token: string, now = Date.now()): LearnerToken {
  const match = /^([1-9]\d{0,15})\.([0-9a-z]{1,12})\.([\w-]{43})$/.exec(token);
  if (!match) return { valid: false };
  const [, id, exp, sig] = match as unknown as [string, string, string, string];
  const expected = signature(secret, `${id}.${exp}`);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false };
  const expiresAt = Number.parseInt(exp, 36) * 1000;
  return { valid: true, enrollmentId: Number(id), expiresAt, expired: expiresAt <= now };
}

/** The learner page's address for a token (under PUBLIC_URL or the listening address, never a Host). */
export function learnerUrl(baseUrl: string, token: string): string {
  return linkTo(baseUrl, `/learn/${token}`);
}
