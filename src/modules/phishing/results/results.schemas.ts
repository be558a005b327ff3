import { Type } from '@sinclair/typebox';
import { errorSchema, listErrors, standardErrors } from '../../../core/http/error-responses.js';
import { OPENAPI_OVERRIDE } from '../../../core/http/openapi-components.js';
import {
  Id,
  IdParam,
  PageQuery,
  Paginated,
  POSITIVE_INTEGER_PATTERN,
  Timestamp,
} from '../../../core/http/schemas.js';
import { WEEKDAYS } from './results.presenter.js';
import { RECIPIENT_STATUS_FILTERS, RECIPIENT_STATUSES } from './results.service.js';

/** Schemas of the Customer API's phishing simulation routes (read). */

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const Count = (description: string) => Type.Integer({ minimum: 0, description });
const NullableSeconds = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

export const PublicFiguresProperties = {
  recipients: Count('People targeted (each once, whatever their groups).'),
  delivered: Count('People whose simulation the mail server accepted.'),
  opened: Count('People who opened it (human only; a click counts as an open, images are often blocked).'),
  clicked: Count('People who clicked its link (human only; scanners are not counted).'),
  submitted: Count('People who submitted the landing page’s form (the values are never stored).'),
  reported: Count('People who reported it.'),
  reported_after_click: Count(
    'People who reported it after clicking its link (also counted in `reported` and `clicked`).',
  ),
  missed: Count('People delivered who neither clicked nor reported it.'),
  phish_prone_percent: Type.Number({
    minimum: 0,
    maximum: 100,
    description:
      'People who clicked or submitted ÷ people delivered, in percent, two decimals; 0 with none delivered.',
  }),
  report_rate: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'People who reported ÷ people delivered, 0 to 1, four decimals; 0 with none delivered.',
  }),
  miss_rate: Type.Number({
    minimum: 0,
    maximum: 1,
    description:
      'People delivered who neither clicked nor reported ÷ people delivered, 0 to 1, four decimals.',
  }),
  median_seconds_to_click: NullableSeconds(
    'Median seconds from delivery to first (human) click, within 2.5 %; null when nobody clicked.',
  ),
  median_seconds_to_report: NullableSeconds(
    'Median seconds from delivery to report, within 2.5 %; null when nobody reported.',
  ),
};

const example = {
  id: 12,
  name: 'Q4 invoice simulation',
  status: 'running',
  group_ids: [3, 5],
  template_keys: ['builtin:invoice-overdue', 'custom:8'],
  window: {
    start: '2026-12-01T08:00:00.000Z',
    end: '2026-12-05T17:00:00.000Z',
    weekdays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    hours: { start: 9, end: 17 },
    time_zone: 'Europe/Berlin',
  },
  created_at: '2026-11-28T10:02:11.450Z',
  updated_at: '2026-12-01T08:00:01.032Z',
  launched_at: '2026-12-01T08:00:01.032Z',
  completed_at: null,
  recipients: 240,
  delivered: 238,
  opened: 131,
  clicked: 41,
  submitted: 12,
  reported: 57,
  reported_after_click: 9,
  missed: 149,
  phish_prone_percent: 17.23,
  report_rate: 0.2395,
  miss_rate: 0.6261,
  median_seconds_to_click: 412,
  median_seconds_to_report: 1890,
};

export const PhishingCampaign = Type.Object(
  {
    id: Id,
    name: Type.String({ examples: ['Q4 invoice simulation'] }),
    status: Type.Union(
      ['draft', 'scheduled', 'running', 'completed', 'archived'].map((s) => Type.Literal(s)),
      {
        description:
          '`draft` → `scheduled` → `running` (simulations go out inside the window) → `completed` (stopped, or the window and its grace period ended) → `archived`.',
      },
    ),
    group_ids: Type.Array(Id, { description: 'Target groups, ascending.' }),
    template_keys: Type.Array(Type.String(), {
      description:
        'The template pool, in order: `builtin:<slug>` (the library) or `custom:<id>` (the account’s own). Each person gets one at random.',
    }),
    window: Type.Object(
      {
        start: Type.Union([Timestamp, Type.Null()], { description: 'The send window’s start.' }),
        end: Type.Union([Timestamp, Type.Null()], { description: 'The send window’s end.' }),
        weekdays: Type.Array(Type.Union(WEEKDAYS.map((d) => Type.Literal(d))), {
          description: 'The days simulations go out on, Monday first.',
        }),
        hours: Type.Object(
          {
            start: Type.Integer({ minimum: 0, maximum: 24 }),
            end: Type.Integer({ minimum: 0, maximum: 24 }),
          },
          { description: 'The hours simulations go out in, [start, end), in `time_zone`.' },
        ),
        time_zone: Type.String({ description: 'IANA time zone.', examples: ['Europe/Berlin'] }),
      },
      { title: 'SendWindow', description: 'Each person gets a random moment inside the window.' },
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
    launched_at: NullableTimestamp,
    completed_at: NullableTimestamp,
    ...PublicFiguresProperties,
  },
  { title: 'PhishingCampaign', examples: [example] },
);

const resultExample = {
  employee_id: 17,
  email: 'ann.lee@example.com',
  template: 'builtin:invoice-overdue',
  status: 'clicked',
  sent_at: '2026-12-01T09:41:07.218Z',
  opened_at: '2026-12-01T10:02:55.901Z',
  clicked_at: '2026-12-01T10:03:12.406Z',
  submitted_at: null,
  reported_at: '2026-12-01T10:05:40.000Z',
  training_assigned: true,
  planned_at: '2026-12-01T09:41:05.118Z',
};

export const RecipientResult = Type.Object(
  {
    employee_id: Id,
    email: Type.Union([Type.String(), Type.Null()], {
      description: 'The person’s address; null once the employee has been deleted (their result stays).',
    }),
    template: Type.String({
      description: 'The template this person was sent (`builtin:<slug>` or `custom:<id>`).',
    }),
    status: Type.Union(
      RECIPIENT_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'Only moves up: `scheduled` → `sent` → `opened` → `clicked` → `submitted`; `failed` when the mail could not be delivered. Reporting is independent (`reported_at`).',
      },
    ),
    sent_at: Type.Union([Timestamp, Type.Null()], { description: 'When the mail server accepted it.' }),
    opened_at: Type.Union([Timestamp, Type.Null()], { description: 'First human open (or click).' }),
    clicked_at: Type.Union([Timestamp, Type.Null()], { description: 'First human click.' }),
    submitted_at: Type.Union([Timestamp, Type.Null()], { description: 'First form submission.' }),
    reported_at: Type.Union([Timestamp, Type.Null()], { description: 'First report.' }),
    training_assigned: Type.Boolean({ description: 'Remedial training was assigned after a failure.' }),
    planned_at: Type.String({
      format: 'date-time',
      description:
        'New in 2.3.0. The moment the launch planned to send this simulation: a random moment inside the send window (its weekdays and hours in the window’s time zone). `sent_at` follows within seconds once the mail server accepts it; a `scheduled` result is still waiting for this moment.',
      examples: ['2026-12-07T08:00:00.000Z'],
    }),
  },
  { title: 'PhishingRecipientResult', examples: [resultExample] },
);

export const ListPhishingCampaignsQuery = Type.Object(PageQuery);
export const PhishingCampaignParams = IdParam('campaign_id', 'The phishing campaign id.');
export const ListResultsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(
    Type.String({
      description: `Only people in this status (\`reported\`: people who reported, whatever their status). One of ${RECIPIENT_STATUS_FILTERS.map((s) => `\`${s}\``).join(', ')}.`,
      examples: ['clicked'],
      [OPENAPI_OVERRIDE]: { type: 'string', enum: [...RECIPIENT_STATUS_FILTERS], examples: ['clicked'] },
    }),
  ),
  employee_id: Type.Optional(
    Type.String({
      pattern: POSITIVE_INTEGER_PATTERN,
      description: 'Only this employee’s result (a positive integer).',
      examples: ['17'],
      [OPENAPI_OVERRIDE]: { type: 'integer', format: 'int64', minimum: 1, examples: [17] },
    }),
  ),
});

const campaignNotFound = errorSchema(
  'No phishing campaign with this id in the key’s account (or a non-numeric id).',
  [{ code: 'campaign_not_found' }],
);

export const listPhishingCampaignsResponses = {
  200: Paginated(PhishingCampaign, 'PhishingCampaignPage'),
  ...listErrors('campaigns'),
};

export const getPhishingCampaignResponses = {
  200: Type.Object(PhishingCampaign.properties, {
    description: 'The campaign with its window, templates and figures.',
    examples: [example],
  }),
  ...standardErrors('campaigns', 'read'),
  404: campaignNotFound,
};

export const listResultsResponses = {
  200: Paginated(RecipientResult, 'PhishingRecipientResultPage'),
  ...listErrors('campaigns'),
  400: errorSchema(
    '`page`, `page_size` or `employee_id` is not a positive integer, or `status` is not a known status.',
    [
      {
        code: 'validation_failed',
        details: { status: [`must be one of ${RECIPIENT_STATUS_FILTERS.join(', ')}`] },
      },
    ],
  ),
  404: errorSchema('No such phishing campaign, or the page is past the last page.', [
    { code: 'campaign_not_found' },
    { code: 'invalid_page' },
  ]),
};
