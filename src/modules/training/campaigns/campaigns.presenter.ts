import { iso, isoOrNull } from '../../../core/time.js';
import {
  type AdminEnrollmentView,
  type Enrollment,
  enrollmentPerson,
} from './campaigns.enrollments.service.js';
import { allowedActions } from './campaigns.model.js';
import { completionRate } from './campaigns.progress.service.js';
import type { CampaignView } from './campaigns.service.js';

/** A campaign as the Customer API shows it. */
export function presentCampaign(campaign: CampaignView) {
  return {
    id: campaign.id,
    name: campaign.name,
    description: campaign.description,
    status: campaign.status,
    group_ids: campaign.group_ids,
    courses: campaign.courses,
    start_date: isoOrNull(campaign.start_at),
    due_date: isoOrNull(campaign.due_at),
    reminder_days: campaign.reminders,
    enroll_new_members: campaign.enroll_new_members === 1,
    launched_at: isoOrNull(campaign.launched_at),
    completed_at: isoOrNull(campaign.completed_at),
    enrolled_count: campaign.counts.enrolled,
    completed_count: campaign.counts.completed,
    completion_rate: completionRate(campaign.counts.enrolled, campaign.counts.completed),
    created_at: iso(campaign.created_at),
    updated_at: iso(campaign.updated_at),
  };
}

/** A campaign as the web interface shows it: its target groups named, and what can be done with it now. */
export function presentAdminCampaign(campaign: CampaignView) {
  const { group_ids: _ids, ...shown } = presentCampaign(campaign);
  return {
    ...shown,
    groups: campaign.groups,
    archived_at: isoOrNull(campaign.archived_at),
    allowed_actions: allowedActions(campaign.status),
  };
}

/** An enrollment as the Customer API shows it. */
export function presentEnrollment(enrollment: Enrollment) {
  return {
    id: enrollment.id,
    employee: enrollmentPerson(enrollment),
    status: enrollment.status,
    enrolled_at: iso(enrollment.enrolled_at),
    started_at: isoOrNull(enrollment.started_at),
    completed_at: isoOrNull(enrollment.completed_at),
    score: enrollment.score,
  };
}

/** An enrollment in the web interface: with the last activity, how the invitation went and the quiz attempts. */
export function presentAdminEnrollment(enrollment: AdminEnrollmentView) {
  return {
    ...presentEnrollment(enrollment),
    last_activity_at: isoOrNull(enrollment.last_activity_at),
    due_at: isoOrNull(enrollment.due_at),
    employee_deleted_at: isoOrNull(enrollment.employee_deleted_at),
    invitation:
      enrollment.invitation_status === null
        ? null
        : { status: enrollment.invitation_status, sent_at: isoOrNull(enrollment.invitation_sent_at) },
    attempt_count: enrollment.attemptCount,
    attempts: enrollment.attempts.map((a) => ({
      course_key: a.course_key,
      number: a.number,
      score: a.score,
      passed: a.passed === 1,
      submitted_at: iso(a.submitted_at),
    })),
  };
}
