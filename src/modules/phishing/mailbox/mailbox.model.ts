import { randomBytes } from 'node:crypto';

/**
 * The reporting address, without a database: `report+<reporting id>@REPORT_DOMAIN`. The id is a
 * random name of an account (not a secret, never an API key: knowing it lets one report, and
 * every report is checked against the account's employees), lower-case base32 so that mail
 * systems which change the case of an address still reach the same account.
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const REPORTING_ID_LENGTH = 10;
const REPORTING_ID = /^[a-z2-7]{10}$/;
const LOCAL_PART = /^report\+([a-z2-7]{10})$/;

/** A new reporting id: 10 base32 characters, 50 random bits. */
export function newReportingId(): string {
  // 256 is a multiple of 32: each byte's low five bits are uniform.
  return [...randomBytes(REPORTING_ID_LENGTH)].map((byte) => ALPHABET[byte & 31]).join('');
}

export function isReportingId(value: string): boolean {
  return REPORTING_ID.test(value);
}

export function reportingAddress(reportingId: string, domain: string): string {
  return `report+${reportingId}@${domain}`;
}

/**
 * The reporting id a recipient (RCPT TO) names, or null when it is no reporting address of
 * `domain`: the listener relays nothing. Case-insensitive, as mail systems may change case.
 */
export function reportingIdOfRecipient(recipient: string, domain: string): string | null {
  if (recipient.length > 320) return null;
  const address = recipient.toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).replace(/\.$/, '') !== domain) return null;
  return LOCAL_PART.exec(address.slice(0, at))?.[1] ?? null;
}
