import type { Db } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { HitHeaders } from './phishing.classify.js';
import { recipientByToken } from './phishing.recipients.repository.js';
import { ReportedMessageError, tokenFromReportBody, tokensFromReportedMessage } from './phishing.reports.js';
import type { RecipientResultRow } from './phishing.results.presenter.js';
import { recipientResultRow } from './phishing.results.repository.js';
import { recordStep, type StepMachine } from './phishing.steps.js';

/**
 * An employee reported a simulation (a report button, a mail gateway, a script): the first of
 * the report's tokens that is one of the account's simulations is marked reported (its first
 * time kept; it counts after a click too), and its result returned.
 */
export async function reportSimulation(
  db: Db,
  machine: StepMachine,
  props: {
    accountId: number;
    report: { kind: 'json'; body: unknown } | { kind: 'message'; raw: Buffer; phishUrls: string[] };
    clientAddress: string;
    headers: HitHeaders;
  },
): Promise<RecipientResultRow> {
  let tokens: string[];
  if (props.report.kind === 'json') tokens = [tokenFromReportBody(props.report.body)];
  else {
    try {
      tokens = (await tokensFromReportedMessage(props.report.raw, { phishUrls: props.report.phishUrls }))
        .tokens;
    } catch (err) {
      if (!(err instanceof ReportedMessageError)) throw err;
      if (err.reason === 'too_large') throw new AppError('reported_message_too_large');
      throw new AppError('reported_message_unreadable', { message: err.message });
    }
  }
  for (const token of tokens) {
    const found = await recipientByToken(db, props.accountId, token);
    if (!found) continue;
    await recordStep(db, machine, found, {
      kind: 'report',
      at: Date.now(),
      method: 'POST',
      headers: props.headers,
      clientAddress: props.clientAddress,
      reportReason: props.report.kind === 'json' ? 'report_api' : 'report_message',
    });
    const result = await recipientResultRow(db, props.accountId, found.id);
    if (result) return result;
  }
  throw new AppError('simulation_not_found');
}
