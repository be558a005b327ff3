// The fetch wrapper every API call goes through: JSON in and out, the CSRF header on writes,
// `{error, status, details}` turned into ApiError, and 401 sent to the sign-in page.

export const API_BASE = '/admin/api';

/** Field → messages, as in a `400 Validation failed` (other errors may carry other details). */
export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  /** Seconds from a `Retry-After` header (429), when present. */
  readonly retryAfter: number | undefined;

  constructor(status: number, message: string, details?: ErrorDetails, retryAfter?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
    this.retryAfter = retryAfter;
  }

  /** The messages for one field of a validation error, joined, or undefined. */
  fieldError(field: string): string | undefined {
    const messages = this.details?.[field];
    if (Array.isArray(messages) && messages.length > 0) return messages.map(String).join('; ');
    return undefined;
  }
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

/** Called on a 401 from any call (except those that ask not to be): the app goes to sign-in. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** For sign-in: a 401 there means wrong credentials, not an ended session. */
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

async function readError(res: Response): Promise<ApiError> {
  let message = `Request failed (${res.status} ${res.statusText})`;
  let details: ErrorDetails | undefined;
  try {
    const body = (await res.json()) as { error?: unknown; details?: unknown };
    if (typeof body.error === 'string') message = body.error;
    if (body.details && typeof body.details === 'object') details = body.details as ErrorDetails;
  } catch {
    // not JSON (a proxy's error page): keep the generic message
  }
  const retry = Number(res.headers.get('Retry-After'));
  return new ApiError(res.status, message, details, Number.isFinite(retry) && retry > 0 ? retry : undefined);
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
  if (res.status === 403 && options.method && options.method !== 'GET') {
    // A stale CSRF token (the session changed in another tab): learn the new one, try once more.
    const error = await readError(res.clone());
    if (error.message === 'Invalid CSRF token') {
      await refreshCsrfToken();
      res = await send(path, options);
    }
  }
  if (res.status === 401 && !options.skipUnauthorizedRedirect) onUnauthorized?.();
  if (!res.ok) throw await readError(res);
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
