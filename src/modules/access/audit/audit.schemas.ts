import { Type } from '@sinclair/typebox';
import { errorSchema, listErrors } from '../../../core/http/error-responses.js';
import { PageQuery, Paginated, Timestamp } from '../../../core/http/schemas.js';

/** Schemas of the audit log, the Customer API's (`audit:read`, v2.3.0) and the shapes the admin API shares. */

export const ACTOR_KINDS = [
  'admin',
  'operator',
  'api_key',
  'scim_token',
  'cli',
  'system',
  'anonymous',
] as const;

const ActorKind = Type.Union(
  ACTOR_KINDS.map((k) => Type.Literal(k)),
  {
    description:
      'Through what: `admin` (the web interface), `operator` (the web interface, or `cli`: the `vigil` command), `api_key` (the Customer API), `scim_token` (SCIM), `system` (Vigil itself: scheduled launches, retention), `anonymous` (a refused sign-in).',
  },
);

const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });

export const AuditEntry = Type.Object(
  {
    id: Type.Integer({ description: 'The row’s id.' }),
    seq: Type.Integer({ description: 'Its place in the account’s hash chain, from 1.' }),
    at: Timestamp,
    actor: Type.Object({
      kind: ActorKind,
      id: Type.Union([Type.String(), Type.Null()], {
        description: 'The administrator’s, key’s or token’s id; null for the CLI, Vigil and strangers.',
      }),
      label: Type.String({ description: 'Their email or name when it happened.' }),
    }),
    address: Type.Union([Type.String(), Type.Null()], {
      description: 'The IP address the request came from.',
    }),
    request_id: Type.Union([Type.String(), Type.Null()], { description: 'The request’s `X-Request-Id`.' }),
    action: Type.String({ description: '`<object>.<verb>`, e.g. `employee.created`, `api_key.revoked`.' }),
    object: Type.Object({
      type: Type.String(),
      id: Type.Union([Type.String(), Type.Null()]),
      label: Type.Union([Type.String(), Type.Null()], {
        description: 'Its name or address when it happened.',
      }),
    }),
    changes: Type.Union(
      [
        Type.Object(
          {},
          {
            additionalProperties: true,
            description:
              'Each changed field: `{ "from": …, "to": … }`, or `{ "changed": true }` for a secret (never its value). A bulk operation gives counts and its first 100 ids.',
          },
        ),
        Type.Null(),
      ],
      { description: 'The changed fields; null when there are none.' },
    ),
  },
  {
    title: 'AuditEntry',
    examples: [
      {
        id: 812,
        seq: 311,
        at: '2026-11-22T09:14:03.512Z',
        actor: { kind: 'admin', id: '4', label: 'dana@example.com' },
        address: '203.0.113.7',
        request_id: '5f535d33-fe97-4f66-bf23-147619412cb1',
        action: 'group.updated',
        object: { type: 'group', id: '17', label: 'Finance' },
        changes: { name: { from: 'Accounts', to: 'Finance' } },
      },
    ],
  },
);

/** A date, or a date and time with its zone (RFC 3339): `2026-11-01` or `2026-11-01T09:00:00Z`. */
const INSTANT_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2}))?$';
const Instant = (description: string) =>
  Type.String({ pattern: INSTANT_PATTERN, maxLength: 40, description, examples: ['2026-11-01T00:00:00Z'] });

/** `group.updated`, or `group.` for every action on groups. */
const ACTION_PATTERN = '^[a-z][a-z_]*[.]([a-z][a-z_]*)?$';

/** The filters both APIs take. */
export const auditFilters = {
  actor: Type.Optional(
    Text(320, 'Only rows whose actor’s email or name contains this text (case-insensitive).'),
  ),
  action: Type.Optional(
    Type.String({
      pattern: ACTION_PATTERN,
      maxLength: 100,
      description: 'Only this action (`group.updated`), or every action on a kind of object (`group.`).',
    }),
  ),
  since: Type.Optional(Instant('Only rows recorded at or after this time.')),
  until: Type.Optional(Instant('Only rows recorded before this time.')),
};

export const ListAuditQuery = Type.Object({ ...PageQuery, ...auditFilters }, { additionalProperties: false });

export const listAuditResponses = {
  200: Paginated(AuditEntry, 'AuditPage'),
  ...listErrors('audit'),
  400: errorSchema(
    '`page` or `page_size` is not a positive integer, or `actor`, `action`, `since` or `until` is not valid.',
    [{ code: 'validation_failed', details: { since: ['must be a date-time'] } }],
  ),
};
