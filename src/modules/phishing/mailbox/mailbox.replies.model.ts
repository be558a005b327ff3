import { AppError } from '../../../core/errors.js';
import { ReportedMessageError } from '../reports/reports.model.js';

/**
 * The SMTP replies of the reporting address. The enhanced status code is written in each text
 * (the listener announces none of its own), so a refusal says plainly why, in the bounce the
 * reporter or their mail administrator reads.
 */

export interface SmtpReply {
  code: number;
  message: string;
}

/** An Error that smtp-server answers with this reply. */
export function smtpError(reply: SmtpReply): Error {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

export const REPLIES = {
  accepted: { code: 250, message: '2.6.0 Report received, thank you' },
  notReportingAddress: {
    code: 550,
    message: '5.1.1 No such reporting address here; this server accepts reports only and relays nothing',
  },
  otherAccount: {
    code: 452,
    message: "4.5.3 One account's reporting address per message; send to the other separately",
  },
  noFrom: {
    code: 554,
    message: '5.6.0 The message has no From address: the reporter must be named in From',
  },
  headerTooLarge: {
    code: 554,
    message: '5.6.0 The message header is larger than 64 KiB and cannot be read',
  },
  busy: {
    code: 451,
    message: '4.3.2 Too many reported messages are being read; try again in a few minutes',
  },
  failed: { code: 451, message: '4.3.0 The report could not be taken now; try again later' },
  tooManyConnections: {
    code: 421,
    message: '4.7.0 Too many connections from your address; try again later',
  },
  sessionTooLong: { code: 421, message: '4.4.2 Session time limit reached; closing' },
  shuttingDown: { code: 421, message: '4.3.2 Shutting down; try again later' },
} satisfies Record<string, SmtpReply>;

export function tooLarge(maxBytes: number): SmtpReply {
  return { code: 552, message: `5.3.4 The message is larger than ${maxBytes} bytes and is refused` };
}

export function tooManyReports(reporter: string): SmtpReply {
  return {
    code: 451,
    message: `4.7.0 ${reporter} has sent more reports this hour than are taken; try again later`,
  };
}

export function notAnEmployee(reporter: string): SmtpReply {
  return {
    code: 550,
    message: `5.7.1 ${reporter} is not an employee of the organisation this reporting address belongs to; only its employees' reports are accepted`,
  };
}

/**
 * The reply to a report the intake refused, or null when the error is none of the known
 * refusals (a defect or an outage: answered 451, so the sending server tries again, and logged).
 */
export function replyToRefusal(err: unknown, reporter: string, maxBytes: number): SmtpReply | null {
  if (err instanceof ReportedMessageError) {
    if (err.reason === 'busy') return REPLIES.busy;
    if (err.reason === 'too_large') return tooLarge(maxBytes);
    return { code: 554, message: `5.6.0 ${err.message}` };
  }
  if (!(err instanceof AppError)) return null;
  switch (err.code) {
    case 'reporter_not_found':
      return notAnEmployee(reporter);
    case 'reported_message_unreadable':
      return { code: 554, message: `5.6.0 ${err.message}` };
    case 'reported_message_too_large':
      return tooLarge(maxBytes);
    case 'reported_messages_busy':
      return REPLIES.busy;
    case 'rate_limited':
      return tooManyReports(reporter);
    default:
      return null;
  }
}
