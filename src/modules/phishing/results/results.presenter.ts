import { iso, isoOrNull } from '../../../core/time.js';
import type { RecipientRow } from './results.repository.js';
import {
  type ApiPhishingCampaignView,
  type EmployeeHistoryRow,
  type Figures,
  groupIdsOf,
  type ResultsSummary,
  recipientPerson,
} from './results.service.js';

/** Rows of a phishing campaign's results → the Customer API's and the admin API's shapes. */

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

/** The weekdays of a bitmask (bit 0 Monday … bit 6 Sunday), Monday first. */
export function weekdaysOf(mask: number): (typeof WEEKDAYS)[number][] {
  return WEEKDAYS.filter((_, i) => (mask & (1 << i)) !== 0);
}

/** The figures the Customer API shows (the admin API shows every counter). */
export function presentPublicFigures(f: Figures) {
  return {
    recipients: f.recipients,
    delivered: f.delivered,
    opened: f.opened,
    clicked: f.clicked,
    submitted: f.submitted,
    reported: f.reported,
    reported_after_click: f.reported_after_click,
    missed: f.missed,
    phish_prone_percent: f.phish_prone_percent,
    report_rate: f.report_rate,
    miss_rate: f.miss_rate,
    median_seconds_to_click: f.median_seconds_to_click,
    median_seconds_to_report: f.median_seconds_to_report,
  };
}

/** A phishing campaign as the Customer API shows it. */
export function presentPhishingCampaign(c: ApiPhishingCampaignView) {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    group_ids: c.groups.map((g) => g.id),
    template_keys: c.templates.map((t) => t.key),
    window: {
      start: isoOrNull(c.window_start_at),
      end: isoOrNull(c.window_end_at),
      weekdays: weekdaysOf(c.weekdays),
      hours: { start: c.hour_start, end: c.hour_end },
      time_zone: c.time_zone,
    },
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
    launched_at: isoOrNull(c.launched_at),
    completed_at: isoOrNull(c.completed_at),
    ...presentPublicFigures(c.figures),
  };
}

/**
 * One recipient's result, as the Customer API shows it (and the report endpoint answers):
 * the template's key, the status, the first time of each step (ISO 8601), whether remedial
 * training was assigned. A deleted employee's `email` is null.
 */
export function presentRecipientResult(
  row: Pick<
    RecipientRow,
    | 'employee_id'
    | 'employee_deleted_at'
    | 'email'
    | 'template_key'
    | 'status'
    | 'planned_at'
    | 'sent_at'
    | 'opened_at'
    | 'clicked_at'
    | 'submitted_at'
    | 'reported_at'
    | 'training_assigned_at'
  > & { first_name?: string | null },
) {
  const deleted = row.employee_deleted_at !== null || row.email === null;
  return {
    employee_id: row.employee_id,
    email: deleted ? null : row.email,
    template: row.template_key,
    status: row.status,
    sent_at: isoOrNull(row.sent_at),
    opened_at: isoOrNull(row.opened_at),
    clicked_at: isoOrNull(row.clicked_at),
    submitted_at: isoOrNull(row.submitted_at),
    reported_at: isoOrNull(row.reported_at),
    training_assigned: row.training_assigned_at !== null,
    // v2.3.0: last, so v2.2.0's fields keep their order.
    planned_at: iso(row.planned_at),
  };
}

/** A recipient as the results page's table shows it. */
export function presentAdminRecipient(row: RecipientRow) {
  const person = recipientPerson(row);
  return {
    id: row.id,
    employee: { id: row.employee_id, ...person },
    employee_deleted: row.employee_deleted_at !== null,
    template_key: row.template_key,
    group_ids: groupIdsOf(row),
    status: row.status,
    planned_at: iso(row.planned_at),
    sent_at: isoOrNull(row.sent_at),
    opened_at: isoOrNull(row.opened_at),
    clicked_at: isoOrNull(row.clicked_at),
    submitted_at: isoOrNull(row.submitted_at),
    reported_at: isoOrNull(row.reported_at),
    failed_at: isoOrNull(row.failed_at),
    training_assigned_at: isoOrNull(row.training_assigned_at),
  };
}

export function presentResultsSummary(s: ResultsSummary) {
  const c = s.campaign;
  return {
    campaign: {
      id: c.id,
      name: c.name,
      status: c.status,
      launched_at: isoOrNull(c.launched_at),
      completed_at: isoOrNull(c.completed_at),
      window_start_at: isoOrNull(c.window_start_at),
      window_end_at: isoOrNull(c.window_end_at),
      time_zone: c.time_zone,
      remedial_on: c.remedial_on,
      groups: c.groups,
      templates: c.templates,
    },
    all: s.all,
    groups: s.groups,
    templates: s.templates,
    activity: {
      bucket: s.activity.bucket,
      rows: s.activity.rows.map((r) => ({ ...r, at: iso(r.at) })),
    },
  };
}

/** One simulation of an employee's history. */
export function presentHistoryRow(row: EmployeeHistoryRow) {
  return {
    recipient_id: row.id,
    campaign: { id: row.campaign_id, name: row.campaign_name, status: row.campaign_status },
    template_key: row.template_key,
    status: row.status,
    planned_at: iso(row.planned_at),
    sent_at: isoOrNull(row.sent_at),
    opened_at: isoOrNull(row.opened_at),
    clicked_at: isoOrNull(row.clicked_at),
    submitted_at: isoOrNull(row.submitted_at),
    reported_at: isoOrNull(row.reported_at),
    failed_at: isoOrNull(row.failed_at),
    training_assigned_at: isoOrNull(row.training_assigned_at),
  };
}

/** What `presentRecipientResult` reads (the report endpoint's service returns it). */
export type RecipientResultRow = Parameters<typeof presentRecipientResult>[0];
