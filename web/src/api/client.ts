// The fetch wrapper every API call goes through: JSON in and out, the CSRF header on writes,
// `{error, status, code, details, request_id}` turned into ApiError, and an ended session sent
// to the sign-in page. What to do about an error is decided by its `code`, never by its text.

import type { ErrorCode } from '../../../src/errors.js';

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

/** A page of a list: `{count, results}`. */
export interface ListPage<T> {
  count: number;
  results: T[];
}

export interface ListParams {
  page?: number;
  page_size?: number;
  search?: string;
}

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** Remember the CSRF token from the latest session answer (it changes at sign-in and sign-out). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called on a `sign_in_required` from any call (except those that ask not to be): the app goes to sign-in. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** For calls that handle an ended session themselves (sign-in, sign-out, invitation links). */
  skipUnauthorizedRedirect?: boolean;
  signal?: AbortSignal;
}

/** Builds `/admin/api/<path>?<query>`, leaving out empty query values. */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  return fetch(apiUrl(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: options.signal ?? null,
  });
}

export async function readError(res: Response): Promise<ApiError> {
  let message = `Request failed (${res.status} ${res.statusText})`;
  let code: ErrorCode | undefined;
  let details: ErrorDetails | undefined;
  let requestId = res.headers.get('X-Request-Id') ?? undefined;
  try {
    const body = (await res.json()) as {
      error?: unknown;
      code?: unknown;
      details?: unknown;
      request_id?: unknown;
    };
    if (typeof body.error === 'string') message = body.error;
    if (typeof body.code === 'string') code = body.code as ErrorCode;
    if (body.details && typeof body.details === 'object') details = body.details as ErrorDetails;
    if (typeof body.request_id === 'string') requestId = body.request_id;
  } catch {
    // not JSON (a proxy's error page): keep the generic message
  }
  const retry = Number(res.headers.get('Retry-After'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  return new ApiError(res.status, message, { code, details, retryAfter, requestId });
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

/** Calls the admin API and returns the parsed JSON body (undefined for 204). Throws ApiError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let res = await send(path, options);
  if (res.ok) return readBody<T>(res);
  let error = await readError(res);
  if (error.code === 'invalid_csrf_token' && options.method && options.method !== 'GET') {
    // A stale CSRF token (the session changed in another tab): learn the new one, try once more.
    await refreshCsrfToken();
    res = await send(path, options);
    if (res.ok) return readBody<T>(res);
    error = await readError(res);
  }
  if (error.code === 'sign_in_required' && !options.skipUnauthorizedRedirect) onUnauthorized?.();
  throw error;
}

async function readBody<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A human sentence for any error thrown by a call (ApiError or a network failure). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'Could not reach the server. Check your connection and try again.';
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
