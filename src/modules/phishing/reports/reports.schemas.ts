import { Type } from '@sinclair/typebox';
import { errorSchema, idempotencyErrors, standardErrors } from '../../../core/http/error-responses.js';

import { RecipientResult } from '../results/results.schemas.js';

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

/** The errors of a route that takes JSON or a reported message, and reads the message in the reader's threads. */
export const messageBodyErrors = {
  415: errorSchema('The body is neither `application/json` nor `message/rfc822`.', [
    { code: 'unsupported_media_type' },
  ]),
  503: errorSchema(
    'The database is unreachable, or every reader of reported messages is busy; retry after `Retry-After` seconds (when given) or with back-off.',
    [{ code: 'service_unavailable' }, { code: 'reported_messages_busy' }],
  ),
};

export const reportResponses = {
  202: RecipientResult,
  ...standardErrors('reports', 'write'),
  ...idempotencyErrors,
  400: errorSchema(
    'The JSON body is malformed or has no valid `token`, or the `message/rfc822` body could not be read as an email in the time and memory allowed (or `Idempotency-Key` is not 1 to 255 visible ASCII characters).',
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
  ...messageBodyErrors,
};
