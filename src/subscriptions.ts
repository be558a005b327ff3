import { registerCampaignKind } from './modules/campaigns/index.js';
import { subscribeSync } from './modules/directory/sync/sync.subscribers.js';
import { subscribeWebhooks } from './modules/integrations/webhooks/webhooks.subscribers.js';
import { registerMailComposer } from './modules/mail/index.js';
import { phishingCampaignKind } from './modules/phishing/campaigns/campaigns.kind.service.js';
import { simulationMailComposer } from './modules/phishing/campaigns/campaigns.mail.js';
import { subscribePhishingCampaigns } from './modules/phishing/campaigns/campaigns.subscribers.js';
import { testSendMailComposer } from './modules/phishing/delivery/delivery.mail.js';
import { subscribeDelivery } from './modules/phishing/delivery/delivery.subscribers.js';
import { reportMailComposer } from './modules/phishing/triage/triage.mail.js';
import { subscribeTriage } from './modules/phishing/triage/triage.subscribers.js';
import { subscribeTrainingCampaigns } from './modules/training/campaigns/campaigns.subscribers.js';
import { subscribeEnrollments } from './modules/training/enrollments/enrollments.subscribers.js';
import { trainingCampaignKind } from './modules/training/index.js';
import { trainingMailComposer } from './modules/training/learner/learner.mail.js';

/**
 * What ties the contexts together, in one list: the subscribers of the domain events, the mail
 * composers and the campaign kinds. Every entry point loads it (buildApp, the background work of
 * the server, the cluster primary and `vigil worker`, the mail worker, the CLI, tests'
 * databases); loading it again changes nothing.
 */
export function loadSubscriptions(): void {
  // Subscribers of the domain events (core/events.ts), in the order they run: contexts bottom-up,
  // so a refusal (training's, then phishing's) comes before anything is written for the change,
  // and webhooks describe it last.
  subscribeSync();
  subscribeTrainingCampaigns();
  subscribeEnrollments();
  subscribePhishingCampaigns();
  subscribeTriage();
  subscribeDelivery();
  subscribeWebhooks();

  // Mail composers: who writes each kind of message. Mail sends, records and shows them but
  // knows none of their owners.
  registerMailComposer('invitation', trainingMailComposer);
  registerMailComposer('reminder', trainingMailComposer);
  registerMailComposer('link', trainingMailComposer);
  registerMailComposer('simulation', simulationMailComposer);
  registerMailComposer('report_feedback', reportMailComposer);
  registerMailComposer('report_thanks', reportMailComposer);
  registerMailComposer('simulation_test', testSendMailComposer);

  // Campaign kinds: the scheduler runs them in this order (training's launches and reminders,
  // then phishing's).
  registerCampaignKind(trainingCampaignKind);
  registerCampaignKind(phishingCampaignKind);
}
