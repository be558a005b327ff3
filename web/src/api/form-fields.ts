// Every form's names for the fields of the admin API routes it sends to: the server's messages
// are shown under these names (ErrorAlert, fieldError), never under the API's. One list, so that
// test/web-field-names.test.ts can check each form names every field its routes' schemas can
// report, and that every route with a JSON body belongs to a form.
import type { FieldNames } from './field-names.js';

export interface FormFields {
  /** The routes whose errors the form shows: `METHOD /path`, as the admin API's document names them. */
  readonly operations: readonly string[];
  /** The form's name of each field (see FieldNames); one it does not show says so. */
  readonly names: FieldNames;
}

const NAME = { name: 'Name' } as const;
const COURSE_FIELDS = {
  title: 'Title',
  max_attempts: 'Attempts allowed',
  answers_shown: 'Right answers shown',
  summary: 'Summary',
  minutes: 'Minutes',
  pass_mark: 'Pass mark',
  lessons: 'Lessons',
  'lessons[]': 'Lesson {1}',
  'lessons[].title': 'Lesson {1}, title',
  'lessons[].markdown': 'Lesson {1}, text',
  quiz: 'Quiz',
  'quiz[]': 'Question {1}',
  'quiz[].question': 'Question {1}, question',
  'quiz[].choices': 'Question {1}, choices',
  'quiz[].choices[]': 'Question {1}, choice {2}',
  'quiz[].answer': 'Question {1}, correct answer',
  'quiz[].explanation': 'Question {1}, explanation',
} as const;
const TEMPLATE_FIELDS = {
  name: 'Name',
  summary: 'Summary',
  subject: 'Subject',
  sender_name: 'Sender name',
  sender_address: 'Sender address',
  html: 'HTML body',
  text: 'Text body',
  landing_html: 'Landing page HTML',
  difficulty: 'Difficulty',
  category: 'Category',
  language: 'Language',
  red_flags: 'Red flags',
  'red_flags[]': 'Red flag {1}',
  'red_flags[].text': 'Red flag {1}, why it is suspicious',
  'red_flags[].part': 'Red flag {1}, points at',
  'red_flags[].quote': 'Red flag {1}, quote',
} as const;

export const FORM_FIELDS = {
  signIn: { operations: ['POST /session'], names: { email: 'Email', password: 'Password' } },
  changePassword: {
    operations: ['POST /session/password'],
    names: { current_password: 'Current password', new_password: 'New password' },
  },
  acceptLink: {
    operations: ['POST /invitations/{token}/accept'],
    names: { email: 'Email', name: 'Name', password: 'Password' },
  },
  account: { operations: ['POST /accounts', 'PATCH /accounts/{accountId}'], names: NAME },
  triagePermission: {
    operations: ['PUT /accounts/{accountId}/admins/{id}/triage'],
    names: { can_triage: 'Triage permission' },
  },
  invitation: {
    operations: ['POST /accounts/{accountId}/invitations'],
    names: { email: 'Email', role: 'Role', group_ids: 'Groups' },
  },
  adminRole: {
    operations: ['PUT /accounts/{accountId}/admins/{id}/role'],
    names: { role: 'Role', group_ids: 'Groups' },
  },
  newKey: {
    operations: ['POST /accounts/{accountId}/keys'],
    names: { name: 'Name', permissions: 'Permissions', expires_at: 'Expires' },
  },
  keyRateLimit: {
    operations: ['PATCH /accounts/{accountId}/keys/{id}'],
    names: { rate_limit: 'Requests per minute' },
  },
  scimToken: { operations: ['POST /accounts/{accountId}/scim-tokens'], names: NAME },
  employee: {
    operations: [
      'POST /accounts/{accountId}/employees',
      'PATCH /accounts/{accountId}/employees/{employeeId}',
    ],
    names: { first_name: 'First name', last_name: 'Last name', email: 'Email' },
  },
  employeeImport: {
    operations: ['POST /accounts/{accountId}/employees/import'],
    names: {
      rows: 'The rows of the file',
      'rows[]': 'Row {1} of this part of the file',
      'rows[].first_name': 'First name',
      'rows[].last_name': 'Last name',
      'rows[].email': 'Email',
      dry_run: 'Whether to check only',
    },
  },
  group: {
    operations: ['POST /accounts/{accountId}/groups', 'PATCH /accounts/{accountId}/groups/{groupId}'],
    names: { name: 'Name', description: 'Description' },
  },
  groupMembers: {
    operations: [
      'POST /accounts/{accountId}/groups/{groupId}/members',
      'POST /accounts/{accountId}/groups/{groupId}/members/remove',
    ],
    names: { employee_ids: 'The people chosen' },
  },
  groupMembersByEmail: {
    operations: ['POST /accounts/{accountId}/groups/{groupId}/members/by-email'],
    names: { emails: 'Email addresses' },
  },
  campaign: {
    operations: [
      'POST /accounts/{accountId}/campaigns',
      'PATCH /accounts/{accountId}/campaigns/{campaignId}',
    ],
    // campaign-fields.ts holds the compiler to every field of the API's `CampaignField`.
    names: {
      name: 'Name',
      description: 'Description',
      course_keys: 'Courses',
      group_ids: 'Target groups',
      start_date: 'Start date',
      due_date: 'Due date',
      reminder_days: 'Reminders',
      enroll_new_members: 'Enroll people who join a target group',
    },
  },
  course: {
    operations: ['POST /accounts/{accountId}/courses', 'PUT /accounts/{accountId}/courses/{courseKey}'],
    names: COURSE_FIELDS,
  },
  quizRules: {
    operations: ['PUT /accounts/{accountId}/courses/{courseKey}/quiz-rules'],
    names: { max_attempts: 'Attempts allowed', answers_shown: 'Right answers shown' },
  },
  sso: {
    operations: ['PUT /accounts/{accountId}/sso'],
    names: {
      protocol: 'Protocol',
      enabled: 'Sign-in open',
      allowed_domains: 'Allowed email domains',
      'allowed_domains[]': 'Allowed email domain {1}',
      groups_claim: 'Groups claim or attribute',
      role_mapping: 'Group roles',
      'role_mapping[]': 'Group role {1}',
      'role_mapping[].group': 'Group role {1}, group',
      'role_mapping[].role': 'Group role {1}, role',
      oidc: 'OpenID Connect',
      'oidc.issuer': 'Issuer URL',
      'oidc.client_id': 'Client ID',
      'oidc.client_secret': 'Client secret',
      'oidc.acr_values': 'Authentication context (acr values)',
      saml: 'SAML',
      'saml.metadata_xml': 'IdP metadata',
      'saml.metadata_url': 'IdP metadata URL',
    },
  },
  ssoSignIn: {
    operations: ['PUT /accounts/{accountId}/sso/sign-in', 'PUT /accounts/{accountId}/sso/break-glass/{id}'],
    names: {
      sso_only: 'SSO only',
      default_role: 'Role of new administrators',
      break_glass: 'Break-glass owner',
    },
  },
  secondStep: {
    operations: ['POST /session/mfa'],
    names: { totp_code: 'Code', recovery_code: 'Recovery code', passkey: 'Passkey' },
  },
  mfaFactor: {
    operations: ['POST /mfa/totp/confirm', 'POST /mfa/passkeys', 'PATCH /mfa/factors/{factorId}'],
    names: { factor_id: 'Authenticator app', code: 'Code', name: 'Name', response: 'Passkey' },
  },
  mfaRequirement: {
    operations: ['PUT /accounts/{accountId}/security/mfa'],
    names: { require_mfa: 'Require a second factor of every administrator' },
  },
  auditSettings: {
    operations: ['PUT /accounts/{accountId}/audit-log/settings'],
    names: { audit_retention_days: 'Keep for (days)' },
  },
  accountSettings: {
    operations: ['PATCH /accounts/{accountId}/settings'],
    names: { display_name: 'Name employees see' },
  },
  template: {
    operations: [
      'POST /accounts/{accountId}/phishing/templates',
      'PUT /accounts/{accountId}/phishing/templates/{templateKey}',
      'POST /accounts/{accountId}/phishing/templates/preview',
    ],
    names: TEMPLATE_FIELDS,
  },
  templateClone: {
    operations: ['POST /accounts/{accountId}/phishing/templates/{templateKey}/clone'],
    names: { name: 'The copy’s name' },
  },
  phishingSettings: {
    operations: ['PUT /accounts/{accountId}/phishing/settings'],
    names: {
      scanner_networks: 'Scanner networks',
      'scanner_networks[]': 'Scanner networks, line {1}',
      sender_name: 'Sender name',
      sender_address: 'Sender address',
      sender_domain: 'Sender domain',
      simulation_header: 'Simulation header',
    },
  },
  verdict: {
    operations: ['POST /accounts/{accountId}/reports/{reportId}/verdict'],
    names: { verdict: 'Verdict', note: 'Note' },
  },
  reportRule: {
    operations: ['POST /accounts/{accountId}/report-rules'],
    names: { kind: 'Kind', value: 'Domain or host', verdict: 'Verdict', note: 'Note' },
  },
  reportingSettings: {
    operations: ['PUT /accounts/{accountId}/reporting/settings'],
    names: { retention_days: 'Days to keep reported content' },
  },
  feedbackTemplate: {
    operations: ['PUT /accounts/{accountId}/reporting/feedback-templates/{verdict}'],
    names: { subject: 'Subject', body: 'Body' },
  },
  testSend: {
    operations: ['POST /accounts/{accountId}/phishing/delivery/test-sends'],
    names: { email: 'Employee’s address', template_key: 'Template' },
  },
  reclassify: {
    operations: ['POST /accounts/{accountId}/phishing/campaigns/{campaignId}/events/{eventId}/reclassify'],
    names: { classification: 'Classification', reason: 'Reason' },
  },
  phishingCampaign: {
    operations: [
      'POST /accounts/{accountId}/phishing/campaigns',
      'PATCH /accounts/{accountId}/phishing/campaigns/{campaignId}',
    ],
    names: {
      name: 'Name',
      description: 'Description',
      group_ids: 'Target groups',
      template_keys: 'Templates',
      remedial_course_keys: 'Courses',
      window_start_at: 'Window starts',
      window_end_at: 'Window ends',
      weekdays: 'Weekdays',
      hour_start: 'From hour',
      hour_end: 'Until hour',
      time_zone: 'Time zone',
      landing: 'Landing',
      remedial_on: 'Failing means',
      remedial_due_days: 'Training due after (days)',
      grace_hours: 'Grace period (hours)',
      automated_window_seconds:
        'The window in which a click counts as a scanner’s (set from the command line)',
      sender_name: 'Sender name',
      sender_address: 'Sender address',
      sender_domain: 'Sender domain',
    },
  },
  webhookEndpoint: {
    operations: [
      'POST /accounts/{accountId}/webhooks/endpoints',
      'PATCH /accounts/{accountId}/webhooks/endpoints/{id}',
    ],
    names: { url: 'URL', description: 'Description', event_types: 'Events', enabled: 'Enabled' },
  },
} as const satisfies Record<string, FormFields>;

export type FormName = keyof typeof FORM_FIELDS;

/** The names a form gives the fields of its routes. */
export const namesOf = (form: FormName): FieldNames => FORM_FIELDS[form].names;
