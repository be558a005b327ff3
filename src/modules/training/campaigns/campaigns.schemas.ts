import { Type } from '@sinclair/typebox';
import { errorSchema, listErrors, standardErrors } from '../../../core/http/error-responses.js';
import { OPENAPI_OVERRIDE } from '../../../core/http/openapi-components.js';
import { Id, IdParam, PageQuery, Paginated, Timestamp } from '../../../core/http/schemas.js';
import { ENROLLMENT_STATUSES } from '../enrollments/enrollments.repository.js';

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

const CourseRef = Type.Object(
  {
    key: Type.String({
      description: 'A built-in course (`phishing`) or one of the account’s own (`custom-12`).',
      examples: ['phishing'],
    }),
    title: Type.String({ examples: ['Spotting phishing'] }),
    built_in: Type.Boolean(),
  },
  { title: 'CourseRef' },
);

const example = {
  id: 4,
  name: 'Phishing basics 2026',
  description: 'Yearly refresher for everyone.',
  status: 'active',
  group_ids: [3],
  courses: [{ key: 'phishing', title: 'Spotting phishing', built_in: true }],
  start_date: '2026-12-01T09:00:00.000Z',
  due_date: '2026-12-15T23:59:59.999Z',
  reminder_days: [7, 1],
  enroll_new_members: true,
  launched_at: '2026-12-01T09:00:02.114Z',
  completed_at: null,
  enrolled_count: 40,
  completed_count: 31,
  completion_rate: 0.775,
  created_at: '2026-11-22T09:14:03.512Z',
  updated_at: '2026-12-01T09:00:02.114Z',
};

export const TrainingCampaign = Type.Object(
  {
    id: Id,
    name: Type.String({ examples: ['Phishing basics 2026'] }),
    description: Type.String(),
    status: Type.Union(
      ['draft', 'scheduled', 'active', 'completed', 'archived'].map((s) => Type.Literal(s)),
      {
        description:
          '`draft` → `scheduled` (launches by itself at `start_date`) → `active` (people enrolled and invited) → `completed` (stopped) → `archived`. A new campaign is `draft`.',
      },
    ),
    group_ids: Type.Array(Id, { description: 'Target groups, ascending.' }),
    courses: Type.Array(CourseRef, { description: 'The courses every enrolled person takes, in order.' }),
    start_date: Type.Union([Timestamp, Type.Null()], {
      description: 'When it launches (scheduled) or launched (active and later).',
    }),
    due_date: NullableTimestamp,
    reminder_days: Type.Array(Type.Integer({ minimum: 1 }), {
      description: 'Reminders go to people who have not completed, this many days before the due date.',
    }),
    enroll_new_members: Type.Boolean({
      description: 'While active, people who join a target group are enrolled and invited too.',
    }),
    launched_at: NullableTimestamp,
    completed_at: Type.Union([Timestamp, Type.Null()], { description: 'When it was stopped.' }),
    enrolled_count: Type.Integer({
      minimum: 0,
      description: 'People enrolled (each once, whatever their groups).',
    }),
    completed_count: Type.Integer({ minimum: 0, description: 'People who passed every course.' }),
    completion_rate: Type.Number({
      minimum: 0,
      maximum: 1,
      description: '`completed_count / enrolled_count`, 0 to 1, four decimal places; 0 with nobody enrolled.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'TrainingCampaign', examples: [example] },
);

export const Enrollment = Type.Object(
  {
    id: Id,
    employee: Type.Object(
      { id: Id, first_name: Type.String(), last_name: Type.String(), email: Type.String() },
      {
        title: 'EmployeeSummary',
        description:
          'The person enrolled. A deleted employee’s training record stays, anonymised: `first_name` ' +
          '"Deleted employee", `last_name` "#" and their former id, `email` empty.',
      },
    ),
    status: Type.Union(
      ['not_started', 'in_progress', 'completed', 'overdue'].map((s) => Type.Literal(s)),
      { description: '`overdue`: not completed and past the campaign’s due date.' },
    ),
    enrolled_at: Timestamp,
    started_at: Type.Union([Timestamp, Type.Null()], { description: 'The first lesson read.' }),
    completed_at: Type.Union([Timestamp, Type.Null()], { description: 'The last course’s quiz passed.' }),
    score: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description:
        'Whole percent: the mean of the best quiz score in each course, once every quiz has been taken.',
    }),
  },
  {
    title: 'Enrollment',
    examples: [
      {
        id: 912,
        employee: { id: 17, first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' },
        status: 'completed',
        enrolled_at: '2026-12-01T09:00:02.114Z',
        started_at: '2026-12-02T08:41:10.020Z',
        completed_at: '2026-12-02T09:03:55.731Z',
        score: 92,
      },
    ],
  },
);

export const ListCampaignsQuery = Type.Object(PageQuery);
export const CampaignParams = IdParam('campaign_id', 'The campaign id.');
export const ListEnrollmentsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(
    Type.String({
      description: 'Only enrollments in this status.',
      examples: ['overdue'],
      [OPENAPI_OVERRIDE]: { type: 'string', enum: [...ENROLLMENT_STATUSES], examples: ['overdue'] },
    }),
  ),
});

const campaignNotFound = errorSchema('No campaign with this id in the key’s account (or a non-numeric id).', [
  { code: 'campaign_not_found' },
]);

export const listCampaignsResponses = {
  200: Paginated(TrainingCampaign, 'TrainingCampaignPage'),
  ...listErrors('campaigns'),
};

export const getCampaignResponses = {
  200: Type.Object(TrainingCampaign.properties, {
    description: 'The campaign with its courses, dates and enrollment figures.',
    examples: [example],
  }),
  ...standardErrors('campaigns', 'read'),
  404: campaignNotFound,
};

export const listEnrollmentsResponses = {
  200: Paginated(Enrollment, 'EnrollmentPage'),
  ...listErrors('campaigns'),
  400: errorSchema('`page` or `page_size` is not a positive integer, or `status` is not a known status.', [
    {
      code: 'validation_failed',
      details: { status: ['must be one of not_started, in_progress, completed, overdue'] },
    },
  ]),
  404: errorSchema('No such campaign, or the page is past the last page.', [
    { code: 'campaign_not_found' },
    { code: 'invalid_page' },
  ]),
};
