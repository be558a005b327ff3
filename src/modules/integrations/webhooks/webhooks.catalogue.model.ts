/**
 * The webhook event catalogue: every event type an endpoint can subscribe to, what it means and
 * a sample of its body. `data` is the Customer API's representation of the object where one
 * exists. The docs page and docs/webhooks.md are made from this list.
 */

const at = '2026-11-22T09:14:03.512Z';
const employee = {
  id: 17,
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann.lee@example.com',
  created_at: at,
  updated_at: at,
};
const group = { id: 3, name: 'Sales', description: 'Everyone in sales', employee_count: 2 };
const campaign = {
  id: 5,
  name: 'Security basics 2026',
  description: '',
  status: 'active',
  group_ids: [3],
  courses: [{ key: 'phishing-basics', title: 'Phishing basics' }],
  start_date: at,
  due_date: '2026-12-22T09:14:03.512Z',
  reminder_days: [7, 1],
  enroll_new_members: true,
  launched_at: at,
  completed_at: null,
  enrolled_count: 2,
  completed_count: 0,
  completion_rate: 0,
  created_at: at,
  updated_at: at,
};
const enrollment = {
  id: 41,
  employee: { id: 17, first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' },
  status: 'not_started',
  enrolled_at: at,
  started_at: null,
  completed_at: null,
  score: null,
};
const phishingCampaign = {
  id: 8,
  name: 'Q4 phishing',
  status: 'running',
  group_ids: [3],
  template_keys: ['builtin:parcel-delivery'],
  launched_at: at,
  completed_at: null,
};
const simulation = {
  campaign_id: 8,
  recipient_id: 120,
  employee_id: 17,
  template: 'builtin:parcel-delivery',
  status: 'clicked',
  at,
};

const report = {
  id: 42,
  sender: 'helpdesk@mail-secure.example',
  sender_domain: 'mail-secure.example',
  subject: 'Your mailbox is full',
  reporter_count: 1,
  first_reported_at: at,
  last_reported_at: at,
  verdict: null,
  verdict_note: null,
  verdict_at: null,
  verdict_by: null,
  content_deleted_at: null,
  reporters: [
    {
      address: 'ann.lee@example.com',
      employee_id: 17,
      channel: 'addin',
      reported_at: at,
      last_reported_at: at,
      feedback_verdict: null,
      feedback_at: null,
    },
  ],
};

export const WEBHOOK_EVENTS = [
  {
    type: 'employee.created',
    description: 'An employee was created (Customer API, web interface, import).',
    data: employee,
  },
  { type: 'employee.updated', description: 'An employee’s name or address changed.', data: employee },
  {
    type: 'employee.deleted',
    description: 'An employee was deleted (offboarded); their training history stays.',
    data: { id: 17 },
  },
  { type: 'group.created', description: 'A group was created.', data: group },
  {
    type: 'group.updated',
    description: 'A group was renamed or its description changed.',
    data: group,
  },
  { type: 'group.deleted', description: 'A group was deleted.', data: { id: 3 } },
  {
    type: 'group.membership_changed',
    description:
      'Employees joined or left a group (replacement, addition, removal, an employee deleted): the ids that were added and removed.',
    data: { group, added_employee_ids: [21, 22], removed_employee_ids: [18] },
  },
  {
    type: 'training.campaign_launched',
    description: 'A training campaign was launched (at once, or by the scheduler at its start).',
    data: campaign,
  },
  {
    type: 'training.campaign_completed',
    description: 'A training campaign was stopped (completed).',
    data: { ...campaign, status: 'completed', completed_at: at },
  },
  {
    type: 'training.enrollment_created',
    description:
      'An employee was enrolled in a training campaign (its launch, joining a target group of an active campaign, or remedial training after a simulation they failed).',
    data: { campaign_id: 5, enrollment },
  },
  {
    type: 'training.enrollment_completed',
    description: 'An enrolled employee completed the training (passed the last quiz).',
    data: {
      campaign_id: 5,
      enrollment: { ...enrollment, status: 'completed', started_at: at, completed_at: at, score: 90 },
    },
  },
  {
    type: 'training.enrollment_overdue',
    description:
      'The campaign’s due date passed and the enrollment is not completed (sent once per enrollment).',
    data: { campaign_id: 5, enrollment: { ...enrollment, status: 'in_progress', started_at: at } },
  },
  {
    type: 'phishing.campaign_launched',
    description: 'A phishing campaign started (its simulations are being sent).',
    data: phishingCampaign,
  },
  {
    type: 'phishing.campaign_completed',
    description: 'A phishing campaign completed (its window and grace period ended, or it was stopped).',
    data: { ...phishingCampaign, status: 'completed', completed_at: at },
  },
  {
    type: 'phishing.simulation_clicked',
    description:
      'A person clicked a simulation’s link for the first time (scanners excluded): sent once the click has settled, 15 to 45 seconds after it (a scanner’s burst from one address is recognised by then), or at once when the person submits the form or presses a button of the landing page.',
    data: simulation,
  },
  {
    type: 'phishing.simulation_submitted',
    description: 'A person submitted the simulation’s landing-page form for the first time.',
    data: simulation,
  },
  {
    type: 'phishing.simulation_reported',
    description: 'A person reported a simulation for the first time.',
    data: simulation,
  },
  {
    type: 'report.received',
    description:
      'Someone reported a message that is no simulation: a new real report, or one more reporter of an earlier one (`created` says which). `report` is the report as `GET /customer/reports/{report_id}/` lists it (its content is read there, with `reports:read`).',
    data: { created: true, reporter: report.reporters[0], report },
  },
  {
    type: 'report.verdict',
    description:
      'A real report was given a verdict (`malicious`, `spam` or `safe`), by an administrator or a rule; its reporters are being told.',
    data: {
      ...report,
      verdict: 'malicious',
      verdict_note: 'Credential phishing; sender blocked at the gateway.',
      verdict_at: at,
      verdict_by: { kind: 'admin', id: 2, name: 'Sam Rivera' },
    },
  },
  {
    type: 'webhook.test',
    description:
      'Sent only by “Send test event” to one endpoint, whatever its filter: check that your receiver verifies the signature.',
    data: { endpoint_id: 1, message: 'This is a test event from Vigil.' },
  },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['type'];

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENTS.map((e) => e.type);

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The catalogue as the docs show it: type, description and a sample body. */
export function webhookCatalogue(): Array<{
  type: WebhookEventType;
  description: string;
  sample: { type: WebhookEventType; timestamp: string; data: unknown };
}> {
  return WEBHOOK_EVENTS.map((e) => ({
    type: e.type,
    description: e.description,
    sample: { type: e.type, timestamp: at, data: e.data },
  }));
}
