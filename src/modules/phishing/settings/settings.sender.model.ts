import type { FieldErrorCollector } from '../../../core/errors.js';

/**
 * A simulation's sender: the display name, the address's local part (before the @) and its
 * domain. Each is chosen per campaign, else the account's default (Phishing settings), else the
 * template's own name and local part and the host of PHISH_URL. The three go into the From
 * header, so each is checked to be exactly one thing: a name of one line, a dot-atom local part,
 * a DNS host name. A domain that is an IP address, `localhost` or a single label is no place a
 * real sender lives (receiving servers refuse it, and it tells every employee it is a test):
 * refused unless the operator allows it (PHISHING_ALLOW_LOCAL_SENDER). Pure.
 */

/** The setting that allows a local sender domain, named in every refusal. */
export const LOCAL_SENDER_SETTING = 'PHISHING_ALLOW_LOCAL_SENDER';
export const MAX_SENDER_NAME = 100;
export const MAX_SENDER_ADDRESS = 64;
export const MAX_SENDER_DOMAIN = 253;

/** Where the server may send from: whether local domains are allowed, and the domain when none is chosen. */
export interface SenderPolicy {
  allowLocal: boolean;
  /** The host of PHISH_URL (else PUBLIC_URL, else the listening address). */
  defaultDomain: string;
}

/** A sender's three parts as chosen somewhere (null: not chosen there). */
export interface SenderChoice {
  sender_name: string | null;
  sender_address: string | null;
  sender_domain: string | null;
}

// Control characters (CR and LF above all), and the Unicode line and paragraph separators.
const BREAKS = /[\p{Cc}\u2028\u2029\u0085]/u;
// RFC 5322 dot-atom: what a local part is without quoting.
const DOT_ATOM = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
// A DNS host name: labels of letters, digits and hyphens, not starting or ending with a hyphen.
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * What is wrong with a domain as a sender's (null: nothing). `allowLocal` lets through IP
 * addresses, `localhost` and single-label names; nothing lets through what is not a host name.
 */
export function senderDomainProblem(domain: string, allowLocal: boolean): string | null {
  if (domain.length === 0 || domain.length > MAX_SENDER_DOMAIN) {
    return `must be a domain name of at most ${MAX_SENDER_DOMAIN} characters, e.g. mail.example.com`;
  }
  const labels = domain.split('.');
  if (!labels.every((l) => LABEL.test(l))) {
    return 'must be a domain name (letters, digits, hyphens and dots), e.g. mail.example.com';
  }
  if (allowLocal) return null;
  const last = labels[labels.length - 1] as string;
  // A last label of digits (or hex 0x…) is an IPv4 address in one of its spellings.
  const ipLiteral = /^[0-9]+$/.test(last) || /^0x[0-9a-f]*$/.test(last);
  const local = last === 'localhost' || labels.length === 1;
  if (ipLiteral || local) {
    return `must be a public domain name, not ${ipLiteral ? 'an IP address' : 'localhost or a name without a dot'} (the operator allows it with ${LOCAL_SENDER_SETTING}=on, then restarts Vigil)`;
  }
  return null;
}

/** Whether a host (of a URL) is this machine: links to it reach nobody else. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * What every sender field starts with: absent stays absent (undefined), null or '' clears it
 * (null), anything but a text is refused (undefined, with the error); else the trimmed text.
 */
function clearableText(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
): { text: string } | { done: null | undefined } {
  if (value === undefined) return { done: undefined };
  if (value === null) return { done: null };
  if (typeof value !== 'string') {
    errors.add(field, 'must be a text');
    return { done: undefined };
  }
  const text = value.trim();
  return text === '' ? { done: null } : { text };
}

/** A sender name: one line of plain text (null or '' clears it). */
export function checkSenderName(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
): string | null | undefined {
  const given = clearableText(errors, field, value);
  if ('done' in given) return given.done;
  const name = given.text;
  if (BREAKS.test(name)) errors.add(field, 'must be one line without control characters');
  else if (name.length > MAX_SENDER_NAME) errors.add(field, `must be at most ${MAX_SENDER_NAME} characters`);
  else if (name.includes('{{') || name.includes('}}')) {
    errors.add(field, 'is plain text: template variables are not filled in here');
  } else return name;
  return undefined;
}

/** A sender address's local part, the part before the @ (null or '' clears it). */
export function checkSenderAddress(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
): string | null | undefined {
  const given = clearableText(errors, field, value);
  if ('done' in given) return given.done;
  const local = given.text;
  if (local.includes('@')) {
    errors.add(field, 'is the part before the @ only (e.g. payroll); the domain is the sender domain');
  } else if (local.length > MAX_SENDER_ADDRESS || !DOT_ATOM.test(local)) {
    errors.add(
      field,
      `must be the part before the @ of an address, at most ${MAX_SENDER_ADDRESS} letters, digits and . _ - + (e.g. payroll-notifications)`,
    );
  } else return local;
  return undefined;
}

/** A sender domain (null or '' clears it), lower case, without a trailing dot. */
export function checkSenderDomain(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
  allowLocal: boolean,
): string | null | undefined {
  const given = clearableText(errors, field, value);
  if ('done' in given) return given.done;
  const domain = given.text.toLowerCase().replace(/\.$/, '');
  const problem = senderDomainProblem(domain, allowLocal);
  if (problem) {
    errors.add(field, problem);
    return undefined;
  }
  return domain;
}

/** The sender a simulation goes out with: the campaign's choice, else the account's, else the template's and PHISH_URL's. */
export function effectiveSender(
  campaign: SenderChoice,
  account: SenderChoice,
  template: { sender_name: string | null; sender_address: string | null },
  defaultDomain: string,
): { name: string | null; address: string | null; domain: string } {
  return {
    name: campaign.sender_name ?? account.sender_name ?? template.sender_name,
    address: campaign.sender_address ?? account.sender_address ?? template.sender_address,
    domain: campaign.sender_domain ?? account.sender_domain ?? defaultDomain,
  };
}

/** The longest simulation header name taken. */
export const MAX_SIMULATION_HEADER = 64;
const SIMULATION_HEADER_PATTERN = /^X-[A-Za-z0-9][A-Za-z0-9-]{0,61}$/;

/**
 * The account's simulation header name: `X-` then letters, digits and `-` (a header field name
 * every mail system passes on), at most MAX_SIMULATION_HEADER characters. Null or '' is the
 * default; undefined is no change.
 */
export function checkSimulationHeader(
  errors: FieldErrorCollector,
  field: string,
  value: unknown,
): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (typeof value !== 'string') {
    errors.add(field, 'must be a string or null');
    return undefined;
  }
  const name = value.trim();
  if (!SIMULATION_HEADER_PATTERN.test(name)) {
    errors.add(
      field,
      `must be "X-" then letters, digits or "-", at most ${MAX_SIMULATION_HEADER} characters`,
    );
    return undefined;
  }
  return name;
}
