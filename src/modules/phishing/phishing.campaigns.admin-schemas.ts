import { Type } from '@sinclair/typebox';
import { Body, PathId } from '../../admin/schemas.js';
import { Id, ListOf, listQueryFields, MAX_ID, Timestamp } from '../../http/schemas.js';
import {
  LANDINGS,
  PHISHING_STATUSES,
  type PhishingCampaignAction,
  REMEDIAL_ON,
} from './phishing.campaigns.rules.js';
import { WEEKDAY_NAMES } from './phishing.window.js';

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
    grace_hours: Type.Integer(),
    automated_window_seconds: Type.Integer(),
    sender_domain: Type.Union([Type.String(), Type.Null()], {
      description: 'The domain of the sender address; null: the host of PHISH_URL.',
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

// Types here; every value's rules (and messages) are the service's, phishing.campaigns.rules.ts.
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
  grace_hours: Type.Integer({ description: 'Hours after the window during which results still count.' }),
  automated_window_seconds: Type.Integer(),
  sender_domain: Type.Union([Type.String(), Type.Null()]),
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
  grace_hours: Type.Optional(fields.grace_hours),
  automated_window_seconds: Type.Optional(fields.automated_window_seconds),
  sender_domain: Type.Optional(fields.sender_domain),
});

export const UpdatePhishingCampaignBody = Type.Partial(CreatePhishingCampaignBody, {
  additionalProperties: false,
});

export const PhishingCampaignList = ListOf(AdminPhishingCampaign);
