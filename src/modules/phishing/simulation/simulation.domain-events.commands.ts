import type { Db } from '../../../core/db/database.js';
import { emit } from '../../../core/events.js';
import type { FirstStep, SimulationSubject } from './simulation.domain-events.model.js';

type Times = { submitted_at: number | null; reported_at: number | null };

// A first click waits until it settled (scanners' bursts excluded): emitSimulationClicked.
const FIRST: Array<[keyof Times, FirstStep['type']]> = [
  ['submitted_at', 'phishing.simulation_submitted'],
  ['reported_at', 'phishing.simulation_reported'],
];

/**
 * A recipient's first submission or report (a person's, scanners excluded) emits
 * `phishing.simulation_stepped`, inside the step's transaction. Only first times: later hits
 * change no time, cost nothing here, and keep the tracking hot path as it was.
 */
export async function emitSimulationSteps(
  trx: Db,
  recipient: SimulationSubject,
  before: Times,
  after: Times,
): Promise<void> {
  const steps: FirstStep[] = [];
  for (const [step, type] of FIRST) {
    const at = after[step];
    if (before[step] === null && at !== null) steps.push({ type, at });
  }
  if (steps.length > 0)
    await emit(trx, 'phishing.simulation_stepped', {
      accountId: recipient.account_id,
      simulation: recipient,
      steps,
    });
}

/** A person's first click, once it settled (tracking.remedial.commands.ts), with the time of that click. */
export async function emitSimulationClicked(
  trx: Db,
  recipient: SimulationSubject & { clicked_at: number | null },
): Promise<void> {
  if (recipient.clicked_at === null) return;
  const steps = [{ type: 'phishing.simulation_clicked' as const, at: recipient.clicked_at }];
  await emit(trx, 'phishing.simulation_stepped', {
    accountId: recipient.account_id,
    simulation: recipient,
    steps,
  });
}

/** A phishing campaign's launch or completion. */
export function emitPhishingCampaignEvent(
  trx: Db,
  accountId: number,
  campaignId: number,
  type: 'phishing.campaign_launched' | 'phishing.campaign_completed',
): Promise<void> {
  return emit(trx, type, { accountId, campaignId });
}
