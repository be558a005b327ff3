import { api, call } from '../../../api/client';
import type { components } from '../../../api/generated/admin-api';

export type PhishingCampaign = components['schemas']['PhishingCampaign'];
export type PhishingAction = 'schedule' | 'unschedule' | 'launch' | 'stop' | 'archive';

/**
 * The built-in templates' keys, offered in the form until the templates list of the admin API
 * (`GET …/phishing/templates`) feeds the picker.
 */
export const BUILT_IN_TEMPLATE_KEYS = [
  'benefits-enrolment-deadline',
  'calendar-team-restructure',
  'cfo-confidential-data-room',
  'contract-redlines-reply',
  'docuvault-shared-spreadsheet',
  'executive-quick-favour',
  'invoice-final-notice',
  'mailbox-migration-confirm',
  'mailbox-quota-exceeded',
  'mfa-deny-sign-in',
  'parcel-redelivery-fee',
  'password-expiry-today',
  'payslip-tax-adjustment',
  'supplier-new-bank-details',
  'verification-reregistration',
  'voicemail-missed-call',
].map((slug) => `builtin:${slug}`);

export function phishingAction(accountId: number, campaignId: number, action: PhishingAction) {
  const params = { params: { path: { accountId, campaignId } } };
  switch (action) {
    case 'schedule':
      return call(api.POST('/accounts/{accountId}/phishing/campaigns/{campaignId}/schedule', params));
    case 'unschedule':
      return call(api.POST('/accounts/{accountId}/phishing/campaigns/{campaignId}/unschedule', params));
    case 'launch':
      return call(api.POST('/accounts/{accountId}/phishing/campaigns/{campaignId}/launch', params));
    case 'stop':
      return call(api.POST('/accounts/{accountId}/phishing/campaigns/{campaignId}/stop', params));
    case 'archive':
      return call(api.POST('/accounts/{accountId}/phishing/campaigns/{campaignId}/archive', params));
  }
}
