// Training campaigns of an account: lifecycle, progress, enrollments (docs/admin-api.md § Training campaigns).
import { apiUrl, type ListPage, type ListParams, request } from './client';

export type CampaignStatus = 'draft' | 'scheduled' | 'active' | 'completed' | 'archived';

export const CAMPAIGN_STATUSES: CampaignStatus[] = ['draft', 'scheduled', 'active', 'completed', 'archived'];

/** What a campaign's status permits now; the page shows exactly these buttons. */
export type CampaignAction = 'edit' | 'schedule' | 'unschedule' | 'launch' | 'stop' | 'archive' | 'delete';

/** The lifecycle steps that are a `POST …/campaigns/{id}/<action>`. */
export type LifecycleAction = 'schedule' | 'unschedule' | 'launch' | 'stop' | 'archive';

export interface Campaign {
  id: number;
  name: string;
  description: string;
  status: CampaignStatus;
  groups: { id: number; name: string }[];
  courses: { key: string; title: string; built_in: boolean }[];
  start_date: string | null;
  due_date: string | null;
  /** Days before the due date on which reminders go out, e.g. [7, 1]. */
  reminder_days: number[];
  enroll_new_members: boolean;
  launched_at: string | null;
  completed_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  enrolled_count: number;
  completed_count: number;
  /** Completed ÷ enrolled, as the API computes it (0–1 or a percentage: see percentText). */
  completion_rate: number | null;
  allowed_actions: CampaignAction[];
}

export interface CampaignInput {
  name: string;
  description: string;
  course_keys: string[];
  group_ids: number[];
  start_date: string | null;
  due_date: string | null;
  reminder_days: number[];
  enroll_new_members: boolean;
}

export type EnrollmentStatus = 'not_started' | 'in_progress' | 'completed' | 'overdue';

export const ENROLLMENT_STATUSES: EnrollmentStatus[] = ['not_started', 'in_progress', 'completed', 'overdue'];

export interface Progress {
  counts: Record<EnrollmentStatus | 'enrolled', number>;
  completion_rate: number | null;
  average_score: number | null;
  /** Completions per UTC day (not cumulative). */
  timeline: { date: string; completed: number }[];
  courses: { key: string; title: string; started: number; passed: number; average_score: number | null }[];
}

export interface Enrollment {
  id: number;
  employee: { id: number; first_name: string; last_name: string; email: string };
  status: EnrollmentStatus;
  enrolled_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Whole percent, once every quiz is taken. */
  score: number | null;
  last_activity_at: string | null;
  /** Set once the employee is deleted: `employee` is then "Deleted employee" "#<id>", no email. */
  employee_deleted_at: string | null;
  invitation: { status: string; sent_at: string | null } | null;
}

export interface CampaignListParams extends Omit<ListParams, 'search'> {
  status?: CampaignStatus | '';
}

export interface EnrollmentListParams extends ListParams {
  status?: EnrollmentStatus | '';
}

const base = (accountId: number) => `/accounts/${accountId}/campaigns`;

export function listCampaigns(
  accountId: number,
  params: CampaignListParams = {},
): Promise<ListPage<Campaign>> {
  return request(base(accountId), { query: { ...params } });
}

export function getCampaign(accountId: number, campaignId: number): Promise<Campaign> {
  return request(`${base(accountId)}/${campaignId}`);
}

export function createCampaign(accountId: number, input: CampaignInput): Promise<Campaign> {
  return request(base(accountId), { method: 'POST', body: input });
}

export function updateCampaign(accountId: number, campaignId: number, input: Partial<CampaignInput>) {
  return request<Campaign>(`${base(accountId)}/${campaignId}`, { method: 'PATCH', body: input });
}

export function deleteCampaign(accountId: number, campaignId: number): Promise<void> {
  return request(`${base(accountId)}/${campaignId}`, { method: 'DELETE' });
}

/** Schedule, unschedule, launch, stop or archive: one step of the lifecycle. */
export function changeCampaignStatus(accountId: number, campaignId: number, action: LifecycleAction) {
  return request<Campaign>(`${base(accountId)}/${campaignId}/${action}`, { method: 'POST' });
}

export function getProgress(accountId: number, campaignId: number): Promise<Progress> {
  return request(`${base(accountId)}/${campaignId}/progress`);
}

export function listEnrollments(
  accountId: number,
  campaignId: number,
  params: EnrollmentListParams,
  signal?: AbortSignal,
) {
  return request<ListPage<Enrollment>>(`${base(accountId)}/${campaignId}/enrollments`, {
    query: { ...params },
    ...(signal ? { signal } : {}),
  });
}

/** Queues a fresh invitation to one person (while the campaign is active). */
export function resendInvitation(accountId: number, campaignId: number, enrollmentId: number) {
  return request<Enrollment>(`${base(accountId)}/${campaignId}/enrollments/${enrollmentId}/resend`, {
    method: 'POST',
  });
}

/** The URL of the enrollments' CSV (a download, opened by the browser itself). */
export function enrollmentsCsvUrl(accountId: number, campaignId: number): string {
  return apiUrl(`${base(accountId)}/${campaignId}/enrollments.csv`);
}
