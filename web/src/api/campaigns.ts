// Training campaigns of an account, read-only here (docs/admin-api.md § Training campaigns).
import { type ListPage, type ListParams, request } from './client';

export interface Campaign {
  id: number;
  name: string;
  /** Lifecycle state; a new campaign is `draft`. */
  status: string;
  groups: { id: number; name: string }[];
  created_at: string;
  updated_at: string;
}

export function listCampaigns(accountId: number, params: ListParams = {}): Promise<ListPage<Campaign>> {
  return request(`/accounts/${accountId}/campaigns`, { query: { ...params } });
}

export function getCampaign(accountId: number, campaignId: number): Promise<Campaign> {
  return request(`/accounts/${accountId}/campaigns/${campaignId}`);
}
