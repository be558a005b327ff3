// The admin API's client: openapi-fetch over the types generated from the server's route
// schemas (generated/admin-api.ts, written by `npm run build`). What is ours: the CSRF header
// on writes (and one retry with a fresh token), 401 sent to the sign-in page, and errors in the
// contract's `{error, status, details}` turned into ApiError.
import createClient from 'openapi-fetch';
import type { paths } from './generated/admin-api';

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

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** Remember the CSRF token from the latest session answer (it changes at sign-in and sign-out). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called on a 401 from any call of `api` (not `authApi`): the app goes to sign-in. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/** The error an answer that is not 2xx stands for (its body as openapi-fetch parsed it). */
function toApiError(response: Response, body: unknown): ApiError {
  let message = `Request failed (${response.status} ${response.statusText})`;
  let details: ErrorDetails | undefined;
  if (typeof body === 'object' && body !== null) {
    const { error, details: d } = body as { error?: unknown; details?: unknown };
    if (typeof error === 'string') message = error;
    if (d && typeof d === 'object') details = d as ErrorDetails;
  } // else not JSON (a proxy's error page): keep the generic message
  const retry = Number(response.headers.get('Retry-After'));
  return new ApiError(
    response.status,
    message,
    details,
    Number.isFinite(retry) && retry > 0 ? retry : undefined,
  );
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

/** The fetch both clients use: CSRF, one retry after a stale token, and (optionally) 401 → sign-in. */
const adminFetch =
  (redirectOn401: boolean) =>
  async (request: Request): Promise<Response> => {
    const again = request.method === 'GET' ? null : request.clone();
    let res = await send(request);
    if (res.status === 403 && again) {
      // A stale CSRF token (the session changed in another tab): learn the new one, try once more.
      const body = await res
        .clone()
        .json()
        .catch(() => null);
      if ((body as { error?: unknown } | null)?.error === 'Invalid CSRF token') {
        await refreshCsrfToken();
        res = await send(again);
      }
    }
    if (res.status === 401 && redirectOn401) onUnauthorized?.();
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

/** The admin API; a 401 from it means the session ended: the app goes to sign-in. */
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

/** A human sentence for any error thrown by a call (ApiError or a network failure). */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'Could not reach the server. Check your connection and try again.';
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
