import { Type } from '@sinclair/typebox';
import { Body, PathId } from '../../../core/http/admin-schemas.js';
import { Id, ListOf, listQueryFields, MAX_ID, Timestamp } from '../../../core/http/schemas.js';
import { LANDINGS, PHISHING_STATUSES, type PhishingCampaignAction, REMEDIAL_ON } from './campaigns.model.js';
import { WEEKDAY_NAMES } from './campaigns.window.model.js';

/** Request and response schemas of the admin API's phishing campaign routes. */

const Nullable = Type.Union([Timestamp, Type.Null()]);
const Count = Type.Integer({ minimum: 0 });
const oneOf = (values: readonly string[], description?: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], ...(description && { description }) });

export const PHISHING_ACTIONS: PhishingCampaignAction[] = [
  'edit',
  'schedule',
  'unschedule',
  'launch',
  'stop',
  'archive',
  'delete',
];

export const AdminPhishingCampaign = Type.Object(
  {
    id: Id,
    name: Type.String(),
    description: Type.String(),
    status: oneOf(PHISHING_STATUSES),
    groups: Type.Array(Type.Object({ id: Id, name: Type.String() })),
    group_ids: Type.Array(Id),
    templates: Type.Array(
      Type.Object({ key: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
    ),
    template_keys: Type.Array(Type.String()),
    remedial_courses: Type.Array(
      Type.Object({ key: Type.String(), title: Type.Union([Type.String(), Type.Null()]) }),
    ),
    remedial_course_keys: Type.Array(Type.String()),
    window_start_at: Nullable,
    window_end_at: Nullable,
    weekdays: Type.Array(oneOf(WEEKDAY_NAMES)),
    hour_start: Type.Integer(),
    hour_end: Type.Integer(),
    time_zone: Type.String(),
    landing: oneOf(LANDINGS),
    remedial_on: oneOf(REMEDIAL_ON),
    remedial_due_days: Type.Integer({
      description: 'Days from a person’s failure to the due date of their remedial training.',
    }),
    grace_hours: Type.Integer(),
    automated_window_seconds: Type.Integer(),
    sender_name: Type.Union([Type.String(), Type.Null()], {
      description: 'The sender name; null: the account’s default, else each template’s own.',
    }),
    sender_address: Type.Union([Type.String(), Type.Null()], {
      description:
        'The part of the sender address before the @; null: the account’s default, else each template’s own.',
    }),
    sender_domain: Type.Union([Type.String(), Type.Null()], {
      description:
        'The domain of the sender address; null: the account’s default, else the host of PHISH_URL.',
    }),
    remedial_campaign_id: Type.Union([Id, Type.Null()], {
      description: 'The training campaign of the remedial courses, made at launch.',
    }),
    launched_at: Nullable,
    completed_at: Nullable,
    completed_reason: Type.Union([oneOf(['stopped', 'window_ended']), Type.Null()]),
    archived_at: Nullable,
    created_at: Timestamp,
    updated_at: Timestamp,
    figures: Type.Union(
      [
        Type.Object({
          recipients: Count,
          delivered: Count,
          failed: Count,
          opened: Count,
          clicked: Count,
          submitted: Count,
          reported: Count,
          phished: Count,
          training_assigned: Count,
        }),
        Type.Null(),
      ],
      { description: 'The campaign’s figures (people, human steps only); null before launch.' },
    ),
    send_plan: Type.Object(
      {
        estimate: Type.Boolean({
          description:
            'True before launch: the first and last moments a launch now could plan. False: what the launch planned.',
        }),
        first_at: Nullable,
        last_at: Nullable,
        next_at: Type.Union([Timestamp, Type.Null()], {
          description:
            'Running: the planned moment of the next simulation not yet sent (null when none is left). Before launch: the first possible moment.',
        }),
        open_next_day_minutes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description:
            'Before launch: minutes of sending time in the next 24 hours (0: nothing goes out within a day).',
        }),
      },
      { title: 'PhishingSendPlan' },
    ),
    allowed_actions: Type.Array(
      Type.Unsafe<PhishingCampaignAction>({ type: 'string', enum: PHISHING_ACTIONS }),
      {
        description: 'What the status permits now; the page shows exactly these buttons.',
      },
    ),
  },
  { title: 'PhishingCampaign' },
);

export const PhishingCampaignIdParams = Type.Object({ accountId: PathId, campaignId: PathId });

export const PhishingCampaignListQuery = Type.Object({
  ...listQueryFields,
  status: Type.Optional(Type.String({ maxLength: 20, description: 'Only campaigns in this status.' })),
});

// Types here; every value's rules (and messages) are the service's, campaigns.model.ts.
const fields = {
  name: Type.String(),
  description: Type.String(),
  group_ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID })),
  template_keys: Type.Array(Type.String(), {
    description:
      'One template or a pool: `builtin:<slug>` or `custom:<id>`; each person gets one drawn at random.',
  }),
  remedial_course_keys: Type.Array(Type.String(), { description: 'Courses for the people who fail.' }),
  window_start_at: Type.Union([Type.String(), Type.Null()], {
    description: 'ISO 8601 date-time with a zone.',
  }),
  window_end_at: Type.Union([Type.String(), Type.Null()], { description: 'ISO 8601 date-time with a zone.' }),
  weekdays: Type.Array(Type.String(), { description: '`mon` … `sun`: the days mail may go out.' }),
  hour_start: Type.Integer({ description: 'First sending hour (0–23) in `time_zone`.' }),
  hour_end: Type.Integer({ description: 'End of the sending hours (1–24, exclusive).' }),
  time_zone: Type.String({ description: 'IANA time zone, e.g. Europe/Berlin.' }),
  landing: Type.String({ description: '`teach_on_click` or `teach_on_submit`.' }),
  remedial_on: Type.String({ description: '`click` or `submit`: when a person has failed.' }),
  remedial_due_days: Type.Integer({
    description:
      'Days (1–365, default 14) from a person’s failure to the due date of their remedial training; the training reminders go out before it.',
  }),
  grace_hours: Type.Integer({ description: 'Hours after the window during which results still count.' }),
  automated_window_seconds: Type.Integer(),
  sender_domain: Type.Union([Type.String({ maxLength: 300 }), Type.Null()], {
    description: 'The domain of the sender address (e.g. mail.example.com); null or empty: the default.',
  }),
  sender_name: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
    description: 'The sender name; null or empty: the default.',
  }),
  sender_address: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
    description: 'The part of the sender address before the @ (e.g. payroll); null or empty: the default.',
  }),
};

export const CreatePhishingCampaignBody = Body({
  name: fields.name,
  description: Type.Optional(fields.description),
  group_ids: Type.Optional(fields.group_ids),
  template_keys: Type.Optional(fields.template_keys),
  remedial_course_keys: Type.Optional(fields.remedial_course_keys),
  window_start_at: Type.Optional(fields.window_start_at),
  window_end_at: Type.Optional(fields.window_end_at),
  weekdays: Type.Optional(fields.weekdays),
  hour_start: Type.Optional(fields.hour_start),
  hour_end: Type.Optional(fields.hour_end),
  time_zone: Type.Optional(fields.time_zone),
  landing: Type.Optional(fields.landing),
  remedial_on: Type.Optional(fields.remedial_on),
  remedial_due_days: Type.Optional(fields.remedial_due_days),
  grace_hours: Type.Optional(fields.grace_hours),
  automated_window_seconds: Type.Optional(fields.automated_window_seconds),
  sender_domain: Type.Optional(fields.sender_domain),
  sender_name: Type.Optional(fields.sender_name),
  sender_address: Type.Optional(fields.sender_address),
});

export const UpdatePhishingCampaignBody = Type.Partial(CreatePhishingCampaignBody, {
  additionalProperties: false,
});

export const PhishingCampaignList = ListOf(AdminPhishingCampaign);

export const PhishingLaunchPreview = Type.Object(
  {
    recipients: Count,
    first_at: Nullable,
    last_at: Nullable,
    time_zone: Type.String(),
    sender_domain: Type.String({ description: 'The domain the simulations would be sent from.' }),
  },
  { title: 'PhishingLaunchPreview' },
);
