import type { Generated } from 'kysely';

/**
 * Table types. Timestamps are epoch milliseconds (integer in SQLite, bigint in PostgreSQL) so
 * one code path serves both dialects; presenters turn them into ISO 8601 strings.
 */
export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
  updated_at: number;
  /** Moves on with every change to what the account's list of groups shows (migration 0004). */
  groups_revision: Generated<number>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** The first characters of the key (`vgl_` + 8), shown in lists to recognise a key. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  secret_hash: string;
  /** JSON array of permission strings such as "groups:write". */
  permissions: string;
  /** Requests per minute. */
  rate_limit: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface EmployeesTable {
  id: Generated<number>;
  account_id: number;
  first_name: string;
  last_name: string;
  /** As first sent (trimmed). */
  email: string;
  /** Lower-cased; unique per account. */
  email_normalized: string;
  /**
   * The full name and the address folded for searching (`employeeSearchText`: case and accents
   * ignored, any script), kept in step with them on every write (migration 0006).
   */
  search_text: string;
  created_at: number;
  updated_at: number;
  /** 1, or 0 once deactivated (SCIM `active: false`): kept and readable, but trained and phished no more (migration 0013). */
  active: Generated<number>;
  /** The identity provider's id for this person (SCIM `externalId`), as it sent it. */
  external_id: string | null;
}

export interface GroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string;
  /** Kept in step with group_members in the same transaction. */
  employee_count: number;
  /** Increases with every change of membership, name or description; the ETag is made from it. */
  version: number;
  created_at: number;
  updated_at: number;
  /** The identity provider's id for this group (SCIM `externalId`), as it sent it (migration 0013). */
  external_id: string | null;
}

export interface GroupMembersTable {
  group_id: number;
  employee_id: number;
}

export type CampaignStatus = 'draft' | 'scheduled' | 'active' | 'completed' | 'archived';

export interface TrainingCampaignsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: Generated<string>;
  status: CampaignStatus;
  /** When the campaign launches (scheduled) or launched (active and later). */
  start_at: number | null;
  due_at: number | null;
  /** JSON array of whole days before the due date on which reminders go out, descending. */
  reminder_days: Generated<string>;
  /** 1: employees who join a target group while the campaign is active are enrolled too. */
  enroll_new_members: Generated<number>;
  launched_at: number | null;
  /** When it was stopped. */
  completed_at: number | null;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

/** An account's own course; its key is `custom-<id>`. Built-in courses live in `content/courses/`. */
export interface CoursesTable {
  id: Generated<number>;
  account_id: number;
  title: string;
  summary: string;
  minutes: number;
  pass_mark: number;
  /** JSON array of `{title, markdown}`. */
  lessons: string;
  /** JSON array of `{question, choices, answer, explanation}`. */
  quiz: string;
  created_at: number;
  updated_at: number;
}

export interface CampaignCoursesTable {
  campaign_id: number;
  /** A built-in slug (`phishing`) or `custom-<id>`. */
  course_key: string;
  position: number;
}

export interface EnrollmentsTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number;
  employee_id: number;
  enrolled_at: number;
  /** The learner's first recorded step (reading a lesson); opening the link alone is not one. */
  started_at: number | null;
  /** When the last of the campaign's quizzes was passed. */
  completed_at: number | null;
  /** Whole percent: the mean of the best score in each course, once every quiz has been taken. */
  score: number | null;
  last_activity_at: number | null;
  /**
   * When the employee was deleted (migration 0007): the enrollment stays as the record of their
   * training, with `employee_id` pointing at no row and no name or address; null while they exist.
   */
  employee_deleted_at: number | null;
  /** When the scheduler found it past its campaign's due date, incomplete (migration 0012; once each). */
  overdue_at: number | null;
}

export interface EnrollmentCoursesTable {
  enrollment_id: number;
  course_key: string;
  /** JSON array of the lesson indexes read. */
  lessons_read: Generated<string>;
  attempts: Generated<number>;
  best_score: number | null;
  /** JSON array of the choice indexes of the last attempt. */
  last_answers: string | null;
  passed_at: number | null;
  started_at: number;
  updated_at: number;
}

export interface CampaignRemindersTable {
  campaign_id: number;
  days_before_due: number;
  queued_at: number;
  queued_count: number;
}

export type MessageKind = 'invitation' | 'reminder' | 'link' | 'simulation';
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';

/** The durable mail queue; sent messages stay as the record (and the outbox without SMTP). */
export interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number | null;
  enrollment_id: number | null;
  kind: MessageKind;
  round: Generated<number>;
  status: MessageStatus;
  attempts: Generated<number>;
  /** MAIL_PRIORITY (mail.queue.ts): 0 someone is waiting for it, 1 bulk; workers claim 0 first. */
  priority: Generated<number>;
  next_attempt_at: number;
  /** A worker's claim on a `sending` message; an expired claim is taken over. */
  locked_until: number | null;
  /**
   * When the current attempt handed the message over for delivery (over SMTP: its last byte
   * written, the final "." of DATA about to go); cleared once the outcome is recorded. Still set
   * on a `sending` message whose claim ran out: that attempt may have been delivered.
   */
  handed_over_at: number | null;
  /** Attempts whose outcome was never learned (see handed_over_at); the message went out again. */
  attempts_in_doubt: Generated<number>;
  last_error: string | null;
  transport: 'smtp' | 'outbox' | null;
  to_address: string | null;
  subject: string | null;
  body_text: string | null;
  body_html: string | null;
  message_id: string | null;
  created_at: number;
  sent_at: number | null;
  /** A simulation's recipient (kind `simulation`, migration 0009): at most one message each. */
  phishing_recipient_id: number | null;
}

export interface CampaignGroupsTable {
  campaign_id: number;
  group_id: number;
}

export interface AppSecretsTable {
  /** What the secret is for, e.g. "cookie". */
  name: string;
  value: string;
  created_at: number;
}

export type AdminRole = 'operator' | 'account_admin';

export interface AdminUsersTable {
  id: Generated<number>;
  email: string;
  /** Lower-cased; unique across the service (one person, one sign-in). */
  email_normalized: string;
  name: Generated<string>;
  /** scrypt, in the self-describing form of `auth/password.ts`. */
  password_hash: string;
  role: AdminRole;
  /** The account of an account administrator; null for operators. */
  account_id: number | null;
  created_at: number;
  updated_at: number;
  last_sign_in_at: number | null;
}

export interface AdminSessionsTable {
  /** SHA-256 of the session token in the cookie; the token itself is never stored. */
  id_hash: string;
  user_id: number;
  created_at: number;
  /** Written at most once a minute, for the idle timeout. */
  last_seen_at: number;
  /** Absolute end of the session. */
  expires_at: number;
}

export type InvitationKind = 'setup' | 'invite';

export interface AdminInvitationsTable {
  id: Generated<number>;
  /** SHA-256 of the token in the link. */
  token_hash: string;
  /** `setup` makes the first operator; `invite` an account administrator of `account_id`. */
  kind: InvitationKind;
  email: string | null;
  account_id: number | null;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

/** An account's own phishing template (migration 0009); built-in ones live in `content/phishing/`. */
export interface PhishingTemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  summary: Generated<string>;
  subject: string;
  sender_name: string;
  /** The local part only; the domain is the campaign's. */
  sender_address: string;
  html: string;
  text: string;
  landing_html: string;
  difficulty: number;
  category: string;
  language: string;
  /** JSON array of `{text, part, quote}`. */
  red_flags: string;
  /** `builtin:<slug>` or `custom:<id>` it was cloned from. */
  cloned_from: string | null;
  created_at: number;
  updated_at: number;
}

export interface PhishingSettingsTable {
  account_id: number;
  /** JSON array of CIDR strings: the networks of the account's mail security products. */
  scanner_networks: Generated<string>;
  updated_at: number;
}

export type PhishingCampaignStatus = 'draft' | 'scheduled' | 'running' | 'completed' | 'archived';
export type PhishingLanding = 'teach_on_click' | 'teach_on_submit';
export type PhishingRemedialOn = 'click' | 'submit';

export interface PhishingCampaignsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: Generated<string>;
  status: PhishingCampaignStatus;
  window_start_at: number | null;
  window_end_at: number | null;
  /** Bit 0 Monday … bit 6 Sunday. */
  weekdays: Generated<number>;
  /** Sending hours [hour_start, hour_end) in `time_zone`. */
  hour_start: Generated<number>;
  hour_end: Generated<number>;
  /** IANA zone name. */
  time_zone: Generated<string>;
  landing: Generated<PhishingLanding>;
  remedial_on: Generated<PhishingRemedialOn>;
  grace_hours: Generated<number>;
  automated_window_seconds: Generated<number>;
  /** Null: the host of PHISH_URL. */
  sender_domain: string | null;
  /** The training campaign that enrols people who fail (made at launch when there are courses). */
  remedial_campaign_id: number | null;
  launched_at: number | null;
  completed_at: number | null;
  completed_reason: 'stopped' | 'window_ended' | null;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface PhishingCampaignGroupsTable {
  campaign_id: number;
  group_id: number;
}

export interface PhishingCampaignTemplatesTable {
  campaign_id: number;
  /** `builtin:<slug>` or `custom:<id>`. */
  template_key: string;
  position: number;
  /** JSON of the template's content at launch; null before. */
  snapshot: string | null;
}

export interface PhishingCampaignCoursesTable {
  campaign_id: number;
  course_key: string;
  position: number;
}

export type PhishingRecipientStatus = 'scheduled' | 'sent' | 'opened' | 'clicked' | 'submitted' | 'failed';

export interface PhishingRecipientsTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number;
  employee_id: number;
  employee_deleted_at: number | null;
  /** 32 base64url characters, unique. */
  token: string;
  template_key: string;
  /** JSON array of the campaign's group ids the person was in at launch. */
  group_ids: string;
  planned_at: number;
  status: PhishingRecipientStatus;
  sent_at: number | null;
  opened_at: number | null;
  clicked_at: number | null;
  submitted_at: number | null;
  reported_at: number | null;
  failed_at: number | null;
  training_assigned_at: number | null;
  enrollment_id: number | null;
  /** When the first click was announced (webhook), once it settled (migration 0015); null before. */
  click_announced_at: number | null;
}

export type PhishingEventKind =
  | 'sent'
  | 'delivery_failed'
  | 'opened'
  | 'clicked'
  | 'submitted'
  | 'interaction'
  | 'reported'
  | 'training_assigned';
export type PhishingClassification = 'human' | 'automated';

export interface PhishingEventsTable {
  id: Generated<number>;
  account_id: number;
  campaign_id: number;
  recipient_id: number;
  kind: PhishingEventKind;
  occurred_at: number;
  client_address: string | null;
  user_agent: string | null;
  classification: PhishingClassification;
  reason: string;
  /** JSON array of a submission's field names; values are never stored. */
  field_names: string | null;
  original_classification: PhishingClassification | null;
  reclassified_by: number | null;
  reclassified_at: number | null;
  reclassified_reason: string | null;
  /** When a person's open or click settles (the burst window passed; migration 0015); null: settled. */
  settles_at: number | null;
}

export type PhishingDimension = 'all' | 'group' | 'template';

export interface PhishingFiguresTable {
  campaign_id: number;
  dimension: PhishingDimension;
  /** '' for `all`, the group id as text, or the template key. */
  dimension_key: string;
  recipients: Generated<number>;
  delivered: Generated<number>;
  failed: Generated<number>;
  opened: Generated<number>;
  clicked: Generated<number>;
  submitted: Generated<number>;
  reported: Generated<number>;
  /** People who clicked or submitted. */
  phished: Generated<number>;
  training_assigned: Generated<number>;
  raw_opens: Generated<number>;
  raw_clicks: Generated<number>;
  raw_submits: Generated<number>;
  automated_events: Generated<number>;
}

export interface PhishingFigureDelaysTable {
  campaign_id: number;
  dimension: PhishingDimension;
  dimension_key: string;
  step: 'click' | 'report';
  bucket: number;
  people: Generated<number>;
}

export interface PhishingActivityTable {
  campaign_id: number;
  /** The hour's start, epoch ms. */
  hour: number;
  delivered: Generated<number>;
  opened: Generated<number>;
  clicked: Generated<number>;
  submitted: Generated<number>;
  reported: Generated<number>;
}

/** A Customer API request made with an `Idempotency-Key` (migration 0010). */
export interface IdempotencyKeysTable {
  id: Generated<number>;
  account_id: number;
  api_key_id: number;
  key: string;
  fingerprint: string;
  state: 'running' | 'done';
  locked_until: number;
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  created_at: number;
  expires_at: number;
}

/** A deleted employee or group, for incremental sync (migration 0011). */
export interface TombstonesTable {
  account_id: number;
  resource: 'employee' | 'group';
  resource_id: number;
  deleted_at: number;
}

/** An account's SCIM bearer tokens (migration 0013): like API keys, only the hash is kept. */
export interface ScimTokensTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** `vgs_` and the next 8 characters, shown in lists to recognise a token. */
  prefix: string;
  /** SHA-256 of the whole token, hex. */
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A receiver of an account's webhooks (migration 0012). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  description: string;
  /** JSON array of event types; null: every event. */
  event_types: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  disabled_at: number | null;
  disabled_reason: WebhookDisabledReason | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export type WebhookDisabledReason = 'manual' | 'failing' | 'gone';

/** One event of an account, as signed and sent (migration 0012). */
export interface WebhookEventsTable {
  id: Generated<number>;
  account_id: number;
  message_id: string;
  type: string;
  payload: string;
  created_at: number;
  /** 1 until a worker has written the event's deliveries (migration 0014); 0 after, and for test events. */
  fanout_pending: Generated<number>;
}

export type WebhookDeliveryStatus = 'queued' | 'sending' | 'succeeded' | 'failed' | 'cancelled';

/** One event to one endpoint: the durable queue the workers claim from (migration 0012). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  endpoint_id: number;
  event_id: number;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  locked_until: number | null;
  last_attempt_at: number | null;
  response_status: number | null;
  response_excerpt: string | null;
  last_error: string | null;
  created_at: number;
  succeeded_at: number | null;
}

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  scim_tokens: ScimTokensTable;
  employees: EmployeesTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  training_campaigns: TrainingCampaignsTable;
  campaign_groups: CampaignGroupsTable;
  courses: CoursesTable;
  campaign_courses: CampaignCoursesTable;
  enrollments: EnrollmentsTable;
  enrollment_courses: EnrollmentCoursesTable;
  campaign_reminders: CampaignRemindersTable;
  messages: MessagesTable;
  app_secrets: AppSecretsTable;
  admin_users: AdminUsersTable;
  admin_sessions: AdminSessionsTable;
  admin_invitations: AdminInvitationsTable;
  phishing_templates: PhishingTemplatesTable;
  phishing_settings: PhishingSettingsTable;
  phishing_campaigns: PhishingCampaignsTable;
  phishing_campaign_groups: PhishingCampaignGroupsTable;
  phishing_campaign_templates: PhishingCampaignTemplatesTable;
  phishing_campaign_courses: PhishingCampaignCoursesTable;
  phishing_recipients: PhishingRecipientsTable;
  phishing_events: PhishingEventsTable;
  phishing_figures: PhishingFiguresTable;
  phishing_figure_delays: PhishingFigureDelaysTable;
  phishing_activity: PhishingActivityTable;
  idempotency_keys: IdempotencyKeysTable;
  tombstones: TombstonesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
