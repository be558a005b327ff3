import { Type } from '@sinclair/typebox';
import { Body, NullableTimestamp, PathId, Timestamp } from '../../../core/http/admin-schemas.js';
import { POSITIVE_INTEGER_PATTERN } from '../../../core/http/schemas.js';
import { CONTENT_ATTACHMENTS_MAX, CONTENT_HEADERS_MAX, CONTENT_URLS_MAX } from './triage.content.model.js';
import { FEEDBACK_BODY_MAX, FEEDBACK_SUBJECT_MAX } from './triage.feedback.model.js';
import { RETENTION_DAYS_MAX, VERDICT_NOTE_MAX } from './triage.service.js';

/** Schemas of the triage inbox's admin routes (and the shapes the Customer API shares). */

export const Verdict = Type.Union([Type.Literal('malicious'), Type.Literal('spam'), Type.Literal('safe')], {
  description: '`malicious` (a real attack), `spam` (unwanted, not targeted) or `safe`.',
});
const Channel = Type.Union([Type.Literal('addin'), Type.Literal('smtp'), Type.Literal('api')], {
  description: 'How it was reported: the Outlook add-in, the reporting address, the Customer API.',
});

export const Reporter = Type.Object(
  {
    address: Type.String(),
    employee_id: Type.Union([Type.Integer(), Type.Null()]),
    channel: Channel,
    reported_at: Timestamp,
    last_reported_at: Timestamp,
    feedback_verdict: Type.Union([Verdict, Type.Null()], {
      description: 'The verdict the reporter was told.',
    }),
    feedback_at: NullableTimestamp,
  },
  { title: 'Reporter' },
);

export const ReportSummaryProperties = {
  id: Type.Integer(),
  sender: Type.String({ description: 'The reported message’s From address (lower-cased).' }),
  sender_domain: Type.String(),
  subject: Type.String(),
  reporter_count: Type.Integer({ minimum: 0, description: 'Distinct people who reported it.' }),
  first_reported_at: Timestamp,
  last_reported_at: Timestamp,
  verdict: Type.Union([Verdict, Type.Null()]),
  verdict_note: Type.Union([Type.String(), Type.Null()]),
  verdict_at: NullableTimestamp,
  verdict_by: Type.Union([
    Type.Object({
      kind: Type.Union([Type.Literal('admin'), Type.Literal('rule')]),
      id: Type.Integer(),
      name: Type.Union([Type.String(), Type.Null()], {
        description:
          'The administrator’s name (or address), or the rule (`sender domain news.example.com`); null once deleted.',
      }),
    }),
    Type.Null(),
  ]),
  content_deleted_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When retention deleted the message’s content (the rest is kept).',
  }),
  reporters: Type.Array(Reporter, {
    description: 'The first reporters (all of them in a single report’s view).',
  }),
};

export const ReportSummary = Type.Object(ReportSummaryProperties, { title: 'ReportSummary' });

export const ReportMessage = Type.Object(
  {
    from: Type.Object({ address: Type.String(), name: Type.String() }),
    to: Type.Array(Type.String()),
    subject: Type.String(),
    date: NullableTimestamp,
    message_id: Type.String(),
    headers: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }), {
      maxItems: CONTENT_HEADERS_MAX,
    }),
    text: Type.String({ description: 'The text (from the HTML when it had none); never rendered.' }),
    has_html: Type.Boolean({
      description: 'Whether an HTML body can be shown (in a sandboxed frame, no network).',
    }),
    urls: Type.Array(
      Type.Object({
        url: Type.String(),
        defanged: Type.String({
          description: '`hxxps://evil[.]example/…`: safe to copy into a chat or a ticket.',
        }),
        host: Type.String(),
      }),
      { maxItems: CONTENT_URLS_MAX },
    ),
    attachments: Type.Array(
      Type.Object({
        name: Type.String(),
        content_type: Type.String(),
        size: Type.Integer({ minimum: 0 }),
        sha256: Type.String({
          description: 'Hex; empty when only the name was reported (an add-in’s list).',
        }),
      }),
      { maxItems: CONTENT_ATTACHMENTS_MAX },
    ),
    truncated: Type.Array(Type.String(), { description: 'The parts cut to their limit.' }),
  },
  { title: 'ReportMessage' },
);

export const ReportDetail = Type.Object(
  {
    ...ReportSummaryProperties,
    message: Type.Union([ReportMessage, Type.Null()], { description: 'Null once retention deleted it.' }),
  },
  { title: 'ReportDetail' },
);

const ReportersOutsideScope = Type.Integer({
  minimum: 0,
  description:
    'Reporters outside the groups the viewer’s role is limited to (docs/roles.md): counted, not listed; 0 for everyone else.',
});

export const AdminReportSummary = Type.Object(
  { ...ReportSummaryProperties, reporters_outside_scope: ReportersOutsideScope },
  { title: 'AdminReportSummary' },
);

export const AdminReportDetail = Type.Object(
  {
    ...ReportSummaryProperties,
    message: Type.Union([ReportMessage, Type.Null()], { description: 'Null once retention deleted it.' }),
    reporters_outside_scope: ReportersOutsideScope,
  },
  { title: 'AdminReportDetail' },
);

export const ReportList = Type.Object(
  { count: Type.Integer(), results: Type.Array(AdminReportSummary) },
  { title: 'ReportList' },
);

export const ReportListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
    page_size: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
    verdict: Type.Optional(
      Type.Union([Verdict, Type.Literal('none')], { description: '`none`: not judged yet.' }),
    ),
  },
  { additionalProperties: false },
);

export const ReportParams = Type.Object({ accountId: PathId, reportId: PathId });
export const RuleParams = Type.Object({ accountId: PathId, ruleId: PathId });
export const VerdictParams = Type.Object({ accountId: PathId, verdict: Verdict });

export const VerdictBody = Body({
  verdict: Verdict,
  note: Type.Optional(Type.String({ maxLength: VERDICT_NOTE_MAX * 2 })),
});

export const Rule = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('sender_domain'), Type.Literal('url_host')]),
    value: Type.String(),
    verdict: Verdict,
    note: Type.String(),
    created_at: Timestamp,
  },
  { title: 'ReportRule' },
);

export const RuleList = Type.Object({ results: Type.Array(Rule) }, { title: 'ReportRuleList' });

export const RuleBody = Body({
  kind: Type.Union([Type.Literal('sender_domain'), Type.Literal('url_host')]),
  value: Type.String({ maxLength: 300 }),
  verdict: Verdict,
  note: Type.Optional(Type.String({ maxLength: VERDICT_NOTE_MAX * 2 })),
});

export const ReportingSettings = Type.Object(
  {
    retention_days: Type.Integer({
      minimum: 1,
      maximum: RETENTION_DAYS_MAX,
      description:
        'Days a reported message’s content is kept after its last report (verdicts and counts stay).',
    }),
  },
  { title: 'ReportingSettings' },
);

export const ReportingSettingsBody = Body({
  retention_days: Type.Optional(Type.Integer({ minimum: 1, maximum: RETENTION_DAYS_MAX })),
});

export const FeedbackTemplate = Type.Object(
  {
    verdict: Verdict,
    subject: Type.String(),
    body: Type.String(),
    is_default: Type.Boolean(),
  },
  { title: 'FeedbackTemplate' },
);

export const FeedbackTemplates = Type.Object(
  {
    results: Type.Array(FeedbackTemplate),
    placeholders: Type.Array(Type.String(), { description: 'The `{{names}}` a template may use.' }),
  },
  { title: 'FeedbackTemplates' },
);

export const FeedbackTemplateBody = Body({
  subject: Type.String({ maxLength: FEEDBACK_SUBJECT_MAX * 2 }),
  body: Type.String({ maxLength: FEEDBACK_BODY_MAX * 2 }),
});
