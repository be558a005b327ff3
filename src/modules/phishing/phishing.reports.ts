import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Attachment, type ParsedMail, simpleParser } from 'mailparser';
import { FieldErrorCollector } from '../../errors.js';
import { type PhishBase, phishBases, TOKEN_CHARACTERS, tokensInBody } from './phishing.reports.links.js';
import { RankedTokens, type TokenSource } from './phishing.reports.tokens.js';

export type { TokenSource };

/**
 * Finding the simulation a reported email belongs to: the recipient token in the
 * `X-Vigil-Simulation` header of the message or of a message attached to it (report buttons
 * and "forward as attachment" send the original that way), else in its links to the phish URLs,
 * rewritten by mail security products or not. Parsing only: which account's simulation a token
 * is, the caller looks up. Nothing of the message is logged, returned or kept but the tokens.
 * The server runs tokensFromReportedMessage in a worker thread (phishing.reports.reader.ts),
 * which ends it if it outlives its deadline; its own deadline below stops a parse that yields.
 */

/** A recipient token: 24 random bytes in base64url, 32 characters. */
export const TOKEN_PATTERN = new RegExp(`^${TOKEN_CHARACTERS}$`);

export function isSimulationToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}

/** The largest reported message read (a simulation with its attachments is far smaller). */
export const REPORTED_MESSAGE_MAX_BYTES = 10 * 1024 * 1024;
/** How deep attached messages are opened: the report, the forward, the original, and a little more. */
export const ATTACHED_MESSAGE_MAX_DEPTH = 5;
/** How many attached messages are opened in all. */
export const ATTACHED_MESSAGES_MAX = 20;
/** The most MIME parts one message may have (mailparser refuses more). */
export const MIME_PARTS_MAX = 500;
/** The time one reported message may take to read, attachments included. */
export const REPORTED_MESSAGE_TIME_LIMIT_MS = 5_000;

export type ReportedMessageErrorReason =
  | 'too_large'
  | 'outlook_msg'
  | 'unreadable'
  | 'too_slow'
  | 'too_much_memory'
  | 'busy';

const ERROR_TEXT: Record<ReportedMessageErrorReason, string> = {
  too_large: `The reported message is larger than ${REPORTED_MESSAGE_MAX_BYTES / 1024 / 1024} MiB`,
  outlook_msg: 'An Outlook .msg file cannot be read; send the message itself (message/rfc822, an .eml file)',
  unreadable: 'The reported message could not be read as an email',
  too_slow: 'The reported message took too long to read',
  too_much_memory: 'The reported message needs more memory to read than is allowed',
  busy: 'Too many reported messages are being read; retry in a few seconds',
};

/**
 * A reported message that is refused as a whole; `status` is the HTTP status it answers (503
 * when the refusal is the server's: every reader busy; the message itself may be fine).
 */
export class ReportedMessageError extends Error {
  readonly status: 400 | 413 | 503;
  constructor(readonly reason: ReportedMessageErrorReason) {
    super(ERROR_TEXT[reason]);
    this.name = 'ReportedMessageError';
    this.status = reason === 'too_large' ? 413 : reason === 'busy' ? 503 : 400;
  }
}

/** Why an attached message was not read (the rest of the report still was). */
export type SkippedReason = 'outlook_msg' | 'too_deep' | 'too_many' | 'unreadable' | 'too_slow';

export interface ReportedMessageTokens {
  /**
   * Distinct tokens, the most telling first: headers, then landing links, then tracking images;
   * at most REPORT_TOKENS_MAX (phishing.reports.tokens.ts).
   */
  tokens: string[];
  /** Where each token was found (the most telling place when it was found in several). */
  sources: Record<string, TokenSource>;
  /** The attached messages that were not read, and why. */
  skipped: SkippedReason[];
}

export interface ReportedMessageOptions {
  /** The phish URLs links may point at (PHISH_URL, PUBLIC_URL, any earlier one still in use). */
  phishUrls: string[];
  /** Instead of REPORTED_MESSAGE_TIME_LIMIT_MS. */
  timeLimitMs?: number;
}

/** Reads `{ "token": "…" }`, the JSON form of a report. */
export function tokenFromReportBody(body: unknown): string {
  const errors = new FieldErrorCollector();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    errors.add('body', 'must be an object');
    errors.throwIfAny();
  }
  const value = (body as Record<string, unknown>).token;
  const token = typeof value === 'string' ? value.trim() : '';
  if (value === undefined || value === null || (typeof value === 'string' && token === '')) {
    errors.add('token', 'is required');
  } else if (typeof value !== 'string') errors.add('token', 'must be a string');
  else if (!TOKEN_PATTERN.test(token)) {
    errors.add('token', 'must be a simulation token: 32 letters, digits, "-" or "_"');
  }
  errors.throwIfAny();
  return token;
}

/**
 * The simulation tokens a reported message carries. Whatever the bytes, it throws nothing but
 * ReportedMessageError (a phish URL that is no http(s) URL is a TypeError: configuration, not input).
 */
export async function tokensFromReportedMessage(
  raw: Buffer,
  options: ReportedMessageOptions,
): Promise<ReportedMessageTokens> {
  const bases = phishBases(options.phishUrls);
  if (raw.length > REPORTED_MESSAGE_MAX_BYTES) throw new ReportedMessageError('too_large');
  if (isCompoundFile(raw)) throw new ReportedMessageError('outlook_msg');
  const deadline = Date.now() + (options.timeLimitMs ?? REPORTED_MESSAGE_TIME_LIMIT_MS);
  let outer: ParsedMail;
  try {
    outer = await parseWithin(raw, deadline);
  } catch (err) {
    throw new ReportedMessageError(err instanceof TimeUp ? 'too_slow' : 'unreadable');
  }
  const found = new RankedTokens();
  const skipped: SkippedReason[] = [];
  // Breadth first: the outer message's findings come before those of what it carries.
  const queue: Array<{ mail: ParsedMail; depth: number }> = [{ mail: outer, depth: 0 }];
  let opened = 0;
  for (let i = 0; i < queue.length && !found.complete; i++) {
    const { mail, depth } = queue[i]!;
    for (const token of headerTokens(mail)) found.add(token, 'header');
    if (found.complete) break;
    for (const hit of bodyTokens(mail, bases)) found.add(hit.token, hit.source);
    for (const attachment of mail.attachments) {
      const kind = kindOf(attachment);
      if (kind === 'outlook_msg') skipped.push('outlook_msg');
      if (kind !== 'message') continue;
      if (depth + 1 > ATTACHED_MESSAGE_MAX_DEPTH) skipped.push('too_deep');
      else if (opened >= ATTACHED_MESSAGES_MAX) skipped.push('too_many');
      else {
        opened++;
        try {
          queue.push({ mail: await parseWithin(attachment.content, deadline), depth: depth + 1 });
        } catch (err) {
          skipped.push(err instanceof TimeUp ? 'too_slow' : 'unreadable');
        }
      }
    }
  }
  return { ...found.list(), skipped };
}

function headerTokens(mail: ParsedMail): string[] {
  const tokens: string[] = [];
  for (const { key, line } of mail.headerLines ?? []) {
    if (key !== 'x-vigil-simulation') continue;
    // Unfolding is linear: each match starts at a line break and consumes its blanks.
    const value = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    if (TOKEN_PATTERN.test(value)) tokens.push(value);
  }
  return tokens;
}

function bodyTokens(
  mail: ParsedMail,
  bases: PhishBase[],
): Array<{ token: string; source: 'link' | 'image' }> {
  const hits = [];
  if (typeof mail.html === 'string') hits.push(...tokensInBody(mail.html, 'html', bases));
  if (typeof mail.text === 'string') hits.push(...tokensInBody(mail.text, 'text', bases));
  // Some report tools attach the original's body as a file of its own.
  for (const attachment of mail.attachments) {
    const type = attachment.contentType.toLowerCase();
    if (type === 'text/html' || type === 'text/plain') {
      hits.push(
        ...tokensInBody(attachment.content.toString('utf8'), type === 'text/html' ? 'html' : 'text', bases),
      );
    }
  }
  return hits;
}

// A message in MIME form, or only its header (what bounce and abuse reports carry).
const MESSAGE_TYPES = new Set([
  'message/rfc822',
  'message/global',
  'text/rfc822-headers',
  'message/rfc822-headers',
  'message/global-headers',
]);

/**
 * What an attachment is to us. Outlook's "Save as" and some report buttons attach the original
 * as an Outlook item (.msg, a binary Compound File) that only Outlook's libraries read: it is
 * recognised and skipped, as is every other file.
 */
function kindOf(attachment: Attachment): 'message' | 'outlook_msg' | 'other' {
  const type = attachment.contentType.toLowerCase();
  const name = (attachment.filename ?? '').toLowerCase();
  if (type === 'application/vnd.ms-outlook' || name.endsWith('.msg')) return 'outlook_msg';
  if (!MESSAGE_TYPES.has(type) && !name.endsWith('.eml')) return 'other';
  return isCompoundFile(attachment.content) ? 'outlook_msg' : 'message';
}

// The signature of a Compound File Binary (.msg, also old .doc and .xls).
const COMPOUND_FILE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

function isCompoundFile(content: Buffer): boolean {
  return content.subarray(0, COMPOUND_FILE_SIGNATURE.length).equals(COMPOUND_FILE_SIGNATURE);
}

class TimeUp extends Error {}

const PARSER_OPTIONS = {
  // Every attached message stays an attachment, so its own header is read (parsed inline,
  // mailparser would merge its text into ours and drop its header).
  ignoreEmbedded: true,
  // Only headers and links are wanted: no HTML-to-text conversion (the slow part on huge
  // HTML), no text-to-HTML, no images inlined as data: URLs, no checksums.
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  keepCidLinks: true,
  checksumAlgo: false,
  maxChildNodes: MIME_PARTS_MAX,
} as const;

const CHUNK_BYTES = 64 * 1024;

/** Parses in chunks, each in a turn of its own, so that the deadline can stop a slow parse. */
async function parseWithin(content: Buffer, deadline: number): Promise<ParsedMail> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new TimeUp();
  const source = Readable.from(chunksOf(content));
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      source.destroy(new TimeUp());
      reject(new TimeUp());
    }, remaining);
  });
  const parsing = simpleParser(source, PARSER_OPTIONS);
  parsing.catch(() => {}); // settled by the race below; a late rejection is no crash
  try {
    return await Promise.race([parsing, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}

async function* chunksOf(content: Buffer): AsyncGenerator<Buffer> {
  for (let start = 0; start < content.length; start += CHUNK_BYTES) {
    yield content.subarray(start, start + CHUNK_BYTES);
    await nextTurn();
  }
}
