import type { Generated } from 'kysely';

/** The tables of templates, settings, campaigns, recipients, events, figures. */

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
  /** The account's default sender name, address (the part before the @) and domain; null: none. */
  sender_name: string | null;
  sender_address: string | null;
  sender_domain: string | null;
  /** The header simulations carry and report paths read (migration 0021); null: `X-Vigil-Simulation`. */
  simulation_header: string | null;
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
  /** Null: the account's default, then the host of PHISH_URL. */
  sender_domain: string | null;
  /** Null: the account's default, then the template's own. */
  sender_name: string | null;
  /** The part before the @; null: the account's default, then the template's own. */
  sender_address: string | null;
  /** The first and last moment the launch planned (null before launch). */
  planned_first_at: number | null;
  planned_last_at: number | null;
  /** The training campaign that enrols people who fail (made at launch when there are courses). */
  remedial_campaign_id: number | null;
  /** Days from a person's failure to the due date of their remedial training (migration 0017). */
  remedial_due_days: Generated<number>;
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
  /** People who reported after they clicked (migration 0021). */
  reported_after_click: Generated<number>;
  /** People delivered who neither clicked nor reported (migration 0021). */
  missed: Generated<number>;
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

/** An account's reporting address and retention (migration 0021); made when first needed. */
export interface ReportingSettingsTable {
  account_id: number;
  /** The `<id>` of `report+<id>@REPORT_DOMAIN`: random, unique, not a secret; null until first needed. */
  reporting_id: string | null;
  /** Days a reported message's content is kept after its last report; null: 90. */
  retention_days: number | null;
  updated_at: number;
}

export type ReportVerdict = 'malicious' | 'spam' | 'safe';

export type ReportChannel = 'addin' | 'smtp' | 'api';

/** A real report: identical reported messages, grouped (migration 0021). */
export interface ReportsTable {
  id: Generated<number>;
  account_id: number;
  /** The reported message's From address, lower-cased ('' when it had none). */
  sender: string;
  sender_domain: string;
  subject: string;
  /** SHA-256 of sender, subject and normalised text, hex. */
  body_fingerprint: string;
  /** SHA-256 of the sorted distinct URLs, hex; null when the message had none. */
  url_fingerprint: string | null;
  /** Distinct people who reported it. */
  reporters: Generated<number>;
  first_reported_at: number;
  last_reported_at: number;
  verdict: ReportVerdict | null;
  verdict_note: string | null;
  verdict_at: number | null;
  verdict_admin_id: number | null;
  verdict_rule_id: number | null;
  /** The safe view as JSON (reports.content.model.ts); null once retention deleted it. */
  content: string | null;
  content_deleted_at: number | null;
}

export interface ReportReportersTable {
  id: Generated<number>;
  account_id: number;
  report_id: number;
  /** Null when the address is no (longer an) employee of the account. */
  employee_id: number | null;
  /** Lower-cased. */
  address: string;
  channel: ReportChannel;
  reported_at: number;
  last_reported_at: number;
  /** The verdict the reporter's feedback mail was queued for; null: none yet. */
  feedback_verdict: ReportVerdict | null;
  feedback_at: number | null;
}

export type ReportRuleKind = 'sender_domain' | 'url_host';

export interface ReportRulesTable {
  id: Generated<number>;
  account_id: number;
  kind: ReportRuleKind;
  /** A lower-cased domain or host. */
  value: string;
  verdict: ReportVerdict;
  note: Generated<string>;
  created_at: number;
}

export interface ReportFeedbackTemplatesTable {
  account_id: number;
  verdict: ReportVerdict;
  subject: string;
  body: string;
  updated_at: number;
}

/**
 * One test send (migration 0022): a simulation an administrator sent to one of the account's
 * employees to see whether mail lands, outside every campaign.
 */
export interface PhishingTestSendsTable {
  id: Generated<number>;
  account_id: number;
  /** 30 random bytes in base64url (40 characters): a recipient's token has 32. */
  token: string;
  employee_id: number | null;
  email: string;
  template_key: string;
  template_name: string;
  /** The template as it was sent (JSON). */
  snapshot: string;
  admin_id: number | null;
  /** Its message in the mail queue (kind `simulation_test`). */
  message_id: number | null;
  /** `queued`, then `sent` or `failed` as the mail worker records it. */
  status: Generated<string>;
  /** Hits recorded (at most TEST_HITS_MAX). */
  hits: Generated<number>;
  created_at: number;
  /** When the SMTP server accepted it. */
  delivered_at: number | null;
}

/** A hit on a test send's image or link, classified as a simulation's would be. */
export interface PhishingTestHitsTable {
  id: Generated<number>;
  account_id: number;
  test_send_id: number;
  kind: 'open' | 'click';
  method: string;
  classification: PhishingClassification;
  reason: string;
  detail: string | null;
  client_address: string | null;
  user_agent: string | null;
  occurred_at: number;
}

export interface PhishingTables {
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
  reporting_settings: ReportingSettingsTable;
  reports: ReportsTable;
  report_reporters: ReportReportersTable;
  report_rules: ReportRulesTable;
  report_feedback_templates: ReportFeedbackTemplatesTable;
  phishing_test_sends: PhishingTestSendsTable;
  phishing_test_hits: PhishingTestHitsTable;
}
