import type { RateLimiter } from '../../../core/auth/rate-limit.js';
import type { Db } from '../../../core/db/database.js';
import type { ReportChannel, ReportVerdict } from '../../../core/db/schema/phishing.js';
import { AppError, rateLimited } from '../../../core/errors.js';
import { normalizeEmail } from '../../../core/fields.js';
import { simulationHeaderOf } from '../settings/settings.repository.js';
import { SIMULATION_HEADER } from '../simulation/simulation.links.model.js';
import { recipientsByTokens } from '../simulation/simulation.recipients.repository.js';
import type { StepMachine } from '../tracking/tracking.steps.batch.commands.js';
import { recordStep } from '../tracking/tracking.steps.commands.js';
import { fileRealReport } from '../triage/triage.commands.js';
import { CONTENT_ATTACHMENTS_MAX } from '../triage/triage.content.model.js';
import { employeeByAddress } from '../triage/triage.repository.js';
import { thankForSimulationReport } from '../triage/triage.thanks.commands.js';
import { fingerprintsOf } from './reports.content.model.js';
import { ReportedMessageError, type ReportedMessageReading } from './reports.model.js';
import type { ListedAttachment } from './reports.parts.model.js';
import { READER_RETRY_AFTER_SECONDS, type ReportedMessageReader } from './reports.reader.service.js';

/**
 * Every report of a message, whichever way it came (the add-in, the reporting address, the
 * Customer API): the reporter must be one of the account's people; the message is read off the
 * event loop (reports.reader.service.ts) with the account's simulation header; a token of one of
 * the account's simulations credits that simulation's recipient as reported (first time kept; it
 * counts after a click too) and the message goes no further; anything else is a real report for
 * the triage inbox (triage.commands.ts).
 */

/** What the intake needs, built once per process. */
export interface ReportIntake {
  db: Db;
  machine: StepMachine;
  reader: ReportedMessageReader;
  /** Where simulations' links point: PHISH_URL and PUBLIC_URL (known once the server listens). */
  phishUrls: () => string[];
  /** Counts each reporter's reports (REPORTS_PER_REPORTER_PER_HOUR); none in some tests. */
  reporterLimiter?: RateLimiter;
}

/** How many messages one person may report in an hour (a report button's key is in every mailbox). */
export const REPORTS_PER_REPORTER_PER_HOUR = 30;

export interface IncomingReport {
  accountId: number;
  channel: ReportChannel;
  /** The address of the person who reported. */
  reporter: string;
  /** The message as received (MIME, or an Outlook item). */
  raw: Buffer;
  /** `forwarded`: raw is the reporter's mail carrying the reported message; `direct`: raw is it. */
  envelope: 'direct' | 'forwarded';
  clientAddress: string | null;
  /** Attachments a report button could only list (name, type, size; their bytes were not sent). */
  listedAttachments?: ListedAttachment[];
  /** The HTTP request's headers, when it came by HTTP (the simulation's event records its user agent). */
  headers?: Record<string, string | string[] | undefined>;
}

export type ReportOutcome =
  | { kind: 'simulation'; recipientId: number }
  | { kind: 'real'; reportId: number; verdict: ReportVerdict | null };

const REASON_OF: Record<ReportChannel, 'report_message' | 'report_addin' | 'report_mailbox'> = {
  api: 'report_message',
  addin: 'report_addin',
  smtp: 'report_mailbox',
};

export async function receiveReport(intake: ReportIntake, report: IncomingReport): Promise<ReportOutcome> {
  const { db, accountId } = { db: intake.db, accountId: report.accountId };
  const address = normalizeEmail(report.reporter);
  const employee = address.includes('@') ? await employeeByAddress(db, accountId, address) : undefined;
  if (!employee) throw new AppError('reporter_not_found');
  if (intake.reporterLimiter) {
    const budget = await intake.reporterLimiter.consume(
      `${accountId}:${address}`,
      REPORTS_PER_REPORTER_PER_HOUR,
    );
    if (!budget.allowed) throw rateLimited(budget.resetSeconds);
  }
  const headerName = (await simulationHeaderOf(db, accountId)) ?? SIMULATION_HEADER;
  const reading = await readMessage(intake, report.raw, { headerName, envelope: report.envelope });

  const recipients = await recipientsByTokens(db, accountId, reading.tokens);
  const byToken = new Map(recipients.map((recipient) => [recipient.token, recipient]));
  const at = Date.now();
  for (const token of reading.tokens) {
    const found = byToken.get(token);
    if (!found) continue;
    await recordStep(db, intake.machine, found, {
      kind: 'report',
      at,
      method: 'POST',
      headers: report.headers ?? {},
      clientAddress: report.clientAddress ?? '',
      reportReason: REASON_OF[report.channel],
    });
    // The add-in thanks in its pane; mail is thanked by mail.
    if (report.channel === 'smtp') await thankForSimulationReport(db, accountId, address, at);
    return { kind: 'simulation', recipientId: found.id };
  }

  const listed = (report.listedAttachments ?? []).map((a) => ({
    name: a.name,
    content_type: a.content_type.toLowerCase(),
    size: a.size,
    sha256: '',
  }));
  if (listed.length > 0) {
    reading.content.attachments = [...reading.content.attachments, ...listed].slice(
      0,
      CONTENT_ATTACHMENTS_MAX,
    );
  }
  const filed = await fileRealReport(db, {
    accountId,
    reporter: { address, employeeId: employee.id, channel: report.channel },
    content: reading.content,
    fingerprints: fingerprintsOf(reading.content),
    at,
  });
  return { kind: 'real', reportId: filed.reportId, verdict: filed.verdict };
}

/** Reads a message in the reader's threads; a refusal is the catalogue's error. */
export async function readMessage(
  intake: Pick<ReportIntake, 'reader' | 'phishUrls'>,
  raw: Buffer,
  how: { headerName: string; envelope: 'direct' | 'forwarded' },
): Promise<ReportedMessageReading> {
  try {
    return await intake.reader.read(raw, { phishUrls: intake.phishUrls(), ...how });
  } catch (err) {
    if (!(err instanceof ReportedMessageError)) throw err;
    if (err.reason === 'too_large') throw new AppError('reported_message_too_large');
    if (err.reason === 'busy') {
      throw new AppError('reported_messages_busy', {
        headers: { 'retry-after': String(READER_RETRY_AFTER_SECONDS) },
      });
    }
    throw new AppError('reported_message_unreadable', { message: err.message });
  }
}
