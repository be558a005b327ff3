/** The phishing context as the contexts above it use it. */
export { presentPhishingCampaignOf, presentSimulationStep } from './results/results.webhooks.presenter.js';
export { reportingOverview } from './triage/triage.service.js';
export { presentReportOf, presentReportReceived } from './triage/triage.webhooks.presenter.js';
