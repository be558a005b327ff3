/**
 * A message forwarded inline: Gmail's "---------- Forwarded message ---------", Apple Mail's and
 * iOS's "Begin forwarded message:", Outlook's "-----Original Message-----" or its rule of
 * underscores, Thunderbird's and Android's "-------- Forwarded Message --------". After the marker
 * come a few `Name: value` lines (From, Date or Sent, Subject, To; in English, French, German or
 * Spanish), a blank line, and the forwarded text. Reading it is one pass over at most the first
 * FORWARD_SCAN_CHARS characters for the marker, then a few lines.
 */

export interface InlineForward {
  from: { address: string; name: string };
  subject: string;
  /** The forwarded message's text, after its header block. */
  text: string;
}

const FORWARD_SCAN_CHARS = 64 * 1024;
const HEADER_LINES_MAX = 12;

const MARKERS = [
  /^-{2,}\s*forwarded message\s*-{2,}\s*$/i,
  /^begin forwarded message:\s*$/i,
  /^-{2,}\s*original message\s*-{2,}\s*$/i,
  /^_{10,}\s*$/,
  /^-{2,}\s*(?:message transféré|weitergeleitete nachricht|mensaje reenviado|ursprüngliche nachricht)\s*-{2,}\s*$/i,
];

const FIELD_NAMES: Record<string, 'from' | 'subject' | 'other'> = {
  from: 'from',
  de: 'from',
  von: 'from',
  subject: 'subject',
  objet: 'subject',
  betreff: 'subject',
  asunto: 'subject',
};

/** The inline-forwarded message in a text, or null when the text forwards none. */
export function inlineForwardOf(text: string): InlineForward | null {
  const head = text.length > FORWARD_SCAN_CHARS ? text.slice(0, FORWARD_SCAN_CHARS) : text;
  const lines = head.split(/\r?\n/);
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = quoteless(lines[i] as string);
    const lineStart = offset;
    offset += (lines[i] as string).length + 1;
    if (!MARKERS.some((marker) => marker.test(line))) continue;
    const found = headerBlock(lines, i + 1);
    if (!found.from && !found.subject) continue;
    const bodyStart = lineStart + (lines[i] as string).length + 1 + found.consumed;
    return {
      from: parseAddress(found.from ?? ''),
      subject: found.subject ?? '',
      text: text.slice(Math.min(bodyStart, text.length)).trim(),
    };
  }
  return null;
}

/** The `Name: value` lines after a marker (a blank line before them is allowed) and the characters they took. */
function headerBlock(lines: string[], first: number): { from?: string; subject?: string; consumed: number } {
  const found: { from?: string; subject?: string; consumed: number } = { consumed: 0 };
  let seen = 0;
  for (let i = first; i < lines.length && i < first + HEADER_LINES_MAX + 1; i++) {
    const raw = lines[i] as string;
    const line = quoteless(raw).replace(/\*/g, '');
    if (line.trim() === '') {
      found.consumed += raw.length + 1;
      if (seen > 0) break;
      continue;
    }
    const field = /^([A-Za-zé]{2,10}):\s*(.*)$/.exec(line.trim());
    if (!field) break;
    found.consumed += raw.length + 1;
    seen++;
    const kind = FIELD_NAMES[(field[1] as string).toLowerCase()] ?? 'other';
    if (kind === 'from' && found.from === undefined) found.from = (field[2] as string).trim();
    if (kind === 'subject' && found.subject === undefined) found.subject = (field[2] as string).trim();
  }
  return found;
}

/** A line without the `>` quoting some clients add. */
function quoteless(line: string): string {
  let at = 0;
  while (at < line.length && (line[at] === '>' || line[at] === ' ')) at++;
  return line.slice(at);
}

/** `Name <a@b>`, `"Name" <a@b>`, `a@b`, or Gmail's `Name <a@b>` with a mailto in brackets. */
export function parseAddress(whole: string): { address: string; name: string } {
  // A From line is short; past this it is no address line, and each pattern below stays cheap.
  const value = whole.slice(0, 500);
  const bracket = /<([^<>\s]+@[^<>\s]+)>/.exec(value);
  if (bracket) {
    const name = unquoted(value.slice(0, bracket.index));
    return { address: (bracket[1] as string).replace(/^mailto:/i, '').toLowerCase(), name };
  }
  const bare = /[^\s<>()"',;:[\]]+@[^\s<>()"',;:[\]]+/.exec(value);
  return { address: bare ? bare[0].toLowerCase() : '', name: bare ? '' : value.trim() };
}

function unquoted(value: string): string {
  let start = 0;
  let end = value.length;
  const blank = (c: string | undefined) => c === '"' || c === "'" || (c !== undefined && c.trim() === '');
  while (start < end && blank(value[start])) start++;
  while (end > start && blank(value[end - 1])) end--;
  return value.slice(start, end);
}
