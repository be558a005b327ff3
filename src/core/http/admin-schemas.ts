import type { Readable } from 'node:stream';
import { type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { ErrorProperties } from './error-responses.js';
import { PathId as pathIdSchema } from './schemas.js';

/**
 * Shapes shared by the admin API's route files. They are the contract: the document at
 * /admin/api/openapi.json is made from them, and the web interface's types from that document.
 * A schema with a `title` becomes a named component of the document (and a named type).
 */

export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/**
 * A request body: fields it does not name are refused (400 Validation failed), so a typo in a
 * field name is an error, not a silently ignored change.
 */
export const Body = <T extends TProperties>(properties: T, options: { description?: string } = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/** Path ids: numbers by the time a route runs; text that is no id is not found (see PathId). */
export const PathId = pathIdSchema();

/** The account every route under `/admin/api/accounts/{accountId}` acts in. */
export const AccountParams = Type.Object({ accountId: PathId });
/** `…/{id}` under an account. */
export const IdParams = Type.Object({ accountId: PathId, id: PathId });

/**
 * Any error of the admin API: the contract's `{error, status, details?}`. Open to more fields so
 * that a field every error gains later is not dropped by this schema's serializer.
 */
export const AdminError = Type.Object(ErrorProperties, {
  title: 'Error',
  additionalProperties: true,
  description:
    'The request failed: `error` says why. `details` of a `400 Validation failed` maps each field to its messages.',
  examples: [
    { error: 'Validation failed', status: 400, details: { name: ['must not be empty'] } },
    { error: 'Sign-in required', status: 401 },
    { error: 'Invalid CSRF token', status: 403 },
    { error: 'Not found', status: 404 },
  ],
});

/** The success responses of a route, and the error shape of every other status. */
export const responses = <T extends Record<number, TSchema>>(success: T) => ({
  ...success,
  '4xx': AdminError,
  '5xx': AdminError,
});

/** A 204's (empty) answer. */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'Done; no body.' });

/** A CSV download (the route streams text: nothing is serialized through this schema). */
export const CsvFile = Type.Unsafe<string | Readable>({
  description: 'A CSV file (attachment), UTF-8.',
  content: { 'text/csv': { schema: Type.String() } },
});

/** An account administrator's built-in role (docs/roles.md). */
export const AccountRoleSchema = Type.Union(
  [
    Type.Literal('owner'),
    Type.Literal('administrator'),
    Type.Literal('campaign_manager'),
    Type.Literal('triage_analyst'),
    Type.Literal('auditor'),
  ],
  { title: 'AccountRole' },
);

export const User = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    name: Type.String(),
    role: Type.Union([Type.Literal('operator'), Type.Literal('account_admin')]),
    account_id: Type.Union([Type.Integer(), Type.Null()]),
    account_role: Type.Union([AccountRoleSchema, Type.Null()], {
      description: 'An account administrator’s built-in role (docs/roles.md); null for operators.',
    }),
    permissions: Type.Array(Type.String(), {
      description: 'What the role allows in the account (operators: everything), e.g. `directory:write`.',
    }),
  },
  { title: 'User' },
);

/** The groups a role is limited to; null: every group. */
export const GroupScope = Type.Union(
  [
    Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }, { title: 'ScopeGroup' })),
    Type.Null(),
  ],
  { description: 'The groups the role is limited to: their members and campaigns only. Null: every group.' },
);

/** What a session still waits for before it can do anything: null (nothing), the second step, or a first factor. */
export const MfaPending = Type.Union([Type.Literal('verify'), Type.Literal('enrol'), Type.Null()]);

export const SignedIn = Type.Object(
  { user: User, csrf_token: Type.String(), mfa_pending: MfaPending },
  { title: 'SignedIn' },
);

export const Account = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Account' },
);

export const NameBody = Body({ name: Type.String() });
