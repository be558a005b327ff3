// The admin API's client: openapi-fetch over the types generated from the server's route
// schemas (generated/admin-api.ts, written by `npm run build`). What is ours: the CSRF header
// on writes (and one retry with a fresh token), an ended session sent to the sign-in page, and
// errors `{error, status, code, details, request_id}` turned into ApiError. What to do about an
// error is decided by its `code`, never by its text.
import createClient from 'openapi-fetch';
import type { ErrorCode } from '../../../src/core/errors.js';
import type { paths } from './generated/admin-api.js';

export type { ErrorCode };

export const API_BASE = '/admin/api';

/** Errors about one input of a form: the form shows their message on that input. */
const FIELD_OF_CODE: Partial<Record<ErrorCode, string>> = { email_taken: 'email' };

/** Field → messages, as in a `400 Validation failed` (other errors may carry other details). */
export type ErrorDetails = Record<string, unknown>;

export interface ApiErrorInit {
  /** The server's `code`; absent when the answer was not the server's JSON (a proxy's error page). */
  code?: ErrorCode | undefined;
  details?: ErrorDetails | undefined;
  /** Seconds from a `Retry-After` header (429), when present. */
  retryAfter?: number | undefined;
  /** The server's `request_id` (or `X-Request-Id` header). */
  requestId?: string | undefined;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly details: ErrorDetails | undefined;
  readonly retryAfter: number | undefined;
  readonly requestId: string | undefined;

  constructor(status: number, message: string, init: ApiErrorInit = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
  }

  /** The form input this error is about as a whole (`email_taken` → `email`), if any. */
  get field(): string | undefined {
    return this.code ? FIELD_OF_CODE[this.code] : undefined;
  }

  /** The message to show on one input: the error's own when it is about that input, else its validation messages joined. */
  fieldError(field: string): string | undefined {
    if (this.field === field) return this.message;
    const messages = this.details?.[field];
    if (Array.isArray(messages) && messages.length > 0) return messages.map(String).join('; ');
    return undefined;
  }
}

/** Worth another try: the network failed, or the server (or a proxy before it) failed, not the request. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return error instanceof TypeError;
  if (error.code) return error.code === 'internal_error' || error.code === 'service_unavailable';
  return error.status >= 500;
}

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** Remember the CSRF token from the latest session answer (it changes at sign-in and sign-out). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called on a `sign_in_required` from any call of `api` (not `authApi`): the app goes to sign-in. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/** The error an answer that is not 2xx stands for (its body as openapi-fetch parsed it). */
function toApiError(response: Response, body: unknown): ApiError {
  let message = `Request failed (${response.status} ${response.statusText})`;
  let code: ErrorCode | undefined;
  let details: ErrorDetails | undefined;
  let requestId = response.headers.get('X-Request-Id') ?? undefined;
  if (typeof body === 'object' && body !== null) {
    const b = body as { error?: unknown; code?: unknown; details?: unknown; request_id?: unknown };
    if (typeof b.error === 'string') message = b.error;
    if (typeof b.code === 'string') code = b.code as ErrorCode;
    if (b.details && typeof b.details === 'object') details = b.details as ErrorDetails;
    if (typeof b.request_id === 'string') requestId = b.request_id;
  } // else not JSON (a proxy's error page): keep the generic message
  const retry = Number(response.headers.get('Retry-After'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  return new ApiError(response.status, message, { code, details, retryAfter, requestId });
}

/** The `code` of an error answer, read without consuming it. */
async function codeOf(res: Response): Promise<unknown> {
  const body = await res
    .clone()
    .json()
    .catch(() => null);
  return (body as { code?: unknown } | null)?.code;
}

let refreshingToken: Promise<void> | null = null;

/** Reads the session again only to learn the current CSRF token (one request at a time). */
function refreshCsrfToken(): Promise<void> {
  refreshingToken ??= fetch(`${API_BASE}/session`, { credentials: 'same-origin' })
    .then(async (res) => {
      if (res.ok) setCsrfToken(((await res.json()) as { csrf_token?: string }).csrf_token ?? null);
    })
    .finally(() => {
      refreshingToken = null;
    });
  return refreshingToken;
}

function send(request: Request): Promise<Response> {
  if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
  return fetch(request);
}

/** The fetch both clients use: CSRF, one retry after a stale token, and (optionally) an ended session → sign-in. */
const adminFetch =
  (redirectWhenSignedOut: boolean) =>
  async (request: Request): Promise<Response> => {
    const again = request.method === 'GET' ? null : request.clone();
    let res = await send(request);
    if (res.status === 403 && again && (await codeOf(res)) === 'invalid_csrf_token') {
      // A stale CSRF token (the session changed in another tab): learn the new one, try once more.
      await refreshCsrfToken();
      res = await send(again);
    }
    if (res.status === 401 && redirectWhenSignedOut) {
      // An ended session, or one that still waits for its second step: the sign-in pages take over.
      const code = await codeOf(res);
      if (code === 'sign_in_required' || code === 'mfa_required') onUnauthorized?.();
    }
    return res;
  };

/** `a=1&b=x`, leaving out empty values (an unset filter is not sent at all). */
function querySerializer(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

const options = { baseUrl: API_BASE, credentials: 'same-origin', querySerializer } as const;

/** The admin API; a `sign_in_required` from it means the session ended: the app goes to sign-in. */
export const api = createClient<paths>({ ...options, fetch: adminFetch(true) });

/** Sign-in, sign-out and links: a 401 there is an answer (a wrong password), not an ended session. */
export const authApi = createClient<paths>({ ...options, fetch: adminFetch(false) });

/**
 * The data of a call's answer, or its ApiError: `await call(api.GET('/accounts/{accountId}',
 * { params: { path: { accountId } } }))`.
 */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw toApiError(response, error);
  return data as T;
}

/** Errors whose server message names an API field: what the web interface says instead. */
const MESSAGE_OF_CODE: Partial<Record<ErrorCode, string>> = {
  invalid_employee_ids: 'Some of the people chosen are no longer in this account: reload and choose again.',
};

/** A human sentence for any error thrown by a call (ApiError or a network failure). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return (error.code && MESSAGE_OF_CODE[error.code]) || error.message;
  if (error instanceof TypeError) return 'Could not reach the server. Check your connection and try again.';
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
