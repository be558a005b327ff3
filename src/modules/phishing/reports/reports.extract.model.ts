import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Attachment, type ParsedMail, simpleParser } from 'mailparser';
import { SIMULATION_HEADER } from '../simulation/simulation.links.model.js';
import type { ReportContent } from '../triage/triage.content.model.js';
import { contentOf } from './reports.content.model.js';
import { inlineForwardOf } from './reports.forward.model.js';
import { type PhishBase, phishBases, tokensInBody } from './reports.links.model.js';
import {
  ATTACHED_MESSAGE_MAX_DEPTH,
  ATTACHED_MESSAGES_MAX,
  MIME_PARTS_MAX,
  REPORTED_MESSAGE_MAX_BYTES,
  REPORTED_MESSAGE_TIME_LIMIT_MS,
  ReportedMessageError,
  type ReportedMessageReading,
  type SkippedReason,
  TOKEN_PATTERN,
} from './reports.model.js';
import { type MsgMail, readMsg } from './reports.msg.model.js';
import { RankedTokens } from './reports.tokens.model.js';

/**
 * Reading a reported email: the recipient token in the account's simulation header (by default
 * `X-Vigil-Simulation`) of the message or of a message attached to it (report buttons and
 * "forward as attachment" send the original that way; Outlook items too), else in its links to
 * the phish URLs, rewritten by mail security products or not; and the bounded safe view of the
 * reported message (reports.content.model.ts), kept only when it is no simulation. Parsing only:
 * which account's simulation a token is, the caller looks up. Nothing of it is logged.
 * The server runs tokensFromReportedMessage in a worker thread (reports.reader.service.ts),
 * which ends it if it outlives its deadline; its own deadline below stops a parse that yields.
 */

export interface ReportedMessageOptions {
  /** The phish URLs links may point at (PHISH_URL, PUBLIC_URL, any earlier one still in use). */
  phishUrls: string[];
  /** Instead of REPORTED_MESSAGE_TIME_LIMIT_MS. */
  timeLimitMs?: number;
  /** The account's simulation header (SIMULATION_HEADER when not given); any case. */
  headerName?: string;
  /**
   * `direct` (the default): the message is the reported one (a report button, a gateway).
   * `forwarded`: it is a person's mail carrying the reported one, attached or forwarded inline
   * (a reporting mailbox, a forward); the view is of the message it carries.
   */
  envelope?: 'direct' | 'forwarded';
}

/** A parsed message: mailparser's, or an Outlook item read into that shape. */
type Mail = ParsedMail | MsgMail;

/**
 * The simulation tokens a reported message carries, and the safe view of the reported message.
 * Whatever the bytes, it throws nothing but ReportedMessageError (a phish URL that is no
 * http(s) URL is a TypeError: configuration, not input).
 */
export async function tokensFromReportedMessage(
  raw: Buffer,
  options: ReportedMessageOptions,
): Promise<ReportedMessageReading> {
  const bases = phishBases(options.phishUrls);
  const headerName = (options.headerName ?? SIMULATION_HEADER).toLowerCase();
  if (raw.length > REPORTED_MESSAGE_MAX_BYTES) throw new ReportedMessageError('too_large');
  const deadline = Date.now() + (options.timeLimitMs ?? REPORTED_MESSAGE_TIME_LIMIT_MS);
  let outer: Mail;
  try {
    outer = isCompoundFile(raw) ? readMsgWithin(raw, deadline) : await parseWithin(raw, deadline);
  } catch (err) {
    if (err instanceof TimeUp) throw new ReportedMessageError('too_slow');
    throw new ReportedMessageError(isCompoundFile(raw) ? 'outlook_msg' : 'unreadable');
  }
  const found = new RankedTokens();
  const skipped: SkippedReason[] = [];
  // Breadth first: the outer message's findings come before those of what it carries.
  const queue: Array<{ mail: Mail; depth: number }> = [{ mail: outer, depth: 0 }];
  let opened = 0;
  for (let i = 0; i < queue.length && !found.complete; i++) {
    const { mail, depth } = queue[i]!;
    for (const token of headerTokens(mail, headerName)) found.add(token, 'header');
    if (found.complete) break;
    for (const hit of bodyTokens(mail, bases)) found.add(hit.token, hit.source);
    const carried: Array<() => Promise<Mail> | Mail> = [];
    for (const embedded of 'embedded' in mail ? mail.embedded : []) carried.push(() => embedded);
    for (const attachment of mail.attachments) {
      const kind = kindOf(attachment);
      if (kind === 'message') carried.push(() => parseWithin(attachment.content, deadline));
      if (kind === 'outlook_msg') carried.push(() => readMsgWithin(attachment.content, deadline));
    }
    for (const open of carried) {
      if (depth + 1 > ATTACHED_MESSAGE_MAX_DEPTH) skipped.push('too_deep');
      else if (opened >= ATTACHED_MESSAGES_MAX) skipped.push('too_many');
      else {
        opened++;
        try {
          queue.push({ mail: await open(), depth: depth + 1 });
        } catch (err) {
          skipped.push(err instanceof TimeUp ? 'too_slow' : 'unreadable');
        }
      }
    }
  }
  return { ...found.list(), skipped, content: reportedContent(queue, options.envelope ?? 'direct') };
}

/**
 * The view of the reported message. Direct: the message itself. Forwarded: the first message it
 * carries (Microsoft 365's reporting mailbox and "forward as attachment" attach the original),
 * else the message it forwards inline (Gmail, phones), else the message itself (a redirect).
 */
function reportedContent(
  queue: Array<{ mail: Mail; depth: number }>,
  envelope: 'direct' | 'forwarded',
): ReportContent {
  const outer = queue[0]!.mail;
  if (envelope === 'direct') return contentOf(outer);
  const attached = queue.find((entry) => entry.depth === 1);
  if (attached) return contentOf(attached.mail);
  const view = contentOf(outer);
  const forward = inlineForwardOf(view.text);
  if (!forward) return view;
  return {
    ...view,
    from: forward.from,
    to: [],
    subject: forward.subject,
    date: null,
    message_id: '',
    headers: [],
    text: forward.text,
  };
}

function headerTokens(mail: Mail, headerName: string): string[] {
  const tokens: string[] = [];
  for (const { key, line } of mail.headerLines ?? []) {
    if (key !== headerName) continue;
    // Unfolding is linear: each match starts at a line break and consumes its blanks.
    const value = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    if (TOKEN_PATTERN.test(value)) tokens.push(value);
  }
  return tokens;
}

function bodyTokens(mail: Mail, bases: PhishBase[]): Array<{ token: string; source: 'link' | 'image' }> {
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
 * What an attachment is to us: a message (MIME), an Outlook item (.msg, a binary Compound File,
 * which Outlook's "Save as" and some report buttons attach), or a file, which is never opened.
 */
function kindOf(attachment: Attachment | Mail['attachments'][number]): 'message' | 'outlook_msg' | 'other' {
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

/** Reads an Outlook item, unless the deadline has passed (the read itself is synchronous). */
function readMsgWithin(content: Buffer, deadline: number): MsgMail {
  if (Date.now() >= deadline) throw new TimeUp();
  return readMsg(content);
}

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
