import { randomBytes } from 'node:crypto';
import { linkTo } from '../../../core/http/links.js';

/**
 * A simulation's addresses on PHISH_URL (docs/phishing-plan.md, "Addresses and tokens"). The
 * token is the recipient's: 24 random bytes as 32 base64url characters (192 bits), stored in
 * its row under a unique index.
 */

export const SIMULATION_TOKEN_BYTES = 24;

/** The characters of a recipient token: 24 random bytes in base64url (TOKEN_PATTERN). */
export const TOKEN_CHARACTERS = '[A-Za-z0-9_-]{32}';

/** A recipient token: 24 random bytes in base64url, 32 characters. */
export const TOKEN_PATTERN = new RegExp(`^${TOKEN_CHARACTERS}$`);

export function isSimulationToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}

export function newSimulationToken(): string {
  return randomBytes(SIMULATION_TOKEN_BYTES).toString('base64url');
}

/** The personal link of the email: the click, then the landing page. */
export function simulationLink(phishBase: string, token: string): string {
  return linkTo(phishBase, `/v/${token}`);
}

/** The open-tracking image. */
export function trackingImageUrl(phishBase: string, token: string): string {
  return linkTo(phishBase, `/t/${token}.png`);
}

/** Where the landing page's form posts (the field names are recorded, never the values). */
export function submitPath(token: string): string {
  return `/v/${token}`;
}

/** Where a button press on the landing page is recorded (the interaction that makes a click human). */
export function interactionPath(token: string): string {
  return `/v/${token}/i`;
}

/** The teachable page. */
export function teachablePath(token: string): string {
  return `/v/${token}/learn`;
}

/** The header every simulation carries, so gateways and report buttons recognise it. */
export const SIMULATION_HEADER = 'X-Vigil-Simulation';
