import { Type } from '@sinclair/typebox';
import { errorSchema, idempotencyErrors, standardErrors } from '../../../core/http/error-responses.js';
import { INTERNET_HEADERS_MAX, LISTED_ATTACHMENTS_MAX } from './reports.parts.model.js';
import { messageBodyErrors } from './reports.schemas.js';

/** Schemas of `POST /customer/reports/`: a report button's (or a gateway's) report of a message. */

const Reporter = Type.String({
  minLength: 3,
  maxLength: 320,
  description: 'The address of the person who reported the message: one of the account’s employees.',
  examples: ['ann.lee@example.com'],
});

export const ReportMessageBody = Type.Object(
  {
    reporter: Reporter,
    eml: Type.Optional(
      Type.String({
        maxLength: 14 * 1024 * 1024,
        description: 'The whole reported message (RFC 5322, an .eml file), base64; at most 10 MiB decoded.',
      }),
    ),
    internet_headers: Type.Optional(
      Type.String({
        maxLength: INTERNET_HEADERS_MAX,
        description:
          'Without `eml`: the message’s header block as received (Office.js `getAllInternetHeadersAsync`).',
      }),
    ),
    html: Type.Optional(
      Type.String({ maxLength: 10 * 1024 * 1024, description: 'Without `eml`: the HTML body.' }),
    ),
    text: Type.Optional(
      Type.String({ maxLength: 10 * 1024 * 1024, description: 'Without `eml`: the text body.' }),
    ),
    attachments: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ maxLength: 255 }),
            content_type: Type.String({ maxLength: 255 }),
            size: Type.Integer({ minimum: 0 }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: LISTED_ATTACHMENTS_MAX,
          description: 'Without `eml`: the attachments by name (never their bytes).',
        },
      ),
    ),
  },
  {
    title: 'ReportedMessage',
    additionalProperties: false,
    examples: [
      { reporter: 'ann.lee@example.com', eml: 'RnJvbTogIlBheXJvbGwiIDxwYXlyb2xsQGV4YW1wbGUubmV0Pg0K…' },
    ],
  },
);

export const ReportMessageQuery = Type.Object(
  {
    reporter: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 320,
        description:
          'With a `message/rfc822` body: the address of the person who reported it (required then).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReportReceipt = Type.Object(
  {
    outcome: Type.Union([Type.Literal('simulation'), Type.Literal('real')], {
      description:
        '`simulation`: one of the account’s simulations; its recipient is credited as reported, and a report button should delete the message. `real`: a real report, now in the triage inbox.',
    }),
    report_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description:
        'The real report the message joined (identical messages are grouped); null for a simulation.',
    }),
    message: Type.String({ description: 'What to tell the person who reported, in one sentence or two.' }),
  },
  {
    title: 'ReportReceipt',
    examples: [
      { outcome: 'simulation', report_id: null, message: 'Well spotted: this was a phishing simulation.' },
      { outcome: 'real', report_id: 42, message: 'Thank you: your security team will look at it.' },
    ],
  },
);

export const reportMessageResponses = {
  202: ReportReceipt,
  ...standardErrors('reports', 'write'),
  ...idempotencyErrors,
  400: errorSchema(
    'The body is malformed (no `reporter`, neither `eml` nor the parts, `eml` not base64), or the message could not be read as an email in the time and memory allowed.',
    [
      { code: 'malformed_json' },
      { code: 'validation_failed', details: { reporter: ['is required'] } },
      { code: 'reported_message_unreadable' },
    ],
  ),
  404: errorSchema('The reporter is not one of the account’s employees.', [{ code: 'reporter_not_found' }]),
  413: errorSchema('The body is larger than allowed (a message of 10 MiB).', [
    { code: 'payload_too_large' },
    { code: 'reported_message_too_large' },
  ]),
  ...messageBodyErrors,
};
