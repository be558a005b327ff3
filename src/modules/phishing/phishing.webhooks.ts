import type { Db } from '../../db/database.js';
import { iso } from '../../time.js';
import type { WebhookEventType } from '../webhooks/webhooks.catalogue.js';
import { emitWebhookEvents, type WebhookEventInput } from '../webhooks/webhooks.emit.js';
import { presentPhishingCampaign } from './phishing.results.presenter.js';
import { getPhishingCampaign } from './phishing.results.service.js';

type Times = { submitted_at: number | null; reported_at: number | null };

interface Simulation {
  account_id: number;
  id: number;
  campaign_id: number;
  employee_id: number;
  template_key: string;
  status: string;
}

// A first click waits until it settled (scanners' bursts excluded): emitSimulationClicked.
const FIRST: Array<[keyof Times, WebhookEventType]> = [
  ['submitted_at', 'phishing.simulation_submitted'],
  ['reported_at', 'phishing.simulation_reported'],
];

const dataOf = (recipient: Simulation, at: number) => ({
  campaign_id: recipient.campaign_id,
  recipient_id: recipient.id,
  employee_id: recipient.employee_id,
  template: recipient.template_key,
  status: recipient.status,
  at: iso(at),
});

/**
 * A recipient's first submission or report (a person's, scanners excluded) emits its webhook
 * event, inside the step's transaction. Only first times: later hits change no time, cost
 * nothing here, and keep the tracking hot path as it was.
 */
export async function emitSimulationSteps(
  trx: Db,
  recipient: Simulation,
  before: Times,
  after: Times,
): Promise<void> {
  const events: WebhookEventInput[] = [];
  for (const [step, type] of FIRST) {
    const at = after[step];
    if (before[step] === null && at !== null) events.push({ type, data: dataOf(recipient, at) });
  }
  if (events.length > 0) await emitWebhookEvents(trx, recipient.account_id, events);
}

/** A person's first click, once it settled (phishing.remedial.ts), with the time of that click. */
export async function emitSimulationClicked(
  trx: Db,
  recipient: Simulation & { clicked_at: number | null },
): Promise<void> {
  if (recipient.clicked_at === null) return;
  await emitWebhookEvents(trx, recipient.account_id, [
    { type: 'phishing.simulation_clicked', data: dataOf(recipient, recipient.clicked_at) },
  ]);
}

/** A phishing campaign's launch or completion, with `data` as the Customer API shows the campaign. */
export function emitPhishingCampaignEvent(
  trx: Db,
  accountId: number,
  campaignId: number,
  type: Extract<WebhookEventType, 'phishing.campaign_launched' | 'phishing.campaign_completed'>,
): Promise<number> {
  return emitWebhookEvents(trx, accountId, async () => [
    { type, data: presentPhishingCampaign(await getPhishingCampaign(trx, accountId, campaignId)) },
  ]);
}
