import { Type } from '@sinclair/typebox';
import { ListOf, listQueryFields } from '../../admin/list.js';
import { Id, Timestamp } from '../../http/schemas.js';
import { Enrollment, TrainingCampaign } from './campaigns.schemas.js';

/** Request and response schemas of the admin API's campaign routes (kept out of the OpenAPI document). */

const Nullable = Type.Union([Timestamp, Type.Null()]);

export const AdminCampaign = Type.Composite([
  Type.Omit(TrainingCampaign, ['group_ids']),
  Type.Object({
    groups: Type.Array(Type.Object({ id: Id, name: Type.String() })),
    archived_at: Nullable,
    allowed_actions: Type.Array(Type.String()),
  }),
]);

export const AdminEnrollment = Type.Composite([
  Enrollment,
  Type.Object({
    last_activity_at: Nullable,
    /** Set when the employee was deleted: `employee` is then "Deleted employee" "#<id>", no address. */
    employee_deleted_at: Nullable,
    invitation: Type.Union([Type.Object({ status: Type.String(), sent_at: Nullable }), Type.Null()]),
  }),
]);

export const CampaignIdParams = Type.Object({ campaignId: Type.String() });

export const CampaignListQuery = Type.Object({
  ...listQueryFields,
  status: Type.Optional(Type.String({ maxLength: 20 })),
});

export const EnrollmentListQuery = Type.Object({
  ...listQueryFields,
  status: Type.Optional(Type.String({ maxLength: 20 })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
});

// Any object: every field's rules (and messages) are the service's, campaigns.rules.ts.
export const CampaignBody = Type.Object({}, { additionalProperties: true });

export const CampaignList = ListOf(AdminCampaign);
export const EnrollmentList = ListOf(AdminEnrollment);

const Count = Type.Integer({ minimum: 0 });
const Score = Type.Union([Type.Number(), Type.Null()]);

export const Progress = Type.Object({
  counts: Type.Object({
    enrolled: Count,
    not_started: Count,
    in_progress: Count,
    completed: Count,
    overdue: Count,
  }),
  completion_rate: Type.Number(),
  average_score: Score,
  timeline: Type.Array(Type.Object({ date: Type.String(), completed: Count })),
  courses: Type.Array(
    Type.Object({
      key: Type.String(),
      title: Type.String(),
      started: Count,
      passed: Count,
      average_score: Score,
    }),
  ),
});
