import { iso } from '../../time.js';
import type { Campaign, CampaignWithGroups } from './campaigns.service.js';

export function presentCampaign(campaign: Campaign) {
  return {
    id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    group_ids: campaign.group_ids,
    created_at: iso(campaign.created_at),
    updated_at: iso(campaign.updated_at),
  };
}

/** A campaign as the web interface shows it: its target groups named. */
export function presentCampaignWithGroups(campaign: CampaignWithGroups) {
  return {
    id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    groups: campaign.groups,
    created_at: iso(campaign.created_at),
    updated_at: iso(campaign.updated_at),
  };
}
