import { createHash } from 'node:crypto';
import { linkTo } from '../../../core/http/links.js';

/** Where the add-in's files are served, under PUBLIC_URL. */
export const ADDIN_PREFIX = '/addins/outlook';

/** The icon sizes served (`icon-<size>.png`): ribbon 16/32/80, store 64/128, unified manifest 192. */
export const ICON_SIZES = [16, 32, 64, 80, 128, 192] as const;
export type IconSize = (typeof ICON_SIZES)[number];

/** What Outlook shows: the add-in's name, the button and its tooltip. */
export const REPORT_BUTTON = {
  name: 'Report phishing',
  label: 'Report phishing',
  tooltip: 'Send this message to your security team as suspected phishing.',
  description: 'Report suspicious email to your security team with one click.',
  longDescription:
    'Adds a "Report phishing" button to messages you read. It sends the message to Vigil: a phishing simulation is credited to you at once, anything else goes to your security team.',
} as const;

/** The add-in's addresses for one report key, under PUBLIC_URL (`base`). */
export function addinPaths(base: string, key: string) {
  const at = (path: string) => linkTo(base, `${ADDIN_PREFIX}${path}`);
  return {
    taskpane: `${at('/taskpane.html')}?key=${encodeURIComponent(key)}`,
    icon: (size: IconSize) => at(`/icon-${size}.png`),
  };
}

/** The namespace of Vigil's add-in ids (a fixed, random UUID: RFC 9562's name-based ids hang on it). */
const ADDIN_NAMESPACE = 'f0b0b6b6-5e0c-4a7e-9f43-2a1c7d3e9b51';

/** RFC 9562 UUIDv5: SHA-1 of the namespace's bytes and the name, version and variant set. */
export function uuidV5(name: string, namespace: string = ADDIN_NAMESPACE): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The add-in's id for an account of the server at `base`: the same every time (nothing stored),
 * so deploying a newer manifest updates the add-in instead of adding a second one. Two Vigil
 * servers (PUBLIC_URLs) give an account number different ids.
 */
export function addinIdOf(base: string, accountId: number): string {
  return uuidV5(`${base.replace(/\/+$/, '')}#account=${accountId}`);
}
