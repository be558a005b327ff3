import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Attachment, type ParsedMail, simpleParser } from 'mailparser';
import { type PhishBase, phishBases, tokensInBody } from './reports.links.model.js';
import {
  ATTACHED_MESSAGE_MAX_DEPTH,
  ATTACHED_MESSAGES_MAX,
  MIME_PARTS_MAX,
  REPORTED_MESSAGE_MAX_BYTES,
  REPORTED_MESSAGE_TIME_LIMIT_MS,
  ReportedMessageError,
  type ReportedMessageTokens,
  type SkippedReason,
  TOKEN_PATTERN,
} from './reports.model.js';
import { RankedTokens } from './reports.tokens.model.js';

/**
 * Finding the simulation a reported email belongs to: the recipient token in the
 * `X-Vigil-Simulation` header of the message or of a message attached to it (report buttons
 * and "forward as attachment" send the original that way), else in its links to the phish URLs,
 * rewritten by mail security products or not. Parsing only: which account's simulation a token
 * is, the caller looks up. Nothing of the message is logged, returned or kept but the tokens.
 * The server runs tokensFromReportedMessage in a worker thread (reports.reader.service.ts),
 * which ends it if it outlives its deadline; its own deadline below stops a parse that yields.
 */

export interface ReportedMessageOptions {
  /** The phish URLs links may point at (PHISH_URL, PUBLIC_URL, any earlier one still in use). */
  phishUrls: string[];
  /** Instead of REPORTED_MESSAGE_TIME_LIMIT_MS. */
  timeLimitMs?: number;
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
