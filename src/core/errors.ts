/**
 * The error catalogue. Every error the server answers has a stable, machine-readable `code`,
 * listed once here with its HTTP status, its message and what it means; code that reacts to
 * an error (the server's, the web interface's, a client's) dispatches on the code, never on
 * the message. Services throw AppErrors; one handler renders them as the contract's
 * `{error, status, details?}` plus `code` and `request_id`. Anything that is not an AppError
 * becomes a bare `internal_error`. docs/errors.md is the table for readers (a test keeps it
 * in step with this one).
 */

interface CatalogueEntry {
  status: number;
  /** The `error` text; the few entries whose text names specifics get it from the thrower. */
  message: string;
  /** What it means, for docs/errors.md and the OpenAPI document. */
  meaning: string;
  /**
   * The contract states this body exactly (`{"error":…,"status":…}`, Customer API
   * authentication): neither `code` nor `request_id` is added to it. The request id is still
   * in the `X-Request-Id` header.
   */
  exactBody?: true;
}

export const ERRORS = {
  bad_request: {
    status: 400,
    message: 'Bad request',
    meaning: 'The request could not be read as HTTP (refused by the HTTP parser), or was a `CONNECT`.',
  },
  host_required: {
    status: 400,
    message: 'Host header required',
    meaning: 'An HTTP/1.1 request without a `Host` header.',
  },
  invalid_host: {
    status: 400,
    message: 'Invalid Host header',
    meaning: 'Two `Host` headers, or one that no URL can hold.',
  },
  malformed_json: {
    status: 400,
    message: 'Malformed JSON body',
    meaning: 'The body is not valid JSON (an empty body included).',
  },
  json_object_too_large: {
    status: 400,
    message: 'JSON object with too many members',
    meaning:
      'An object in the body has more than 1,000 members (`details.max_members`); refused before it is parsed. Lists are not limited this way.',
  },
  json_too_deep: {
    status: 400,
    message: 'JSON body nested too deeply',
    meaning:
      'Arrays and objects in the body nest deeper than the route accepts (`details.max_depth`; 16 for most routes, 3 for a bulk upsert); refused before it is parsed.',
  },
  validation_failed: {
    status: 400,
    message: 'Validation failed',
    meaning:
      'A field is missing, of the wrong type, empty, too long or otherwise invalid; `details` maps each offending field to a list of messages.',
  },
  invalid_employee_ids: {
    status: 400,
    message: 'Invalid employee_ids',
    meaning: 'An `employee_ids` entry is unknown to the account; `details.invalid_ids` lists them, sorted.',
  },
  account_required: {
    status: 400,
    message: 'An account administrator needs an account',
    meaning: 'An account administrator was to be created without an account.',
  },
  reported_message_unreadable: {
    status: 400,
    message: 'The reported message could not be read as an email',
    meaning:
      'Phishing reports: a `message/rfc822` body that is no email, or an Outlook `.msg` file, or one that took longer to read than allowed (`REPORT_READ_TIMEOUT_MS`, 5 s by default) or needed more memory than allowed; the message says which.',
  },
  phishing_event_not_reclassifiable: {
    status: 400,
    message: 'Only opens, clicks, submissions, interactions and reports can be reclassified',
    meaning: 'Admin API: a reclassification of a system event (sent, delivery failed, training assigned).',
  },
  scim_invalid_filter: {
    status: 400,
    message: 'The filter is not valid or not supported',
    meaning:
      'SCIM (`/scim/v2/`): a `filter` that does not parse, or one this service does not evaluate (the message says which); answered with `scimType` `invalidFilter`.',
  },
  scim_invalid_syntax: {
    status: 400,
    message: 'The request is not a valid SCIM request',
    meaning:
      'SCIM: a body or query parameter of the wrong shape (a PATCH without `Operations`, a `startIndex` that is no number…); `scimType` `invalidSyntax`.',
  },
  scim_invalid_path: {
    status: 400,
    message: 'The path is not valid or not supported',
    meaning:
      'SCIM PATCH: an operation `path`, or a key of a path-less value, that this service cannot follow or that names an attribute it does not map (a PATCH names only what a User or Group shows, or the enterprise extension’s attributes, which are ignored); `scimType` `invalidPath`.',
  },
  scim_invalid_value: {
    status: 400,
    message: 'A value is missing or not valid',
    meaning:
      'SCIM: an attribute with a missing or invalid value (`userName` that is no email address, an unknown member id…); `scimType` `invalidValue`.',
  },
  scim_no_target: {
    status: 400,
    message: 'The path selects nothing',
    meaning:
      'SCIM PATCH: an `add` or `replace` whose value filter matches no value (except `attr[sub eq "…"].sub`, which adds one); `scimType` `noTarget`.',
  },
  scim_mutability: {
    status: 400,
    message: 'The attribute cannot be changed',
    meaning: 'SCIM: an operation that changes a read-only attribute (`id`, `meta`); `scimType` `mutability`.',
  },
  api_key_required: {
    status: 401,
    message: 'API key required',
    meaning: 'The `apiKey` header is missing or empty.',
    exactBody: true,
  },
  invalid_api_key: {
    status: 401,
    message: 'Invalid API key',
    meaning: 'The API key is unknown, malformed, revoked or expired.',
    exactBody: true,
  },
  scim_token_required: {
    status: 401,
    message: 'SCIM bearer token required',
    meaning: 'SCIM: no `Authorization: Bearer` header.',
  },
  invalid_scim_token: {
    status: 401,
    message: 'Invalid SCIM bearer token',
    meaning: 'SCIM: the bearer token is unknown or revoked.',
  },
  metrics_token_required: {
    status: 401,
    message: 'Metrics token required',
    meaning: '`GET /metrics` without `Authorization: Bearer <METRICS_TOKEN>`.',
  },
  invalid_metrics_token: {
    status: 401,
    message: 'Invalid metrics token',
    meaning: '`GET /metrics` with another token than `METRICS_TOKEN`.',
  },
  sign_in_required: {
    status: 401,
    message: 'Sign-in required',
    meaning: 'Admin API: no session, or it ended (idle or too old); sign in again.',
  },
  invalid_credentials: {
    status: 401,
    message: 'Invalid email or password',
    meaning: 'Admin API sign-in: wrong email or password.',
  },
  mfa_required: {
    status: 401,
    message: 'Second step of sign-in required',
    meaning:
      'Admin API: the password was right but the session waits for its second step (a TOTP code, a recovery code or a passkey; `details.state` `verify`), or for a first factor where MFA is required (`details.state` `enrol`); nothing else can be done with it.',
  },
  invalid_mfa_code: {
    status: 401,
    message: 'Invalid code or passkey',
    meaning:
      'Admin API, second step of sign-in: the TOTP code is wrong or was used already, the recovery code is wrong or used, or the passkey did not answer this session’s challenge.',
  },
  sso_required: {
    status: 403,
    message: 'This account signs in through single sign-on',
    meaning:
      'Admin API sign-in or invitation link: the account is "SSO only"; only its break-glass owners who have a second factor sign in with a password.',
  },
  forbidden: {
    status: 403,
    message: 'API key lacks permission',
    meaning:
      'The API key lacks the read or write permission on the access point; the message names both (`API key lacks write permission on groups`).',
    exactBody: true,
  },
  invalid_csrf_token: {
    status: 403,
    message: 'Invalid CSRF token',
    meaning: 'Admin API: a state-changing request without the session’s CSRF token (`X-CSRF-Token`).',
  },
  admin_disabled: {
    status: 403,
    message: 'This administrator is disabled',
    meaning:
      'Admin API sign-in: the email and password are right, but an owner or operator disabled this administrator; they sign in again once enabled.',
  },
  operator_required: {
    status: 403,
    message: 'Operator access required',
    meaning: 'Admin API: the route is for operators, the user is an account administrator.',
  },
  role_lacks_permission: {
    status: 403,
    message: 'Your role does not allow this',
    meaning:
      'Admin API: the administrator’s role lacks the permission the route needs; the message names both (`Auditor lacks the permission directory:write`).',
  },
  scope_too_narrow: {
    status: 403,
    message: 'This acts on the whole account',
    meaning:
      'Admin API: the administrator’s role is limited to groups, and the route acts on the whole account (API keys, webhooks, SCIM tokens, account settings, single sign-on and security, the audit log, reporting and phishing settings), which would reach people outside them; whatever the role’s permissions.',
  },
  learner_link_expired: {
    status: 403,
    message: 'This link has expired',
    meaning: 'A learner link, correctly signed, past its expiry (the page offers a new one by email).',
  },
  not_found: {
    status: 404,
    message: 'Not found',
    meaning: 'No route at this path (and, on the learner pages, no such course or lesson).',
  },
  invalid_page: {
    status: 404,
    message: 'Invalid page',
    meaning: 'Customer API lists: `page` is past the last page.',
  },
  sso_not_found: {
    status: 404,
    message: 'Single sign-on is not set up',
    meaning:
      'Admin API: the account has no single sign-on connection; or, starting a sign-in, none that is enabled (or none for this email domain).',
  },
  account_not_found: {
    status: 404,
    message: 'Account not found',
    meaning: 'No such customer account, or not one the administrator may act in.',
  },
  account_logo_not_found: {
    status: 404,
    message: 'Logo not found',
    meaning: 'The account has no logo (none was uploaded, or it was removed).',
  },
  admin_not_found: {
    status: 404,
    message: 'Administrator not found',
    meaning: 'No such administrator in this account.',
  },
  mfa_factor_not_found: {
    status: 404,
    message: 'Second factor not found',
    meaning: 'No such second factor (or unconfirmed enrolment) of the signed-in administrator.',
  },
  api_key_not_found: {
    status: 404,
    message: 'API key not found',
    meaning: 'No such API key in this account.',
  },
  report_key_not_found: {
    status: 404,
    message: 'Report key not found',
    meaning:
      'Outlook add-in manifests: the `key` is no active report key (unknown, revoked, expired, or holding anything but `reports:write`).',
  },
  scim_token_not_found: {
    status: 404,
    message: 'SCIM token not found',
    meaning: 'Admin API: no such SCIM token in this account.',
  },
  campaign_not_found: {
    status: 404,
    message: 'Campaign not found',
    meaning: 'No such campaign in this account (non-numeric ids included).',
  },
  phishing_campaign_not_found: {
    status: 404,
    message: 'Phishing campaign not found',
    meaning: 'No such phishing campaign in this account (non-numeric ids included).',
  },
  course_not_found: { status: 404, message: 'Course not found', meaning: 'No such course for this account.' },
  employee_not_found: {
    status: 404,
    message: 'Employee not found',
    meaning: 'No such employee in this account (non-numeric ids included).',
  },
  enrollment_not_found: {
    status: 404,
    message: 'Enrollment not found',
    meaning: 'No such enrollment in this campaign.',
  },
  group_not_found: {
    status: 404,
    message: 'Group not found',
    meaning: 'No such group in this account (non-numeric ids included).',
  },
  invitation_not_found: {
    status: 404,
    message: 'Invitation not found',
    meaning: 'No such pending invitation in this account.',
  },
  message_not_found: {
    status: 404,
    message: 'Message not found',
    meaning: 'No such message in this account’s outbox.',
  },
  phishing_template_not_found: {
    status: 404,
    message: 'Phishing template not found',
    meaning: 'No such phishing template for this account (`builtin:<slug>` or `custom:<id>`).',
  },
  test_send_not_found: {
    status: 404,
    message: 'Test send not found',
    meaning: 'Phishing settings: no such test send for this account.',
  },
  simulation_not_found: {
    status: 404,
    message: 'Simulation not found',
    meaning: 'Phishing reports: no token of the report matches one of the account’s simulations.',
  },
  report_not_found: {
    status: 404,
    message: 'Report not found',
    meaning: 'No such real report (a reported message that was no simulation) in this account.',
  },
  report_rule_not_found: {
    status: 404,
    message: 'Rule not found',
    meaning: 'No such verdict rule in this account.',
  },
  reporter_not_found: {
    status: 404,
    message: 'Reporter not found',
    meaning:
      'Reports: the reporter’s address is not one of the account’s employees (reports are taken from the account’s people only).',
  },
  phishing_event_not_found: {
    status: 404,
    message: 'Event not found',
    meaning: 'No such event in this phishing campaign.',
  },
  phishing_recipient_not_found: {
    status: 404,
    message: 'Recipient not found',
    meaning: 'No such recipient in this phishing campaign.',
  },
  webhook_endpoint_not_found: {
    status: 404,
    message: 'Webhook endpoint not found',
    meaning: 'No such webhook endpoint in this account (non-numeric ids included).',
  },
  webhook_delivery_not_found: {
    status: 404,
    message: 'Webhook delivery not found',
    meaning: 'No such delivery of this webhook endpoint.',
  },
  invalid_link: {
    status: 404,
    message: 'This link is not valid or has expired',
    meaning: 'A setup or invitation link that is unknown, used or expired.',
  },
  invalid_learner_link: {
    status: 404,
    message: 'This link is not valid',
    meaning: 'A learner link that was altered or made up, or whose enrollment is gone.',
  },
  session_not_found: {
    status: 404,
    message: 'Session not found',
    meaning: 'Admin API: no session of this administrator has this id (it ended, or it is another’s).',
  },
  method_not_allowed: {
    status: 405,
    message: 'Method not allowed',
    meaning: 'The route exists, not with this method; the `Allow` header lists those it has.',
  },
  request_timeout: {
    status: 408,
    message: 'Request timeout',
    meaning:
      'The request did not arrive whole within `REQUEST_TIMEOUT_SECONDS` (headers: 10 s); the connection closes.',
  },
  last_owner: {
    status: 409,
    message: 'An account keeps at least one enabled owner',
    meaning:
      'Admin API: the change would leave the account without an enabled owner (disabling, removing or demoting its last one); make another administrator an owner first.',
  },
  self_change_refused: {
    status: 409,
    message: 'You cannot do this to yourself; another owner can',
    meaning:
      'Admin API: an administrator tried to disable, remove or change the role of themselves; another owner (or an operator) does it.',
  },
  email_taken: {
    status: 409,
    message: 'Email already exists',
    meaning:
      'Another employee of the account (or, admin API, another administrator) has this address, compared case-insensitively.',
  },
  report_rule_exists: {
    status: 409,
    message: 'A rule for this value exists',
    meaning: 'Triage rules: the account already has a rule of this kind for this domain or host.',
  },
  group_in_use: {
    status: 409,
    message: 'This group is a target of a scheduled or active campaign',
    meaning: 'Deleting a group that a scheduled or active campaign targets; the message names the campaigns.',
  },
  course_in_use: {
    status: 409,
    message: 'This course is used by a campaign; it cannot be deleted',
    meaning: 'Deleting a course that a campaign uses; the message names the campaigns.',
  },
  course_built_in: {
    status: 409,
    message: 'Built-in courses cannot be changed; copy it into a course of your own',
    meaning: 'Changing or deleting a built-in course.',
  },
  phishing_template_built_in: {
    status: 409,
    message: 'Built-in phishing templates cannot be changed; clone it into a template of your own',
    meaning: 'Changing or deleting a built-in phishing template.',
  },
  phishing_template_in_use: {
    status: 409,
    message: 'This template is used by a phishing campaign that is not a draft; it cannot be deleted',
    meaning:
      'Deleting a phishing template that a scheduled, running, completed or archived campaign uses; the message names the campaigns.',
  },
  campaign_status_conflict: {
    status: 409,
    message: 'The campaign’s status does not allow this',
    meaning: 'A step the campaign’s status does not allow (`Cannot launch a campaign that is active`).',
  },
  campaign_field_locked: {
    status: 409,
    message: 'These fields cannot change in the campaign’s status',
    meaning:
      'Changing fields the campaign’s status has fixed (`course_keys cannot change while the campaign is active`).',
  },
  campaign_not_active: {
    status: 409,
    message: 'Invitations go out only while the campaign is active',
    meaning: 'Resending an invitation of a campaign that is not active.',
  },
  employee_deleted: {
    status: 409,
    message: 'This person’s employee record was deleted',
    meaning:
      'Resending an invitation to someone whose employee record was deleted (their training history is kept).',
  },
  training_completed: {
    status: 409,
    message: 'This person has completed the training',
    meaning: 'Resending an invitation to someone who completed the training.',
  },
  invitation_pending: {
    status: 409,
    message: 'An invitation to this person is already waiting to be sent',
    meaning: 'Resending an invitation while one is still queued or sending.',
  },
  last_mfa_factor: {
    status: 409,
    message: 'MFA is required: add another factor before removing this one',
    meaning: 'Removing the last second factor of an administrator of whom MFA is required.',
  },
  mfa_enrolment_required: {
    status: 409,
    message: 'Enrol a second factor first',
    meaning: 'Finishing an MFA enrolment (or making recovery codes) without a confirmed second factor.',
  },
  message_not_failed: {
    status: 409,
    message: 'Only a failed message can be retried',
    meaning: 'Retrying an outbox message that is not `failed`.',
  },
  webhook_endpoint_disabled: {
    status: 409,
    message: 'This webhook endpoint is disabled',
    meaning:
      'Resending a delivery, or sending a test event, to a disabled webhook endpoint: enable it first.',
  },
  webhook_endpoint_limit_reached: {
    status: 409,
    message: 'This account has as many webhook endpoints as it may have',
    meaning:
      'Creating a webhook endpoint when the account has `WEBHOOKS_MAX_ENDPOINTS` (20 by default) already, disabled ones included; the message says how many. Delete one first.',
  },
  quiz_locked: {
    status: 409,
    message: 'Read every lesson before taking the quiz',
    meaning: 'Learner pages: the quiz opens once every lesson of the course is read.',
  },
  quiz_attempts_used: {
    status: 409,
    message: 'You have used every attempt at this quiz',
    meaning:
      "Learner pages: the course's quiz rules allow this many attempts and the learner made them all; the attempt is not recorded.",
  },
  request_in_progress: {
    status: 409,
    message: 'Request in progress',
    meaning:
      'Customer API: another request with this `Idempotency-Key` is still running; retry once it has answered (you then get its response).',
  },
  training_ended: {
    status: 410,
    message: 'This training has ended',
    meaning:
      'Learner pages: the campaign was stopped (`details.completed`: whether the learner completed it).',
  },
  precondition_failed: {
    status: 412,
    message: 'Precondition failed',
    meaning:
      '`If-Match` does not match the group’s current `ETag` (or a web interface file’s); nothing changed.',
  },
  payload_too_large: {
    status: 413,
    message: 'Payload too large',
    meaning:
      'The body (or a chunk extension) is larger than its route accepts: `BODY_LIMIT` (8 MiB by default) for the Customer API, 64 KiB for public pages’ forms and the admin sign-in, 8 MiB for a bulk upsert.',
  },
  reported_message_too_large: {
    status: 413,
    message: 'The reported message is larger than 10 MiB',
    meaning: 'Phishing reports: a `message/rfc822` body over 10 MiB.',
  },
  uri_too_long: { status: 414, message: 'URI too long', meaning: 'The request line is too long.' },
  unsupported_media_type: {
    status: 415,
    message: 'Unsupported media type',
    meaning:
      'A body of a media type the route does not accept: anything but `application/json` on the Customer API, anything but a form on public pages, any body on a route that reads none.',
  },
  range_not_satisfiable: {
    status: 416,
    message: 'Range not satisfiable',
    meaning: 'A `Range` outside a web interface file.',
  },
  expectation_failed: {
    status: 417,
    message: 'Expectation failed',
    meaning: 'An `Expect` header other than `100-continue`.',
  },
  idempotency_key_reused: {
    status: 422,
    message: 'Idempotency key reused with a different request',
    meaning:
      'Customer API: this `Idempotency-Key` was used in the last 24 hours for another method, path or body; use a new key for a new request.',
  },
  rate_limited: {
    status: 429,
    message: 'Rate limit exceeded',
    meaning:
      'The API key used up its per-minute budget, or this address failed authentication too often; see `Retry-After`.',
  },
  too_many_test_sends: {
    status: 429,
    message: 'Too many test sends',
    meaning:
      'Phishing settings: the account sent 10 test simulations within the last hour; see `Retry-After` for when the next one may go.',
  },
  too_many_sign_ins: {
    status: 429,
    message: 'Too many sign-in attempts',
    meaning:
      'Admin API sign-in: too many attempts from this address (or address and email); see `Retry-After`.',
  },
  header_fields_too_large: {
    status: 431,
    message: 'Request header fields too large',
    meaning: 'The request’s headers are larger than Node’s limit (16 KiB).',
  },
  internal_error: {
    status: 500,
    message: 'Internal server error',
    meaning:
      'Something unexpected went wrong; nothing internal is revealed (the log has it, under the request id).',
  },
  service_unavailable: {
    status: 503,
    message: 'Service unavailable',
    meaning:
      'The database (or, for metrics, the primary process) did not answer in time; retry with back-off.',
  },
  reported_messages_busy: {
    status: 503,
    message: 'Too many reported messages are being read; retry in a few seconds',
    meaning:
      'Phishing reports: every reader of `message/rfc822` reports is busy and the queue is full (or no reader began the report within 10 s plus twice `REPORT_READ_TIMEOUT_MS`); retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** Every code, in the catalogue's order (by status). */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export type ErrorDetails = Record<string, unknown>;

export interface AppErrorOptions {
  /** Instead of the catalogue's message, for the codes whose message names specifics. */
  message?: string;
  details?: ErrorDetails;
  /** Extra response headers (Allow, Retry-After). */
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    options: AppErrorOptions = {},
  ) {
    super(options.message ?? ERRORS[code].message);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
    this.details = options.details;
    this.headers = options.headers;
  }

  /** True when the contract states this error's body exactly: no `code` or `request_id` in it. */
  get exactBody(): boolean {
    return (ERRORS[this.code] as CatalogueEntry).exactBody === true;
  }
}

/** Field name → list of messages, as in `details` of a 400 Validation failed. */
export type FieldErrors = Record<string, string[]>;

const METRICS_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="metrics"' };

export const badRequest = () => new AppError('bad_request');
export const hostRequired = () => new AppError('host_required');
export const invalidHost = () => new AppError('invalid_host');
export const malformedJson = () => new AppError('malformed_json');
export const validationFailed = (fields: FieldErrors) =>
  new AppError('validation_failed', { details: fields });
export const invalidEmployeeIds = (invalidIds: number[]) =>
  new AppError('invalid_employee_ids', { details: { invalid_ids: invalidIds } });
export const accountRequired = () => new AppError('account_required');
export const apiKeyRequired = () => new AppError('api_key_required');
export const invalidApiKey = () => new AppError('invalid_api_key');
/** `GET /metrics` without `Authorization: Bearer <METRICS_TOKEN>`, or with another token. */
export const metricsTokenRequired = () =>
  new AppError('metrics_token_required', { headers: METRICS_CHALLENGE });
export const invalidMetricsToken = () =>
  new AppError('invalid_metrics_token', { headers: METRICS_CHALLENGE });
export const signInRequired = () => new AppError('sign_in_required');
export const invalidCredentials = () => new AppError('invalid_credentials');
export const ssoRequired = () => new AppError('sso_required');
export const ssoNotFound = () => new AppError('sso_not_found');
/** A session still waiting for its second step ('verify') or a first factor ('enrol'). */
export const mfaRequired = (state: 'verify' | 'enrol') =>
  new AppError('mfa_required', { details: { state } });
/** The API key lacks a permission; the message says which. */
export const forbidden = (message: string) => new AppError('forbidden', { message });
export const invalidCsrfToken = () => new AppError('invalid_csrf_token');
export const operatorRequired = () => new AppError('operator_required');
export const roleLacksPermission = (message: string) => new AppError('role_lacks_permission', { message });
export const scopeTooNarrow = (message: string) => new AppError('scope_too_narrow', { message });
/** No route here. */
export const notFound = () => new AppError('not_found');
export const invalidPage = () => new AppError('invalid_page');
export const invalidLink = () => new AppError('invalid_link');
export const methodNotAllowed = (allow: string[]) =>
  new AppError('method_not_allowed', { headers: { Allow: allow.join(', ') } });
export const requestTimeout = () => new AppError('request_timeout');
export const emailTaken = (message?: string) => new AppError('email_taken', message ? { message } : {});
export const preconditionFailed = () => new AppError('precondition_failed');
export const requestInProgress = () => new AppError('request_in_progress');
export const idempotencyKeyReused = () => new AppError('idempotency_key_reused');
export const payloadTooLarge = () => new AppError('payload_too_large');
export const uriTooLong = () => new AppError('uri_too_long');
export const unsupportedMediaType = () => new AppError('unsupported_media_type');
export const rangeNotSatisfiable = () => new AppError('range_not_satisfiable');
export const expectationFailed = () => new AppError('expectation_failed');
export const headerFieldsTooLarge = () => new AppError('header_fields_too_large');
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('rate_limited', { headers: { 'Retry-After': String(retryAfterSeconds) } });
export const tooManySignIns = (retryAfterSeconds: number) =>
  new AppError('too_many_sign_ins', { headers: { 'Retry-After': String(retryAfterSeconds) } });
export const serviceUnavailable = (details?: ErrorDetails) =>
  new AppError('service_unavailable', details ? { details } : {});
export const internalError = () => new AppError('internal_error');

/** Collects field errors and throws one Validation failed for all of them. */
export class FieldErrorCollector {
  // Field names may come from the request (`__proto__`, `hasOwnProperty`…): nothing inherited answers for one.
  readonly fields: FieldErrors = Object.create(null);
  add(field: string, message: string): void {
    const list = this.fields[field] ?? [];
    this.fields[field] = list;
    if (!list.includes(message)) list.push(message);
  }
  throwIfAny(): void {
    if (Object.keys(this.fields).length > 0) throw validationFailed(this.fields);
  }
}
