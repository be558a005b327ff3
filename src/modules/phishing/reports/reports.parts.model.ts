import { FieldErrorCollector } from '../../../core/errors.js';
import { REPORTED_MESSAGE_MAX_BYTES } from './reports.model.js';

/**
 * A reported message as a report button sends it in JSON: the whole message (`eml`, base64; what
 * Office.js `getAsFileAsync` gives), or its parts (the internet headers, the HTML and text bodies,
 * the attachments' names; what older Outlook clients can read). Parts are put together into one
 * MIME message here, by concatenation only: the reading threads parse it like any other.
 */

export const INTERNET_HEADERS_MAX = 256 * 1024;
export const LISTED_ATTACHMENTS_MAX = 100;

export interface ListedAttachment {
  name: string;
  content_type: string;
  size: number;
}

export interface ReportParts {
  reporter: string;
  eml?: string | undefined;
  internet_headers?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  attachments?: ListedAttachment[] | undefined;
}

/** The message of a JSON report, and the attachments it only listed; a bad body is a 400. */
export function messageOfParts(parts: ReportParts): { raw: Buffer; listed: ListedAttachment[] } {
  const errors = new FieldErrorCollector();
  if (parts.eml !== undefined) {
    if (parts.internet_headers !== undefined || parts.html !== undefined || parts.text !== undefined) {
      errors.add('eml', 'send either `eml` or the parts (`internet_headers`, `html`, `text`), not both');
    } else if (!/^[A-Za-z0-9+/=\r\n]*$/.test(parts.eml)) {
      errors.add('eml', 'must be base64');
    }
    errors.throwIfAny();
    const raw = Buffer.from(parts.eml, 'base64');
    if (raw.length === 0) errors.add('eml', 'is empty');
    errors.throwIfAny();
    return { raw, listed: [] };
  }
  if (parts.internet_headers === undefined) errors.add('internet_headers', 'is required without `eml`');
  if (parts.html === undefined && parts.text === undefined)
    errors.add('html', 'give `html` or `text` (or both)');
  errors.throwIfAny();
  const header = withoutBodyHeaders(parts.internet_headers as string);
  const boundary = `vigil-report-${Date.now().toString(36)}`;
  const section = (type: string, body: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(body)}\r\n`;
  const raw = Buffer.from(
    `${header}MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n` +
      (parts.text !== undefined ? section('text/plain', parts.text) : '') +
      (parts.html !== undefined ? section('text/html', parts.html) : '') +
      `--${boundary}--\r\n`,
  );
  if (raw.length > REPORTED_MESSAGE_MAX_BYTES * 1.4) errors.add('html', 'the message is too large');
  errors.throwIfAny();
  return { raw, listed: parts.attachments ?? [] };
}

/**
 * The header block without the fields that describe the original body (it is replaced by the
 * parts sent), folded lines kept with their field, ending in CRLF.
 */
function withoutBodyHeaders(block: string): string {
  const out: string[] = [];
  let dropping = false;
  for (const line of block.split(/\r?\n/)) {
    if (line === '') continue;
    if (line[0] === ' ' || line[0] === '\t') {
      if (!dropping && out.length > 0) out.push(line);
      continue;
    }
    const name = line
      .slice(0, Math.max(0, line.indexOf(':')))
      .trim()
      .toLowerCase();
    dropping =
      name === '' ||
      name === 'content-type' ||
      name === 'content-transfer-encoding' ||
      name === 'mime-version';
    if (!dropping) out.push(line);
  }
  return out.map((line) => `${line}\r\n`).join('');
}

function base64Lines(text: string): string {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += 76) lines.push(encoded.slice(at, at + 76));
  return lines.join('\r\n');
}
