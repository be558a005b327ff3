import { AppError } from '../../../core/errors.js';
import type { RecipientResultRow } from '../results/results.presenter.js';
import { recipientResultRow } from '../results/results.repository.js';
import { simulationHeaderOf } from '../settings/settings.repository.js';
import type { HitHeaders } from '../simulation/simulation.classify.model.js';
import { SIMULATION_HEADER } from '../simulation/simulation.links.model.js';
import { recipientsByTokens } from '../simulation/simulation.recipients.repository.js';
import { recordStep } from '../tracking/tracking.steps.commands.js';
import { type ReportIntake, readMessage } from './reports.intake.service.js';
import { tokenFromReportBody } from './reports.model.js';

/**
 * An employee reported a simulation (a report button, a mail gateway, a script): the first of
 * the report's tokens that is one of the account's simulations is marked reported (its first
 * time kept; it counts after a click too), and its result returned. A message is read by the
 * reader's threads; its tokens (REPORT_TOKENS_MAX at most) are looked up in one query.
 */
export async function reportSimulation(
  intake: ReportIntake,
  props: {
    accountId: number;
    report: { kind: 'json'; body: unknown } | { kind: 'message'; raw: Buffer };
    clientAddress: string;
    headers: HitHeaders;
  },
): Promise<RecipientResultRow> {
  const { db, machine } = intake;
  const tokens =
    props.report.kind === 'json'
      ? [tokenFromReportBody(props.report.body)]
      : await tokensOf(intake, props.accountId, props.report.raw);
  const recipients = await recipientsByTokens(db, props.accountId, tokens);
  const byToken = new Map(recipients.map((recipient) => [recipient.token, recipient]));
  for (const token of tokens) {
    const found = byToken.get(token);
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

async function tokensOf(intake: ReportIntake, accountId: number, raw: Buffer): Promise<string[]> {
  const headerName = (await simulationHeaderOf(intake.db, accountId)) ?? SIMULATION_HEADER;
  return (await readMessage(intake, raw, { headerName, envelope: 'direct' })).tokens;
}
