import { type TObject, Type } from '@sinclair/typebox';
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';

/**
 * Response schemas for errors. `ErrorResponse` is the body of every error of every endpoint
 * (Customer API and admin API); `errorSchema` narrows it to one response of one route, with a
 * description and an example per code, so the OpenAPI document lists every error a route can
 * give and which codes it carries. Errors are serialized through these schemas.
 */

/** An example of one code: message and status from the catalogue unless given. */
export interface ErrorExample {
  code: ErrorCode;
  /** For the codes whose message names specifics. */
  error?: string;
  details?: Record<string, unknown>;
}

/** The request id shown in examples (a real one is the request's `X-Request-Id`). */
const EXAMPLE_REQUEST_ID = '0f8e4c1a-6d2b-4f3e-9a57-3c1d2b7e8f90';
const codeSchema = (codes: readonly ErrorCode[]) =>
  Type.Unsafe<ErrorCode>({
    type: 'string',
    enum: [...codes],
    description:
      'Stable and machine-readable: dispatch on this, never on `error`, whose wording may change. One code per meaning; the table is in the API description and docs/errors.md.',
  });

const messageSchema = Type.String({ description: 'Human-readable message.' });
const statusSchema = Type.Integer({ description: 'Equals the HTTP status.' });
const detailsSchema = Type.Optional(
  Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'For `validation_failed`: each offending field mapped to a list of messages. For `invalid_employee_ids`: `invalid_ids`, the sorted offending ids. For `service_unavailable` from `/readyz`: `checks`.',
    },
  ),
);
const requestIdSchema = Type.String({
  description:
    'The id of this request, the same as the `X-Request-Id` response header (a client may send its own): quote it when reporting a problem; the server’s log lines carry it.',
});

/** The contract's part of every error body (the admin API's `AdminError` adds what it carries). */
export const ErrorProperties = { error: messageSchema, status: statusSchema, details: detailsSchema };

const properties = (codes: readonly ErrorCode[]) => ({
  error: messageSchema,
  status: statusSchema,
  code: codeSchema(codes),
  details: detailsSchema,
  request_id: requestIdSchema,
});

const exactProperties = { error: messageSchema, status: statusSchema };

type ErrorSchema = TObject<ReturnType<typeof properties>>;
/** The contract's exact `{error, status}` of the Customer API's authentication errors. */
type ExactErrorSchema = TObject<typeof exactProperties>;

/** The example body of one code. */
function exampleBody({ code, error, details }: ErrorExample): Record<string, unknown> {
  const entry = ERRORS[code] as { status: number; message: string; exactBody?: true };
  const base = { error: error ?? entry.message, status: entry.status };
  if (entry.exactBody) return base;
  return { ...base, code, ...(details ? { details } : {}), request_id: EXAMPLE_REQUEST_ID };
}

/**
 * The body of every error the server answers: `{error, status, code, details?, request_id}`.
 * The Customer API's authentication errors (`api_key_required`, `invalid_api_key`, `forbidden`)
 * are the one exception: the contract states their body exactly, `{error, status}`.
 */
export const ErrorResponse = Type.Object(properties(ERROR_CODES), {
  title: 'Error',
  description:
    'Every error response. `code` and `request_id` are absent only from the Customer API’s authentication errors (401 `api_key_required` and `invalid_api_key`, 403 `forbidden`), whose body the contract fixes to `{error, status}`; the `X-Request-Id` header is always there.',
  examples: [
    exampleBody({ code: 'group_not_found' }),
    exampleBody({ code: 'validation_failed', details: { email: ['must be a valid email address'] } }),
  ],
});

/**
 * One error response of a route: its description and one example per code it can carry; the
 * schema's `code` lists exactly those codes. All codes of one response share its status.
 */
export function errorSchema(description: string, examples: ErrorExample[]): ErrorSchema | ExactErrorSchema {
  const codes = [...new Set(examples.map((e) => e.code))];
  const statuses = new Set(codes.map((code) => ERRORS[code].status));
  if (statuses.size !== 1) throw new Error(`one error response, one status: ${codes.join(', ')}`);
  const exact = codes.filter((code) => (ERRORS[code] as { exactBody?: true }).exactBody);
  const bodies = examples.map(exampleBody);
  if (exact.length === 0) return Type.Object(properties(codes), { description, examples: bodies });
  if (exact.length !== codes.length) throw new Error(`exact and extended bodies mixed: ${codes.join(', ')}`);
  return Type.Object(exactProperties, { description, examples: bodies });
}

const common = {
  401: errorSchema('The `apiKey` header is missing, or the key is unknown, malformed, revoked or expired.', [
    { code: 'api_key_required' },
    { code: 'invalid_api_key' },
  ]),
  403: (accessPoint: string, right: 'read' | 'write') =>
    errorSchema(`The key lacks ${right} permission on \`${accessPoint}\`.`, [
      { code: 'forbidden', error: `API key lacks ${right} permission on ${accessPoint}` },
    ]),
  404: errorSchema('Unknown route.', [{ code: 'not_found' }]),
  405: errorSchema('The route exists but not with this method; `Allow` lists the methods it has.', [
    { code: 'method_not_allowed' },
  ]),
  413: errorSchema('The body is larger than the limit (8 MiB by default).', [{ code: 'payload_too_large' }]),
  415: errorSchema('The body is not `application/json`.', [{ code: 'unsupported_media_type' }]),
  429: errorSchema(
    'The key used up its per-minute budget (or this address failed authentication too often). See `Retry-After`.',
    [{ code: 'rate_limited' }],
  ),
  500: errorSchema('Something unexpected went wrong; nothing internal is revealed.', [
    { code: 'internal_error' },
  ]),
  503: errorSchema('The database is unreachable; retry with back-off, the service recovers by itself.', [
    { code: 'service_unavailable' },
  ]),
};

const badQuery: ErrorExample = {
  code: 'validation_failed',
  details: { page_size: ['must be a positive integer'] },
};

/** Errors every authenticated route can give. */
export function standardErrors(accessPoint: string, right: 'read' | 'write') {
  return {
    401: common[401],
    403: common[403](accessPoint, right),
    405: common[405],
    429: common[429],
    500: common[500],
    503: common[503],
  };
}

/** Errors of a paginated list. */
export function listErrors(accessPoint: string) {
  return {
    ...standardErrors(accessPoint, 'read'),
    400: errorSchema('`page` or `page_size` is not a positive integer.', [badQuery]),
    404: errorSchema('The page is past the last page.', [{ code: 'invalid_page' }]),
  };
}

/** Errors of a route that takes a JSON body. */
export function bodyErrors(accessPoint: string, validationExamples: ErrorExample[]) {
  return {
    ...standardErrors(accessPoint, 'write'),
    400: errorSchema(
      'The body is not valid JSON, or a field is missing, of the wrong type, empty or too long (or `Idempotency-Key` is not 1 to 255 visible ASCII characters).',
      [{ code: 'malformed_json' }, ...validationExamples],
    ),
    413: common[413],
    415: common[415],
  };
}

export const unknownRoute = common[404];

/** A 409 of a write route: its own conflicts, and another request with its `Idempotency-Key` still running. */
export function conflictErrors(description: string, examples: ErrorExample[]) {
  return errorSchema(`${description} Or: another request with this \`Idempotency-Key\` is still running.`, [
    ...examples,
    { code: 'request_in_progress' },
  ]);
}

/** What `Idempotency-Key` adds to every POST, PATCH and DELETE of the Customer API. */
export const idempotencyErrors = {
  409: errorSchema(
    'Another request with this `Idempotency-Key` is still running; retry once it has answered.',
    [{ code: 'request_in_progress' }],
  ),
  422: errorSchema('This `Idempotency-Key` was used in the last 24 hours for another method, path or body.', [
    { code: 'idempotency_key_reused' },
  ]),
};

/**
 * The codes a Customer API client can meet: those its routes document, and those any request
 * can get before it reaches a route (unknown routes, what the HTTP layer refuses).
 */
export const CUSTOMER_API_CODES: readonly ErrorCode[] = [
  'bad_request',
  'host_required',
  'invalid_host',
  'malformed_json',
  'validation_failed',
  'invalid_employee_ids',
  'reported_message_unreadable',
  'api_key_required',
  'invalid_api_key',
  'forbidden',
  'not_found',
  'invalid_page',
  'campaign_not_found',
  'employee_not_found',
  'group_not_found',
  'simulation_not_found',
  'report_not_found',
  'reporter_not_found',
  'webhook_endpoint_not_found',
  'webhook_delivery_not_found',
  'method_not_allowed',
  'request_timeout',
  'email_taken',
  'group_in_use',
  'webhook_endpoint_disabled',
  'webhook_endpoint_limit_reached',
  'request_in_progress',
  'precondition_failed',
  'payload_too_large',
  'reported_message_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'expectation_failed',
  'idempotency_key_reused',
  'rate_limited',
  'header_fields_too_large',
  'internal_error',
  'service_unavailable',
  'reported_messages_busy',
];

/** The Customer API's codes as a Markdown table (code, status, meaning): the description of the API reference's "Error codes". */
export function customerCodesTable(): string {
  const rows = CUSTOMER_API_CODES.map((code) => {
    const { status, meaning } = ERRORS[code];
    return `| \`${code}\` | ${status} | ${meaning} |`;
  });
  return ['| code | status | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The Customer API's error schema for the document's components: its codes as the enum. */
export const CustomerErrorResponse = Type.Object(properties(CUSTOMER_API_CODES), {
  title: 'Error',
  description: ErrorResponse.description,
  examples: ErrorResponse.examples,
});

/** The exact `{error, status}` of the Customer API's 401s and 403 (as version 2.2.0 gives them). */
export const CustomerAuthErrorResponse = Type.Object(exactProperties, {
  title: 'AuthError',
  description:
    'The body of the 401s (`api_key_required`, `invalid_api_key`) and of the 403 (`forbidden`), exactly as version 2.2.0 gives them: no `code`, no `request_id` (the `X-Request-Id` header is there).',
  examples: [exampleBody({ code: 'invalid_api_key' })],
});
