import type { Db } from '../../db/database.js';
import { iso } from '../../time.js';
import type { WebhookEventType } from '../webhooks/webhooks.catalogue.js';
import { emitWebhookEvents, type WebhookEventInput } from '../webhooks/webhooks.emit.js';
import { presentPhishingCampaign } from './phishing.results.presenter.js';
import { getPhishingCampaign } from './phishing.results.service.js';

type Times = { clicked_at: number | null; submitted_at: number | null; reported_at: number | null };

const FIRST: Array<[keyof Times, WebhookEventType]> = [
  ['clicked_at', 'phishing.simulation_clicked'],
  ['submitted_at', 'phishing.simulation_submitted'],
  ['reported_at', 'phishing.simulation_reported'],
];

/**
 * A recipient's first click, submission or report (a person's, scanners excluded) emits its
 * webhook event, inside the step's transaction. Only first times: later hits change no time,
 * cost nothing here, and keep the tracking hot path as it was.
 */
export async function emitSimulationSteps(
  trx: Db,
  recipient: {
    account_id: number;
    id: number;
    campaign_id: number;
    employee_id: number;
    template_key: string;
    status: string;
  },
  before: Times,
  after: Times,
): Promise<void> {
  const events: WebhookEventInput[] = [];
  for (const [step, type] of FIRST) {
    const at = after[step];
    if (before[step] === null && at !== null) {
      events.push({
        type,
        data: {
          campaign_id: recipient.campaign_id,
          recipient_id: recipient.id,
          employee_id: recipient.employee_id,
          template: recipient.template_key,
          status: recipient.status,
          at: iso(at),
        },
      });
    }
  }
  if (events.length > 0) await emitWebhookEvents(trx, recipient.account_id, events);
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
