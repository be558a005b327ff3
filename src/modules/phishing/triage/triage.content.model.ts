/**
 * The safe view of a real report: what an administrator may look at without opening anything of
 * the message. Headers as text, the text, the HTML as a string (shown only in a sandboxed frame
 * with no network), the URLs it links to with their hosts (never fetched), its attachments by
 * name, type, size and SHA-256 (never opened). Every part is bounded (reports.content.model.ts
 * cuts them), so a report of any size keeps a view of a few hundred KiB at most; what was cut is
 * said.
 */

export const CONTENT_HEADERS_MAX = 200;
export const CONTENT_HEADER_VALUE_MAX = 2_000;
export const CONTENT_TEXT_MAX = 100_000;
export const CONTENT_HTML_MAX = 512 * 1024;
export const CONTENT_URLS_MAX = 200;
export const CONTENT_URL_LENGTH_MAX = 2_048;
export const CONTENT_ATTACHMENTS_MAX = 100;
export const SUBJECT_MAX = 998;
export const ADDRESS_MAX = 320;

export interface ReportAttachment {
  name: string;
  content_type: string;
  size: number;
  /** Hex; '' when the bytes were not there to hash (an add-in's list of names). */
  sha256: string;
}

export interface ReportUrl {
  url: string;
  host: string;
}

export interface ReportContent {
  from: { address: string; name: string };
  to: string[];
  subject: string;
  /** The message's Date header, epoch ms; null when it had none that parses. */
  date: number | null;
  message_id: string;
  headers: Array<{ name: string; value: string }>;
  text: string;
  html: string | null;
  urls: ReportUrl[];
  attachments: ReportAttachment[];
  /** The parts that were cut to their limit. */
  truncated: Array<'headers' | 'text' | 'html' | 'urls' | 'attachments'>;
}

/** A URL that no click, copy-paste or chat preview turns into a live link: `hxxps://evil[.]example/…`. */
export function defang(url: string): string {
  return url.replace(/^http/i, (scheme) => (scheme[0] === 'H' ? 'HXXP' : 'hxxp')).replace(/\./g, '[.]');
}

/** The domain of an address (`a@b.example` → `b.example`), lower-cased; '' when none. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1).toLowerCase();
}
