import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { ReportSmtpConfig } from '../../../core/config.js';
import type { IncomingReport, ReportOutcome } from '../reports/reports.intake.service.js';
import { reporterOf } from './mailbox.headers.model.js';
import { ConnectionsPerClient, clientKey } from './mailbox.limits.model.js';
import { reportingIdOfRecipient } from './mailbox.model.js';
import { REPLIES, replyToRefusal, type SmtpReply, smtpError, tooLarge } from './mailbox.replies.model.js';

/**
 * The reporting address's SMTP listener (smtp-server): it takes mail for
 * `report+<reporting id>@<domain>` of an existing account only (it relays nothing), offers no
 * authentication, STARTTLS when a certificate is configured, announces its size limit (refused
 * at MAIL FROM … SIZE=) and cuts a message off as soon as it passes it, limits connections per
 * client and in all, and bounds every session in time. A message received whole is handed to
 * the intake with its reporter (the From header's address); the intake's answer becomes the
 * reply. Nothing of a message is ever logged.
 */

export interface ListenerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ReportingListenerOptions {
  settings: ReportSmtpConfig;
  /** REPORT_DOMAIN. */
  domain: string;
  /** The account a reporting id names, or null. */
  resolveAccount(reportingId: string): Promise<number | null>;
  /** The intake: receiveReport bound to the process's ReportIntake. */
  receive(report: IncomingReport): Promise<ReportOutcome>;
  log: ListenerLog;
  /** The name in the greeting (the host name when unset). */
  name?: string;
  /** A connection idle this long is closed (default 60 s). */
  idleTimeoutMs?: number;
  /** A connection is closed this long after it opened, whatever it does (default 10 minutes). */
  sessionTimeoutMs?: number;
}

export interface ReportingListener {
  /** The port it listens on (the one chosen when the settings said 0). */
  port: number;
  /** Stops taking connections, ends idle sessions, lets a message under way finish (20 s at most). */
  close(): Promise<void>;
}

/** Recipients of one message: the same address written differently, a few times at most. */
const MAX_RECIPIENTS = 5;
/** The longest command line (RFC 5321 allows 512 bytes, extensions a little more). */
const MAX_COMMAND_BYTES = 4096;
/** How long close() lets sessions under way end before it cuts them. */
const CLOSE_TIMEOUT_MS = 20_000;

interface SessionState {
  client: string;
  /** The account of the message under way, set by its first recipient. */
  accountId?: number;
  /** A message is being received or handed to the intake: a shutdown lets it finish. */
  inData: boolean;
  deadline: NodeJS.Timeout;
}

export async function startReportingListener(options: ReportingListenerOptions): Promise<ReportingListener> {
  const { settings, domain, log } = options;
  const perClient = new ConnectionsPerClient(settings.connectionsPerAddress);
  const sessions = new Map<string, SessionState>();
  const tls = settings.tls
    ? { cert: readFileSync(settings.tls.certPath), key: readFileSync(settings.tls.keyPath) }
    : undefined;

  /** Answers `reply` on a connection, outside a command's turn, and closes it. */
  const cut = (sessionId: string, reply: SmtpReply) => {
    for (const connection of server.connections) {
      if (connection.id !== sessionId) continue;
      connection.send(reply.code, reply.message);
      connection.close();
    }
  };

  const server: SMTPServer = new SMTPServer({
    ...(options.name ? { name: options.name } : {}),
    banner: 'Vigil reporting address',
    logger: false,
    // No authentication: nothing here needs it, and nothing is relayed.
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    size: settings.maxBytes,
    maxClients: settings.maxConnections,
    maxRecipients: MAX_RECIPIENTS,
    maxCommandLength: MAX_COMMAND_BYTES,
    // Replies carry their own enhanced status codes (mailbox.replies.model.ts).
    hideENHANCEDSTATUSCODES: true,
    // No DNS lookup per connection: nothing here is decided by a client's name.
    disableReverseLookup: true,
    socketTimeout: options.idleTimeoutMs ?? 60_000,
    closeTimeout: CLOSE_TIMEOUT_MS,

    onConnect(session, callback) {
      const client = clientKey(session.remoteAddress);
      if (!perClient.take(client)) return callback(smtpError(REPLIES.tooManyConnections));
      const deadline = setTimeout(
        () => cut(session.id, REPLIES.sessionTooLong),
        options.sessionTimeoutMs ?? 600_000,
      );
      deadline.unref();
      sessions.set(session.id, { client, deadline, inData: false });
      callback();
    },

    onClose(session) {
      const state = sessions.get(session.id);
      if (!state) return;
      sessions.delete(session.id);
      clearTimeout(state.deadline);
      perClient.release(state.client);
    },

    onMailFrom(_address, session, callback) {
      const state = sessions.get(session.id);
      if (state) state.accountId = undefined;
      callback();
    },

    onRcptTo(address, session, callback) {
      const reportingId = reportingIdOfRecipient(address.address, domain);
      if (reportingId === null) return callback(smtpError(REPLIES.notReportingAddress));
      options.resolveAccount(reportingId).then(
        (accountId) => {
          const state = sessions.get(session.id);
          if (accountId === null) return callback(smtpError(REPLIES.notReportingAddress));
          if (!state) return callback(smtpError(REPLIES.failed));
          if (state.accountId !== undefined && state.accountId !== accountId) {
            return callback(smtpError(REPLIES.otherAccount));
          }
          state.accountId = accountId;
          callback();
        },
        (err: unknown) => {
          log.error({ err: withoutMessage(err) }, 'reporting address: could not look up a recipient');
          callback(smtpError(REPLIES.failed));
        },
      );
    },

    onData(stream, session, callback) {
      const state = sessions.get(session.id);
      if (state) state.inData = true;
      const done = (err: Error | null, message?: string) => {
        if (state) state.inData = false;
        callback(err, message);
      };
      collect(stream, settings.maxBytes).then((raw) => {
        if (raw === null) {
          // Past the limit: answered now and the connection closed, the rest never read.
          if (state) state.inData = false;
          cut(session.id, tooLarge(settings.maxBytes));
          return;
        }
        if (state?.accountId === undefined) return done(smtpError(REPLIES.failed));
        answer(raw, state.accountId, session).then(
          (reply) => done(reply.code === 250 ? null : smtpError(reply), reply.message),
          () => done(smtpError(REPLIES.failed)),
        );
      });
    },
  });

  /** Hands a whole message to the intake and makes its answer a reply. */
  async function answer(raw: Buffer, accountId: number, session: SMTPServerSession): Promise<SmtpReply> {
    const reporter = reporterOf(raw);
    if (reporter.kind === 'header_too_large') return REPLIES.headerTooLarge;
    if (reporter.kind === 'no_from') return REPLIES.noFrom;
    try {
      const outcome = await options.receive({
        accountId,
        channel: 'smtp',
        reporter: reporter.address,
        raw,
        envelope: 'forwarded',
        clientAddress: session.remoteAddress || null,
      });
      log.info(
        { account: accountId, outcome: outcome.kind, bytes: raw.length },
        'reporting address: report received',
      );
      return REPLIES.accepted;
    } catch (err) {
      const reply = replyToRefusal(err, reporter.address, settings.maxBytes);
      if (reply) {
        log.info({ account: accountId, reply: reply.code }, 'reporting address: report refused');
        return reply;
      }
      log.error({ account: accountId, err: withoutMessage(err) }, 'reporting address: report failed');
      return REPLIES.failed;
    }
  }

  server.on('error', (err) => log.warn({ err: withoutMessage(err) }, 'reporting address: connection error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  log.info({ port, host: settings.host, starttls: tls !== undefined }, 'reporting address listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Sessions between messages end now (the sender tries again later); a message being
        // received or read finishes and is answered, within CLOSE_TIMEOUT_MS.
        for (const [id, state] of sessions) if (!state.inData) cut(id, REPLIES.shuttingDown);
      }),
  };
}

/**
 * The message, or null once it passes `maxBytes` (nothing more is kept: the caller cuts the
 * connection). The header is looked at only once the message is whole.
 */
function collect(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let over = false;
    stream.on('data', (chunk: Buffer) => {
      if (over) return;
      bytes += chunk.length;
      if (bytes > maxBytes) {
        over = true;
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks, bytes));
    });
    // An error ends the connection (smtp-server closes it): nothing is answered, nothing kept.
    stream.on('error', () => {
      over = true;
      chunks.length = 0;
    });
  });
}

/**
 * An error as it may be logged: its kind, code and where it was thrown, never its message (a
 * parser's message may quote the mail it read).
 */
function withoutMessage(err: unknown): object {
  if (!(err instanceof Error)) return { type: typeof err };
  const { code } = err as { code?: unknown };
  return {
    type: err.name,
    ...(typeof code === 'string' ? { code } : {}),
    stack: err.stack?.split('\n').slice(1).join('\n'),
  };
}
