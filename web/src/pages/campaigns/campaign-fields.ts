// Which campaign fields a status lets change (from the server's limits), and why the others are fixed.
import { FORM_FIELDS as FORMS } from '../../api/form-fields';
import type { Campaign, CampaignField, CampaignStatus, Limits } from '../../api/types';

export type Field = CampaignField;

/**
 * The form's label of each field: the server's field messages are shown under these names. The
 * compiler holds the keys to the API's fields (`CampaignField` is generated from its schema).
 */
export const FIELD_LABELS: Record<Field, string> = FORMS.campaign.names;

/** The fields the form has an input for, each showing its own messages: every field. */
export const FORM_FIELDS = Object.keys(FIELD_LABELS) as Field[];

/**
 * What a campaign still lacks to be scheduled or launched that the page can tell without asking
 * the server (which checks the dates too): a sentence, or null.
 */
export function notReadyReason(campaign: Campaign): string | null {
  const missing = [
    ...(campaign.courses.length === 0 ? ['at least one course'] : []),
    ...(campaign.groups.length === 0 ? ['at least one target group'] : []),
  ];
  return missing.length === 0 ? null : `Choose ${missing.join(' and ')} to schedule or launch this campaign.`;
}

export const STATUS_HINT: Partial<Record<CampaignStatus, { fixed: string; alert: string }>> = {
  active: {
    fixed: 'Fixed once the campaign is launched.',
    alert:
      'This campaign is active: its courses, target groups and start date are fixed. The name, description, due date, reminders and late enrollment can still change.',
  },
  completed: {
    fixed: 'A completed campaign keeps its settings.',
    alert: 'This campaign is completed: only its name and description can change.',
  },
  archived: {
    fixed: 'An archived campaign keeps its settings.',
    alert: 'This campaign is archived: it can no longer change.',
  },
};

/**
 * The fields the form may send for this campaign: what its status lets change (`GET
 * /admin/api/limits`; a new campaign is a draft), for disabling inputs with a reason; the server
 * decides, and a campaign without `edit` in its actions changes nothing.
 */
export function editableFields(campaign: Campaign | null, limits: Limits): Set<Field> {
  const { editable_fields: byStatus } = limits.campaign;
  if (!campaign) return new Set(byStatus.draft);
  return new Set(campaign.allowed_actions.includes('edit') ? byStatus[campaign.status] : []);
}
