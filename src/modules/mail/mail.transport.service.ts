import { pipeline, type Readable, Transform } from 'node:stream';
import type { NodemailerError, SendMailOptions } from 'nodemailer';
import { createTransport } from 'nodemailer';

/** One rendered message, ready to go out. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<…@…>`: the same for every attempt at one queued message, so receivers can drop a duplicate. */
  messageId: string;
  /** Credentials in this message (the learner link's token): a server's reply quoting them is redacted. */
  secrets?: string[];
  /** Extra headers (a simulation's `X-Vigil-Simulation`). */
  headers?: Record<string, string>;
  /** Images the HTML shows by `cid:` (the account's logo), sent inline in the message. */
  inlineImages?: InlineImage[];
}

export interface InlineImage {
  cid: string;
  contentType: string;
  /** The bytes, base64. */
  base64: string;
}

export type TransportKind = 'smtp' | 'outbox';

/**
 * Called by a transport at the last moment before a message can be delivered: over SMTP, once
 * its last byte has been written and before the final "." of DATA, the point after which the
 * server may keep it whatever happens to us. The transport delivers nothing if it rejects.
 */
export type HandOff = () => Promise<void>;

/** Where messages go: an SMTP server (`SMTP_URL`), or nowhere but the built-in outbox. */
export interface MailTransport {
  readonly kind: TransportKind;
  /**
   * Resolves once the message is accepted; rejects with a MailSendError. Awaits `handOff`
   * (once) before the message can be delivered, and aborts if it rejects.
   */
  send(mail: OutgoingMail, handOff: HandOff): Promise<void>;
  /** Closes pooled connections (after the sends in flight). */
  close(): Promise<void>;
}

/** A failed send: `permanent` ones fail the message at once, the others are retried later. */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /**
     * The server, not this message, is the problem (unreachable, timed out, closing with 421,
     * refusing our sign-in): the next messages would fail the same way.
     */
    readonly serverUnavailable = false,
    /**
     * The server replied to us (an SMTP reply code): whatever it refused, it did not keep. A
     * failure without a reply after the hand-off (a connection lost or timed out after the
     * final ".") leaves unknown whether the message was delivered.
     */
    readonly answered = false,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

const MAX_ERROR_LENGTH = 300;

/**
 * Whether a failure is worth retrying, and a short description of it. A 5xx reply refuses this
 * message for good (550 mailbox unavailable); so does an address the client itself cannot use.
 * Everything else (4xx replies, refused or dropped connections, timeouts) may pass later. A
 * failed sign-in (EAUTH, 535) is a configuration fault, not this message's: it is retried, so
 * the queue survives until the credentials are fixed instead of failing every message in it.
 * Failures that say the server itself is unavailable are flagged, so the worker pauses.
 */
export function classifySendError(err: unknown, secrets: string[] = []): MailSendError {
  const e = (err ?? {}) as Partial<NodemailerError>;
  const permanent =
    e.code !== 'EAUTH' && (e.permanent === true || (e.code === 'EENVELOPE' && e.responseCode === undefined));
  const reply = typeof e.response === 'string' && e.response !== '' ? e.response : undefined;
  let text = reply ?? (err instanceof Error ? err.message : String(err));
  if (!reply && e.code && !text.includes(e.code)) text = `${e.code}: ${text}`;
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  text = text.replace(/\s+/g, ' ').trim();
  const serverUnavailable =
    !permanent && (e.responseCode === undefined || e.responseCode === 421 || e.code === 'EAUTH');
  return new MailSendError(
    text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text,
    permanent,
    serverUnavailable,
    e.responseCode !== undefined,
  );
}

/** The parts of an SMTP URL that must never reach a log line or `last_error`. */
function credentialsOf(smtpUrl: string): string[] {
  try {
    const url = new URL(smtpUrl);
    return [url.password, decodeURIComponent(url.password), url.username, decodeURIComponent(url.username)]
      .filter((s) => s.length >= 3)
      .sort((a, b) => b.length - a.length);
  } catch {
    return [];
  }
}

export interface SmtpTransportOptions {
  smtpUrl: string;
  /** Connections in the pool, i.e. messages in flight at once. */
  concurrency: number;
  /**
   * A send must end well before the worker's claim on the message runs out, or another worker
   * would take the message over while this one may still deliver it.
   */
  timeoutMs: number;
}

/** The message stream, held before its end (the final "." comes after it) until `handOff` resolves. */
function holdingTheEnd(input: Readable, handOff: HandOff): Readable {
  const held = new Transform({
    transform: (chunk, _encoding, done) => done(null, chunk),
    flush: (done) => {
      handOff().then(() => done(), done);
    },
  });
  // An error on either side destroys both; nodemailer then closes the connection without the ".".
  pipeline(input, held, () => {});
  return held;
}

/** Pooled SMTP (nodemailer): a few long-lived connections reused for every message. */
export function smtpTransport(options: SmtpTransportOptions): MailTransport {
  const transporter = createTransport({
    url: options.smtpUrl,
    pool: true,
    maxConnections: options.concurrency,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  // Each message's stream (made again if the pool moves the message to another connection)
  // passes through a hold before its end: nothing can be delivered before the hand-off.
  transporter.use('stream', (message, done) => {
    const { handOff } = message.data as WithHandOff;
    if (handOff) message.message.processFunc((input) => holdingTheEnd(input, handOff));
    done();
  });
  const secrets = credentialsOf(options.smtpUrl);
  return {
    kind: 'smtp',
    async send(mail, handOff) {
      const message: WithHandOff = {
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        ...(mail.headers && { headers: mail.headers }),
        ...(mail.inlineImages && {
          attachments: mail.inlineImages.map((image) => ({
            cid: image.cid,
            filename: `logo.${image.contentType.slice('image/'.length)}`,
            contentType: image.contentType,
            content: image.base64,
            encoding: 'base64',
            contentDisposition: 'inline' as const,
          })),
        }),
        handOff,
      };
      try {
        await transporter.sendMail(message);
      } catch (err) {
        throw classifySendError(err, [...secrets, ...(mail.secrets ?? [])]);
      }
    },
    async close() {
      transporter.close();
    },
  };
}

/** nodemailer keeps unknown fields of a message (`message.data`): the hand-off travels there. */
type WithHandOff = SendMailOptions & { handOff?: HandOff };

/** No SMTP server: a message is delivered by being recorded as sent; the web interface shows it. */
export function outboxTransport(): MailTransport {
  return {
    kind: 'outbox',
    async send(_mail, handOff) {
      await handOff();
    },
    async close() {},
  };
}

/** SMTP when `smtpUrl` is set, else the built-in outbox. */
export function createMailTransport(options: Omit<SmtpTransportOptions, 'smtpUrl'> & { smtpUrl?: string }) {
  return options.smtpUrl ? smtpTransport({ ...options, smtpUrl: options.smtpUrl }) : outboxTransport();
}
