import type { ApiErrorCode } from './operations.js';

/**
 * The codes a `VigilError` can carry: every code of the API's error catalogue, plus two of the
 * client's own: `connection_error` (no answer: the network failed or the attempt timed out, on
 * every attempt) and `unexpected_response` (an answer that is no Vigil error body, e.g. an HTML
 * page from a proxy).
 */
export type VigilErrorCode = ApiErrorCode | 'connection_error' | 'unexpected_response';

/** What `details` holds for the codes that have some. */
export interface ErrorDetailsByCode {
  validation_failed: Record<string, string[]>;
  invalid_employee_ids: { invalid_ids: number[] };
}
export type ErrorDetails<C extends VigilErrorCode> = C extends keyof ErrorDetailsByCode
  ? ErrorDetailsByCode[C]
  : Record<string, unknown> | undefined;

/** The HTTP statuses whose 2.2.0 bodies carry no `code` (`{error, status}` only). */
function codeOfAuthError(status: number, sentKey: boolean): ApiErrorCode | undefined {
  if (status === 401) return sentKey ? 'invalid_api_key' : 'api_key_required';
  if (status === 403) return 'forbidden';
  return undefined;
}

export interface VigilErrorInit {
  code: VigilErrorCode;
  message: string;
  status?: number | undefined;
  requestId?: string | undefined;
  details?: Record<string, unknown> | undefined;
  retryAfterSeconds?: number | undefined;
  attempts: number;
  cause?: unknown;
}

/**
 * Every failure of a call: an error answer of the API (after any retries), or no answer at all.
 * Dispatch on `code` (stable), never on `message` (for people).
 */
export class VigilError extends Error {
  override readonly name = 'VigilError';
  /** The API's error code (`email_taken`, `group_not_found`, …) or `connection_error`/`unexpected_response`. */
  readonly code: VigilErrorCode;
  /** The HTTP status; undefined for `connection_error`. */
  readonly status: number | undefined;
  /** The `X-Request-Id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The error body's `details` (validation messages per field, invalid ids …). */
  readonly details: Record<string, unknown> | undefined;
  /** `Retry-After` of the last answer, in seconds, when it had one (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  /** How many attempts were made (1 + retries). */
  readonly attempts: number;

  constructor(init: VigilErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts;
  }

  /** True when this error has `code`; narrows `details` to that code's shape. */
  is<C extends VigilErrorCode>(code: C): this is VigilError & { code: C; details: ErrorDetails<C> } {
    return this.code === code;
  }
}

/** True for a `VigilError` (of `code`, when given). */
export function isVigilError<C extends VigilErrorCode>(
  err: unknown,
  code?: C,
): err is VigilError & { code: C; details: ErrorDetails<C> } {
  return err instanceof VigilError && (code === undefined || err.code === code);
}

/** The `VigilError` an error answer stands for. */
export function errorFromResponse(
  response: { status: number; headers: Headers },
  body: unknown,
  context: { sentKey: boolean; attempts: number; retryAfterSeconds: number | undefined },
): VigilError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const shaped =
    typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string; code?: unknown; details?: unknown; request_id?: unknown })
      : undefined;
  const code =
    (typeof shaped?.code === 'string' ? (shaped.code as ApiErrorCode) : undefined) ??
    (shaped ? codeOfAuthError(response.status, context.sentKey) : undefined);
  return new VigilError({
    code: code ?? 'unexpected_response',
    message: shaped?.error ?? `Unexpected answer: HTTP ${response.status}`,
    status: response.status,
    requestId: typeof shaped?.request_id === 'string' ? shaped.request_id : requestId,
    details:
      typeof shaped?.details === 'object' && shaped.details !== null
        ? (shaped.details as Record<string, unknown>)
        : undefined,
    retryAfterSeconds: context.retryAfterSeconds,
    attempts: context.attempts,
  });
}
