import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../../api/client';
import type { components } from '../../../api/generated/admin-api';

export type PhishingCampaign = components['schemas']['PhishingCampaign'];
export type PhishingAction = 'schedule' | 'unschedule' | 'launch' | 'stop' | 'archive';

export type TemplateSummary = components['schemas']['PhishingTemplateSummary'];

/** Every template an account can send: the built-in library, then its own (one page of 200). */
export function useTemplatePool(accountId: number) {
  return useQuery({
    queryKey: ['phishing-templates', accountId, 'pool'],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/phishing/templates', {
          params: { path: { accountId }, query: { page_size: 200 } },
          signal,
        }),
      ),
    staleTime: 60_000,
  });
}

/** The account's Phishing settings (scanner networks, default sender, the server's default domain). */
export function usePhishingSettings(accountId: number) {
  return useQuery({
    queryKey: ['phishing-settings', accountId],
    queryFn: ({ signal }) =>
      call(api.GET('/accounts/{accountId}/phishing/settings', { params: { path: { accountId } }, signal })),
  });
}

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

/** Deletes a draft (the server answers 409 for any other status: it has been sent or may be). */
export function deletePhishingDraft(accountId: number, campaignId: number) {
  return call(
    api.DELETE('/accounts/{accountId}/phishing/campaigns/{campaignId}', {
      params: { path: { accountId, campaignId } },
    }),
  );
}
