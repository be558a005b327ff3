import { iso, isoOrNull } from '../../../core/time.js';
import { allowedPhishingActions } from './campaigns.model.js';
import type { LaunchPreview, PhishingCampaignView } from './campaigns.service.js';
import { maskToWeekdays } from './campaigns.window.model.js';

/** The counters of a campaign's `all` figures row, as the admin API shows them (null before launch). */
function presentFigures(view: PhishingCampaignView) {
  const f = view.figures;
  if (!f) return null;
  return {
    recipients: f.recipients,
    delivered: f.delivered,
    failed: f.failed,
    opened: f.opened,
    clicked: f.clicked,
    submitted: f.submitted,
    reported: f.reported,
    phished: f.phished,
    training_assigned: f.training_assigned,
  };
}

/** A phishing campaign as the web interface shows it, with what can be done with it now. */
export function presentAdminPhishingCampaign(view: PhishingCampaignView) {
  return {
    id: view.id,
    name: view.name,
    description: view.description,
    status: view.status,
    groups: view.groups,
    group_ids: view.group_ids,
    templates: view.templates,
    template_keys: view.template_keys,
    remedial_courses: view.courses,
    remedial_course_keys: view.course_keys,
    window_start_at: isoOrNull(view.window_start_at),
    window_end_at: isoOrNull(view.window_end_at),
    weekdays: maskToWeekdays(view.weekdays),
    hour_start: view.hour_start,
    hour_end: view.hour_end,
    time_zone: view.time_zone,
    landing: view.landing,
    remedial_on: view.remedial_on,
    remedial_due_days: view.remedial_due_days,
    grace_hours: view.grace_hours,
    automated_window_seconds: view.automated_window_seconds,
    sender_name: view.sender_name,
    sender_address: view.sender_address,
    sender_domain: view.sender_domain,
    remedial_campaign_id: view.remedial_campaign_id,
    launched_at: isoOrNull(view.launched_at),
    completed_at: isoOrNull(view.completed_at),
    completed_reason: view.completed_reason,
    archived_at: isoOrNull(view.archived_at),
    created_at: iso(view.created_at),
    updated_at: iso(view.updated_at),
    figures: presentFigures(view),
    send_plan: {
      estimate: view.send_plan.estimate,
      first_at: isoOrNull(view.send_plan.first_at),
      last_at: isoOrNull(view.send_plan.last_at),
      next_at: isoOrNull(view.send_plan.next_at),
      open_next_day_minutes:
        view.send_plan.open_next_day_ms === null
          ? null
          : Math.floor(view.send_plan.open_next_day_ms / 60_000),
    },
    allowed_actions: allowedPhishingActions(view.status),
  };
}

/** What the launch confirmation shows: who and when, if the campaign were launched now. */
export function presentLaunchPreview(preview: LaunchPreview) {
  return {
    recipients: preview.recipients,
    first_at: isoOrNull(preview.first_at),
    last_at: isoOrNull(preview.last_at),
    time_zone: preview.time_zone,
    sender_domain: preview.sender_domain,
  };
}
