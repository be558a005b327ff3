import addressparser from 'nodemailer/lib/addressparser';

/**
 * Who reported a message that reached the reporting address: the address of the outer message's
 * From header. Forwarding rewrites the envelope sender (SRS, a mailbox rule's own address), never
 * From. Only the header block is read, on the server's thread: it is bounded (HEADER_BYTES_MAX,
 * FROM_BYTES_MAX) and read once, line by line; the message itself is parsed by the intake's
 * reader threads.
 */

/** The header block a reported message may have (a real one is a few KiB). */
export const HEADER_BYTES_MAX = 64 * 1024;
/** The From header's value, unfolded (one address and a display name fit in a few hundred bytes). */
const FROM_BYTES_MAX = 8 * 1024;
/** The longest address that can be one (RFC 5321: 64 + 1 + 255). */
const ADDRESS_MAX = 320;

export type Reporter =
  | { kind: 'found'; address: string }
  | { kind: 'no_from' }
  | { kind: 'header_too_large' };

/** Where the header block ends (the blank line), within HEADER_BYTES_MAX; -1 when not found there. */
function endOfHeader(raw: Buffer): number {
  const head = raw.subarray(0, HEADER_BYTES_MAX + 4);
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const ends = [crlf, lf].filter((at) => at >= 0);
  return ends.length === 0 ? -1 : Math.min(...ends);
}

/** The first From header's value, unfolded, or null (none, or longer than FROM_BYTES_MAX). */
function fromValue(block: string): string | null {
  let value: string | null = null;
  for (const line of block.split('\n')) {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (value !== null) {
      // A folded line continues the header; any other ends it.
      if (text.startsWith(' ') || text.startsWith('\t')) {
        value += text;
        if (value.length > FROM_BYTES_MAX) return null;
        continue;
      }
      return value;
    }
    const colon = text.indexOf(':');
    if (colon > 0 && text.slice(0, colon).trim().toLowerCase() === 'from') {
      value = text.slice(colon + 1);
      if (value.length > FROM_BYTES_MAX) return null;
    }
  }
  return value;
}

function firstAddress(value: string): string | null {
  for (const entry of addressparser(value, { flatten: true })) {
    const address = (entry.address ?? '').trim();
    const at = address.lastIndexOf('@');
    if (at > 0 && at < address.length - 1 && address.length <= ADDRESS_MAX && !/\s/.test(address)) {
      return address;
    }
  }
  return null;
}

/** The reporter of a message that reached the reporting address: its From header's address. */
export function reporterOf(raw: Buffer): Reporter {
  let end = endOfHeader(raw);
  if (end < 0) {
    // A message of headers alone is whole when it is short; a longer one has a header too large.
    if (raw.length > HEADER_BYTES_MAX) return { kind: 'header_too_large' };
    end = raw.length;
  }
  if (end > HEADER_BYTES_MAX) return { kind: 'header_too_large' };
  const value = fromValue(raw.subarray(0, end).toString('utf8'));
  const address = value === null ? null : firstAddress(value);
  return address === null ? { kind: 'no_from' } : { kind: 'found', address };
}
