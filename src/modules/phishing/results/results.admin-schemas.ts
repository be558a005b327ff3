import { Type } from '@sinclair/typebox';
import { NullableTimestamp, PathId, Timestamp } from '../../../core/http/admin-schemas.js';
import { Id, ListOf, listQueryFields, POSITIVE_INTEGER_PATTERN } from '../../../core/http/schemas.js';
import { RECIPIENT_STATUSES } from './results.service.js';

/** Request and response schemas of the admin API's phishing results routes (in /admin/api/openapi.json). */

export const ResultsParams = Type.Object({ accountId: PathId, campaignId: PathId });
export const EmployeeHistoryParams = Type.Object({ accountId: PathId, employeeId: PathId });

const Status = Type.Unsafe<(typeof RECIPIENT_STATUSES)[number]>({
  type: 'string',
  enum: [...RECIPIENT_STATUSES],
});
const Seconds = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);

export const PhishingFigures = Type.Object(
  {
    recipients: Type.Integer(),
    delivered: Type.Integer(),
    failed: Type.Integer(),
    opened: Type.Integer(),
    clicked: Type.Integer(),
    submitted: Type.Integer(),
    reported: Type.Integer(),
    phished: Type.Integer({ description: 'People who clicked or submitted.' }),
    reported_after_click: Type.Integer({
      description: 'People who reported after they clicked (counted apart).',
    }),
    missed: Type.Integer({ description: 'People delivered who neither clicked nor reported.' }),
    training_assigned: Type.Integer(),
    raw_opens: Type.Integer({ description: 'Every open event, people and scanners alike.' }),
    raw_clicks: Type.Integer(),
    raw_submits: Type.Integer(),
    automated_events: Type.Integer({ description: 'Events classified automated (not counted above).' }),
    phish_prone_percent: Type.Number({
      description:
        'phished ÷ delivered, percent, two decimals; 0 with none delivered (the page shows "—" then).',
    }),
    failed_by_rule: Type.Integer({
      description:
        'People who failed by the campaign’s rule (`remedial_on`): `phished` on `click`, `submitted` on `submit`.',
    }),
    failed_by_rule_percent: Type.Number({
      description: 'failed_by_rule ÷ delivered, percent, two decimals; 0 with none delivered.',
    }),
    report_rate: Type.Number({ description: 'reported ÷ delivered, 0 to 1.' }),
    miss_rate: Type.Number({ description: 'missed ÷ delivered, 0 to 1.' }),
    median_seconds_to_click: Seconds,
    median_seconds_to_report: Seconds,
  },
  { title: 'PhishingFigures' },
);

export const PhishingBreakdown = Type.Composite(
  [
    Type.Object({
      key: Type.String({ description: 'The group id, or the template key.' }),
      name: Type.String(),
    }),
    PhishingFigures,
  ],
  { title: 'PhishingBreakdown' },
);

const Step = Type.Integer({ minimum: 0 });

export const ResultsSummary = Type.Object(
  {
    campaign: Type.Object({
      id: Id,
      name: Type.String(),
      status: Type.String(),
      launched_at: NullableTimestamp,
      completed_at: NullableTimestamp,
      window_start_at: NullableTimestamp,
      window_end_at: NullableTimestamp,
      time_zone: Type.String(),
      remedial_on: Type.Union([Type.Literal('click'), Type.Literal('submit')], {
        description: 'The campaign’s rule: a person fails on a click, or only on submitting the form.',
      }),
      groups: Type.Array(Type.Object({ id: Id, name: Type.Union([Type.String(), Type.Null()]) })),
      templates: Type.Array(Type.Object({ key: Type.String(), name: Type.String() })),
    }),
    all: PhishingFigures,
    groups: Type.Array(PhishingBreakdown, { description: 'By target group, by name.' }),
    templates: Type.Array(PhishingBreakdown, { description: 'By template drawn, by name.' }),
    activity: Type.Object({
      bucket: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
      rows: Type.Array(
        Type.Object({
          at: Timestamp,
          delivered: Step,
          opened: Step,
          clicked: Step,
          submitted: Step,
          reported: Step,
        }),
        { description: 'People reaching each step in each hour (or day); hours without any are left out.' },
      ),
    }),
    covers: Type.Literal('campaign', {
      description:
        'Whom the figures count: everyone the campaign targeted, also for a role limited to groups (the figures are kept as events arrive, per campaign, group and template; the people lists and the CSV show the role’s people only).',
    }),
  },
  { title: 'PhishingResultsSummary' },
);

export const ResultsSummaryQuery = Type.Object({
  bucket: Type.Optional(
    Type.Union([Type.Literal('auto'), Type.Literal('hour'), Type.Literal('day')], {
      description: 'Activity by hour or by day; `auto` (default) folds into days past 72 hours.',
    }),
  ),
});

export const PhishingRecipient = Type.Object(
  {
    id: Id,
    employee: Type.Object({
      id: Id,
      first_name: Type.String(),
      last_name: Type.String(),
      email: Type.Union([Type.String(), Type.Null()]),
    }),
    employee_deleted: Type.Boolean({
      description: 'The employee was deleted: "Deleted employee" "#<id>", no address.',
    }),
    template_key: Type.String(),
    group_ids: Type.Array(Id),
    status: Status,
    planned_at: Timestamp,
    sent_at: NullableTimestamp,
    opened_at: NullableTimestamp,
    clicked_at: NullableTimestamp,
    submitted_at: NullableTimestamp,
    reported_at: NullableTimestamp,
    failed_at: NullableTimestamp,
    training_assigned_at: NullableTimestamp,
  },
  { title: 'PhishingRecipient' },
);

export const RecipientList = ListOf(PhishingRecipient);

export const RecipientListQuery = Type.Object({
  ...listQueryFields,
  status: Type.Optional(
    Type.String({
      maxLength: 20,
      description: 'A recipient status, or `reported` (people who reported, whatever their status).',
    }),
  ),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of a name or an address.' })),
  group_id: Type.Optional(
    Type.String({ pattern: POSITIVE_INTEGER_PATTERN, description: 'One target group.' }),
  ),
  template: Type.Optional(Type.String({ maxLength: 200, description: 'One template key.' })),
});

export const HistoryItem = Type.Object(
  {
    recipient_id: Id,
    campaign: Type.Object({ id: Id, name: Type.String(), status: Type.String() }),
    template_key: Type.String(),
    status: Status,
    planned_at: Timestamp,
    sent_at: NullableTimestamp,
    opened_at: NullableTimestamp,
    clicked_at: NullableTimestamp,
    submitted_at: NullableTimestamp,
    reported_at: NullableTimestamp,
    failed_at: NullableTimestamp,
    training_assigned_at: NullableTimestamp,
  },
  { title: 'PhishingHistoryItem' },
);

export const HistoryList = ListOf(HistoryItem);
export const HistoryQuery = Type.Object(listQueryFields);
