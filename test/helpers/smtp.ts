import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { afterFile } from './cleanup.js';

/**
 * A real SMTP server (the `smtp-server` package) on a free local port, for mail tests: it
 * records every message it receives, and the test decides what it answers.
 */

export interface ReceivedMail {
  /** RCPT TO addresses. */
  recipients: string[];
  messageId: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/** An SMTP reply other than 250: `{code: 451, message: 'try later'}`. */
export interface SmtpRefusal {
  code: number;
  message: string;
}

export interface SmtpBehaviour {
  /** Called at RCPT TO; a refusal rejects the recipient. */
  onRecipient?(address: string): SmtpRefusal | undefined;
  /**
   * Called when a whole message has been received, before it is acknowledged: a refusal answers
   * it with that reply; otherwise it is accepted (250) and counted in `accepted`.
   */
  onMessage?(mail: ReceivedMail): SmtpRefusal | undefined | Promise<SmtpRefusal | undefined>;
}

export interface TestSmtpServer {
  port: number;
  /** `smtp://127.0.0.1:PORT` for SMTP_URL. */
  url: string;
  /** Every message received to the end of DATA, accepted or not. */
  received: ReceivedMail[];
  /** The messages answered with 250. */
  accepted: ReceivedMail[];
  behaviour: SmtpBehaviour;
  /** Messages being received at once (DATA started, not yet answered), and the most there were. */
  inFlight: number;
  peakInFlight: number;
  close(): Promise<void>;
}

function smtpError(refusal: SmtpRefusal): Error {
  return Object.assign(new Error(refusal.message), { responseCode: refusal.code });
}

/** Starts the server on `port` (a free one when 0). */
export async function startSmtpServer(behaviour: SmtpBehaviour = {}, port = 0): Promise<TestSmtpServer> {
  const state: TestSmtpServer = {
    port: 0,
    url: '',
    received: [],
    accepted: [],
    behaviour,
    inFlight: 0,
    peakInFlight: 0,
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP: nodemailer would otherwise upgrade to TLS and refuse the self-signed certificate.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session: SMTPServerSession, callback) {
      const refusal = state.behaviour.onRecipient?.(address.address);
      callback(refusal ? smtpError(refusal) : null);
    },
    onData(stream, session, callback) {
      state.inFlight++;
      state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = await PostalMime.parse(raw);
        const mail: ReceivedMail = {
          recipients: session.envelope.rcptTo.map((r) => r.address),
          messageId: parsed.messageId ?? '',
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: parsed.html ?? '',
          raw,
        };
        state.received.push(mail);
        const refusal = await state.behaviour.onMessage?.(mail);
        state.inFlight--;
        if (refusal) return callback(smtpError(refusal));
        state.accepted.push(mail);
        callback(null, 'Queued');
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {});
  state.port = (server.server.address() as AddressInfo).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  afterFile(() => state.close());
  return state;
}

/** Accepted messages per recipient address. */
export function countByRecipient(mails: ReceivedMail[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of mails) {
    for (const to of mail.recipients) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}
