import { Type } from '@sinclair/typebox';
import type { MessageStatus } from '../../core/db/schema.js';
import { PathId } from '../../core/http/admin-schemas.js';
import { Id, ListOf, listQueryFields, POSITIVE_INTEGER_PATTERN, Timestamp } from '../../core/http/schemas.js';
import { MESSAGE_STATUSES } from './mail.messages.service.js';

/** Request and response schemas of the outbox routes of the admin API (in /admin/api/openapi.json). */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const messageFields = {
  id: Id,
  kind: Type.Union([
    Type.Literal('invitation'),
    Type.Literal('reminder'),
    Type.Literal('link'),
    Type.Literal('simulation'),
    Type.Literal('report_feedback'),
    Type.Literal('report_thanks'),
    Type.Literal('simulation_test'),
  ]),
  status: Type.Unsafe<MessageStatus>({ type: 'string', enum: [...MESSAGE_STATUSES] }),
  to_address: Nullable(Type.String()),
  subject: Nullable(Type.String()),
  /** The From it is (or was) sent with, as its kind composes it; null only for a kind none composes. */
  from: Nullable(Type.String()),
  /** Headers of its kind's own (a simulation's `X-Vigil-Simulation`, which mail gateways let through). */
  headers: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  campaign: Nullable(Type.Object({ id: Id, name: Type.String() })),
  employee: Nullable(
    Type.Object({ id: Id, first_name: Type.String(), last_name: Type.String(), email: Type.String() }),
  ),
  attempts: Type.Integer({ minimum: 0 }),
  attempts_in_doubt: Type.Integer({ minimum: 0 }),
  last_error: Nullable(Type.String()),
  transport: Nullable(Type.String()),
  created_at: Timestamp,
  sent_at: Nullable(Timestamp),
  next_attempt_at: Nullable(Timestamp),
};

export const AdminMessage = Type.Object(messageFields, { title: 'Message' });

export const AdminMessageDetail = Type.Object(
  {
    ...messageFields,
    body_text: Nullable(Type.String()),
    body_html: Nullable(Type.String()),
  },
  { title: 'MessageDetail' },
);

export const MessageList = ListOf(AdminMessage);

export const MessageListQuery = Type.Object({
  ...listQueryFields,
  status: Type.Optional(Type.Unsafe<MessageStatus>({ type: 'string', enum: [...MESSAGE_STATUSES] })),
  // A filter, not a path: text that is no id is a 400, not an empty list.
  campaign_id: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
});

export const MessageIdParams = Type.Object({ accountId: PathId, messageId: PathId });

export const MailSummary = Type.Object(
  {
    transport: Type.Union([Type.Literal('smtp'), Type.Literal('outbox')]),
    counts: Type.Object(
      Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<
        MessageStatus,
        ReturnType<typeof Type.Integer>
      >,
    ),
  },
  { title: 'MailSummary' },
);
