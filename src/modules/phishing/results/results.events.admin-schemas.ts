import { Type } from '@sinclair/typebox';
import { Body, PathId } from '../../../core/http/admin-schemas.js';
import { Id, Timestamp } from '../../../core/http/schemas.js';
import { RECLASSIFY_REASON_MAX } from '../tracking/tracking.steps.model.js';

/** Request and response schemas of a phishing recipient's timeline and the reclassification of an event. */

const Nullable = Type.Union([Timestamp, Type.Null()]);
const Classification = Type.Union([Type.Literal('human'), Type.Literal('automated')]);

export const PhishingEvent = Type.Object(
  {
    id: Id,
    kind: Type.Union(
      [
        'sent',
        'delivery_failed',
        'opened',
        'clicked',
        'submitted',
        'interaction',
        'reported',
        'training_assigned',
      ].map((k) => Type.Literal(k)),
    ),
    occurred_at: Timestamp,
    client_address: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()], { description: 'Cut to 512 characters.' }),
    classification: Classification,
    reason: Type.String({
      description: 'Why it was so classified (a code).',
      examples: ['within_delivery_window'],
    }),
    reason_text: Type.String({ description: 'The reason in words.' }),
    field_names: Type.Array(Type.String(), {
      description: 'A submission’s field names; the values are never kept.',
    }),
    reclassifiable: Type.Boolean({
      description:
        'Whether an administrator may reclassify it: a person’s steps (opened, clicked, submitted, ' +
        'interaction, reported) count only when human; delivery and training assigned are the system’s ' +
        'own records, so reclassifying them would change nothing (400 `phishing_event_not_reclassifiable`).',
    }),
    reclassification: Type.Union([
      Type.Object({
        original_classification: Type.Union([Classification, Type.Null()]),
        by: Type.Union([Id, Type.Null()], { description: 'The administrator’s id.' }),
        by_name: Type.Union([Type.String(), Type.Null()]),
        at: Nullable,
        reason: Type.String(),
      }),
      Type.Null(),
    ]),
  },
  { title: 'PhishingEvent' },
);

export const RecipientTimeline = Type.Object(
  {
    recipient: Type.Object({
      id: Id,
      employee_id: Id,
      first_name: Type.String(),
      last_name: Type.String(),
      email: Type.String(),
      template: Type.String(),
      status: Type.String(),
      planned_at: Type.Union([Timestamp, Type.Null()], {
        description: 'The moment the launch planned for this simulation.',
      }),
      sent_at: Nullable,
      opened_at: Nullable,
      clicked_at: Nullable,
      submitted_at: Nullable,
      reported_at: Nullable,
      training_assigned_at: Nullable,
    }),
    events: Type.Array(PhishingEvent, { description: 'Oldest first.' }),
  },
  { title: 'PhishingRecipientTimeline' },
);

export const RecipientParams = Type.Object({ accountId: PathId, campaignId: PathId, recipientId: PathId });
export const EventParams = Type.Object({ accountId: PathId, campaignId: PathId, eventId: PathId });

export const ReclassifyBody = Body({
  classification: Classification,
  reason: Type.String({
    minLength: 1,
    maxLength: RECLASSIFY_REASON_MAX,
    description: 'Why: kept with the event.',
  }),
});
