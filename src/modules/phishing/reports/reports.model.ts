import { FieldErrorCollector } from '../../../core/errors.js';
import { isSimulationToken, TOKEN_PATTERN } from '../simulation/simulation.links.model.js';
import type { ReportContent } from '../triage/triage.content.model.js';
import type { TokenSource } from './reports.tokens.model.js';

export type { TokenSource };
export { isSimulationToken, TOKEN_PATTERN };

/**
 * What a report is, without reading one: the token's shape, the limits of a reported message,
 * the refusals and what reading finds. Kept apart from the parser (reports.extract.model.ts, and
 * mailparser with it), which only the reading threads load: the server's own thread never does.
 */

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
  outlook_msg:
    'The Outlook .msg file could not be read; send the message itself (message/rfc822, an .eml file)',
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

export interface ReportedMessageReading {
  /** The reported message's safe view (for triage, when no token is one of the account's). */
  content: ReportContent;
  /**
   * Distinct tokens, the most telling first: headers, then landing links, then tracking images;
   * at most REPORT_TOKENS_MAX (reports.tokens.model.ts).
   */
  tokens: string[];
  /** Where each token was found (the most telling place when it was found in several). */
  sources: Record<string, TokenSource>;
  /** The attached messages that were not read, and why. */
  skipped: SkippedReason[];
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

// What the server's thread and a reading thread (reports.thread.service.ts) send each other.

export interface ReadTask {
  /** Names the task in the "reading began" message. */
  id: number;
  /** The message's bytes (a buffer of their own, moved here rather than copied). */
  raw: Uint8Array;
  phishUrls: string[];
  /** The account's simulation header. */
  headerName: string;
  envelope: 'direct' | 'forwarded';
  /** The parser's own deadline: it stops between chunks and says `too_slow`. */
  timeLimitMs: number;
}

export type ReadOutcome = { reading: ReportedMessageReading } | { refused: ReportedMessageErrorReason };

/** Posted when the task begins: the pool's time limit counts from here, not from the queue. */
export interface ReadingBegan {
  reportedMessageReadingBegan: number;
}

export function isReadingBegan(message: unknown): message is ReadingBegan {
  return typeof (message as ReadingBegan | null)?.reportedMessageReadingBegan === 'number';
}
