import { Type } from '@sinclair/typebox';
import { Body, PathId } from '../../../core/http/admin-schemas.js';
import { Id, ListOf, listQueryFields, MAX_ID, Timestamp } from '../../../core/http/schemas.js';
import type { CampaignAction } from './campaigns.model.js';
import { Enrollment, TrainingCampaign } from './campaigns.schemas.js';

/** Request and response schemas of the admin API's campaign routes (in /admin/api/openapi.json). */

const Nullable = Type.Union([Timestamp, Type.Null()]);

export const CAMPAIGN_ACTIONS: CampaignAction[] = [
  'edit',
  'schedule',
  'unschedule',
  'launch',
  'stop',
  'archive',
  'delete',
];

export const AdminCampaign = Type.Composite(
  [
    Type.Omit(TrainingCampaign, ['group_ids']),
    Type.Object({
      groups: Type.Array(Type.Object({ id: Id, name: Type.String() })),
      archived_at: Nullable,
      allowed_actions: Type.Array(Type.Unsafe<CampaignAction>({ type: 'string', enum: CAMPAIGN_ACTIONS }), {
        description: 'What the status permits now; the page shows exactly these buttons.',
      }),
    }),
  ],
  { title: 'Campaign' },
);

export const AdminEnrollment = Type.Composite(
  [
    Enrollment,
    Type.Object({
      last_activity_at: Nullable,
      due_at: Type.Union([Timestamp, Type.Null()], {
        description:
          'When this person’s training is due: their own due date (remedial training, from their failure), else the campaign’s; null: none.',
      }),
      employee_deleted_at: Type.Union([Timestamp, Type.Null()], {
        description:
          'Set when the employee was deleted: `employee` is then "Deleted employee" "#<id>", no address.',
      }),
      invitation: Type.Union([Type.Object({ status: Type.String(), sent_at: Nullable }), Type.Null()], {
        description: 'The latest invitation sent to this person.',
      }),
      attempt_count: Type.Integer({
        minimum: 0,
        description:
          "Attempts at all the campaign's quizzes, including those made before each attempt was kept (which `attempts` lacks).",
      }),
      attempts: Type.Array(
        Type.Object(
          {
            course_key: Type.String(),
            number: Type.Integer({ minimum: 1, description: "The attempt's number in its course." }),
            score: Type.Integer({ description: 'Whole percent.' }),
            passed: Type.Boolean({ description: 'Reached the pass mark of its moment.' }),
            submitted_at: Timestamp,
          },
          { title: 'QuizAttempt' },
        ),
        { description: 'Every quiz attempt kept, in the order made.' },
      ),
    }),
  ],
  { title: 'CampaignEnrollment' },
);

export const CampaignIdParams = Type.Object({ accountId: PathId, campaignId: PathId });
export const EnrollmentIdParams = Type.Object({
  accountId: PathId,
  campaignId: PathId,
  enrollmentId: PathId,
});

export const CampaignListQuery = Type.Object({
  ...listQueryFields,
  status: Type.Optional(Type.String({ maxLength: 20, description: 'Only campaigns in this status.' })),
});

export const EnrollmentListQuery = Type.Object({
  ...listQueryFields,
  status: Type.Optional(Type.String({ maxLength: 20, description: 'Only enrollments in this status.' })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
});

const DateInput = Type.Union([Type.String(), Type.Null()], {
  description:
    'ISO 8601 date-time with a zone, or a plain date (the start of that day, UTC, for a start; its end for a due date).',
});

// Types here; every value's rules (and messages) are the service's, campaigns.model.ts; which
// fields a status lets change is `campaign.editable_fields` of GET /admin/api/limits.
const campaignFields = {
  name: Type.String(),
  description: Type.String(),
  course_keys: Type.Array(Type.String(), { description: 'Built-in slugs or `custom-<id>`.' }),
  group_ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID })),
  start_date: DateInput,
  due_date: DateInput,
  reminder_days: Type.Array(Type.Integer(), { description: 'Whole days before the due date.' }),
  enroll_new_members: Type.Boolean(),
};

export const CreateCampaignBody = Body({
  ...campaignFields,
  description: Type.Optional(campaignFields.description),
  course_keys: Type.Optional(campaignFields.course_keys),
  group_ids: Type.Optional(campaignFields.group_ids),
  start_date: Type.Optional(campaignFields.start_date),
  due_date: Type.Optional(campaignFields.due_date),
  reminder_days: Type.Optional(campaignFields.reminder_days),
  enroll_new_members: Type.Optional(campaignFields.enroll_new_members),
});

export const UpdateCampaignBody = Type.Partial(CreateCampaignBody, { additionalProperties: false });

export const CampaignList = ListOf(AdminCampaign);
export const EnrollmentList = ListOf(AdminEnrollment);

const Count = Type.Integer({ minimum: 0 });
const Score = Type.Union([Type.Number(), Type.Null()]);

export const Progress = Type.Object(
  {
    counts: Type.Object({
      enrolled: Count,
      not_started: Count,
      in_progress: Count,
      completed: Count,
      overdue: Count,
    }),
    completion_rate: Type.Number(),
    average_score: Score,
    timeline: Type.Array(Type.Object({ date: Type.String(), completed: Count }), {
      description: 'Completions per UTC day (not cumulative), from launch to today or the due date.',
    }),
    courses: Type.Array(
      Type.Object({
        key: Type.String(),
        title: Type.String(),
        started: Count,
        passed: Count,
        average_score: Score,
      }),
    ),
    covers: Type.Union([Type.Literal('campaign'), Type.Literal('scope')], {
      description:
        'Whom the figures count: everyone in the campaign, or (a role limited to groups) only the people of those groups.',
    }),
  },
  { title: 'CampaignProgress' },
);
