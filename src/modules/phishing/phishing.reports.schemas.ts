import { Type } from '@sinclair/typebox';
import { errorSchema, standardErrors } from '../../http/error-responses.js';
import { Id, Timestamp } from '../../http/schemas.js';

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

const resultExample = {
  employee_id: 42,
  email: 'ada@example.com',
  template: 'builtin:password-expiry-today',
  status: 'clicked',
  sent_at: '2026-12-01T09:12:40.000Z',
  opened_at: '2026-12-01T09:31:02.000Z',
  clicked_at: '2026-12-01T09:31:02.000Z',
  submitted_at: null,
  reported_at: '2026-12-01T09:33:15.000Z',
  training_assigned: true,
};

export const RecipientResult = Type.Object(
  {
    employee_id: Id,
    email: Type.String({ description: 'The employee’s address; empty once the employee is deleted.' }),
    template: Type.String({
      description: 'The template drawn for this person: `builtin:<slug>` or `custom:<id>`.',
      examples: ['builtin:password-expiry-today'],
    }),
    status: Type.Union(
      ['scheduled', 'sent', 'opened', 'clicked', 'submitted', 'failed'].map((s) => Type.Literal(s)),
      {
        description:
          'Only moves up: `scheduled` → `sent` → `opened` → `clicked` → `submitted` (people only, never scanners); `failed`: the mail could not be delivered. Reporting is independent: `reported_at`.',
      },
    ),
    sent_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the mail server accepted the message.',
    }),
    opened_at: Type.Union([Timestamp, Type.Null()], {
      description: 'First open (a click counts as an open).',
    }),
    clicked_at: NullableTimestamp,
    submitted_at: Type.Union([Timestamp, Type.Null()], {
      description: 'First form submission (only that it happened; no value is ever kept).',
    }),
    reported_at: Type.Union([Timestamp, Type.Null()], {
      description: 'First report, kept even after a click.',
    }),
    training_assigned: Type.Boolean({ description: 'Enrolled in the campaign’s remedial training.' }),
  },
  { title: 'PhishingRecipientResult', examples: [resultExample] },
);

export const ReportBody = Type.Object(
  {
    token: Type.String({
      description:
        'The simulation’s token: the value of the `X-Vigil-Simulation` header of the reported email.',
      examples: ['q1Jb3T0yS5d8n2lK4pXw7A9cVe6RtUhZ'],
    }),
  },
  { title: 'PhishingReport', examples: [{ token: 'q1Jb3T0yS5d8n2lK4pXw7A9cVe6RtUhZ' }] },
);

export const reportResponses = {
  202: RecipientResult,
  ...standardErrors('campaigns', 'write'),
  400: errorSchema(
    'The JSON body is malformed or has no valid `token`, or the `message/rfc822` body could not be read as an email.',
    [
      { code: 'malformed_json' },
      { code: 'validation_failed', details: { token: ['is required'] } },
      { code: 'reported_message_unreadable' },
    ],
  ),
  404: errorSchema('No token of the report belongs to one of the key’s account’s simulations.', [
    { code: 'simulation_not_found' },
  ]),
  413: errorSchema('The body is larger than 10 MiB.', [
    { code: 'payload_too_large' },
    { code: 'reported_message_too_large' },
  ]),
  415: errorSchema('The body is neither `application/json` nor `message/rfc822`.', [
    { code: 'unsupported_media_type' },
  ]),
};
