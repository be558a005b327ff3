import type { Db } from '../../../core/db/database.js';
import { iso } from '../../../core/time.js';
import type { SimulationSubject } from '../simulation/simulation.domain-events.model.js';
import { presentPhishingCampaign } from './results.presenter.js';
import { getApiPhishingCampaign } from './results.service.js';

/** A simulation's step as its webhook event's `data` shows it. */
export const presentSimulationStep = (simulation: SimulationSubject, at: number) => ({
  campaign_id: simulation.campaign_id,
  recipient_id: simulation.id,
  employee_id: simulation.employee_id,
  template: simulation.template_key,
  status: simulation.status,
  at: iso(at),
});

/** A phishing campaign as its launch and completion events show it (the Customer API's shape). */
export async function presentPhishingCampaignOf(trx: Db, accountId: number, campaignId: number) {
  return presentPhishingCampaign(await getApiPhishingCampaign(trx, accountId, campaignId));
}
