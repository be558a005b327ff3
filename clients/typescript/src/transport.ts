import { errorFromResponse, VigilError, type VigilErrorCode } from './errors.js';
import { operationRoutes } from './generated/customer-api.js';
import type { JsonBody, OperationId, PathParams, QueryParams, Success } from './operations.js';
import { retryAfterMs, sleep } from './retry.js';
import { API_VERSION, CLIENT_VERSION } from './version.js';

export interface VigilClientOptions {
  /** The Vigil instance's address, e.g. `https://vigil.example.com` (the API's `/api/api_gateway` prefix is added). */
  baseUrl: string;
  /** An API key (`vgl_…`), made in the Integration area with the access points the calls need. */
  apiKey: string;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** Retries after a network error, a timeout, a 429, a 5xx or a 409 `request_in_progress` (default 3). */
  maxRetries?: number;
  /** Put before this client's own `User-Agent` (`my-hr-sync/1.2`). */
  userAgent?: string;
  /** How long one attempt may take before it is abandoned and retried (default 30,000 ms). */
  timeoutMs?: number;
  /** The longest `Retry-After` the client waits, in seconds (default 60); a longer one is cut to it. */
  maxRetryAfterSeconds?: number;
  /** The back-off without `Retry-After`: the first delay, doubling up to `maxDelayMs`, with jitter (defaults 500 and 10,000 ms). */
  backoff?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Told before each retry (for logs and metrics). */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  operation: OperationId;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** Whether the delay came from the answer's `Retry-After` or from the back-off. */
  delayFrom: 'retry-after' | 'backoff';
  /** The failed attempt's status and code (`connection_error` when there was no answer). */
  status: number | undefined;
  code: VigilErrorCode;
  /** The `Idempotency-Key` the retry sends again (writes only). */
  idempotencyKey: string | undefined;
}

/** Per-call options. */
export interface RequestOptions {
  /** For POST, PATCH and DELETE: your own key instead of a generated UUID (reuse it to retry the call yourself later). */
  idempotencyKey?: string;
  /** Aborts the call, waits between retries included. */
  signal?: AbortSignal;
  /** More request headers. */
  headers?: Record<string, string>;
}

/** A successful answer with what its headers say. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  requestId: string | undefined;
  /** The `ETag` header (a group's detail and its changes). */
  etag: string | undefined;
  /** True when the server replayed the stored answer of an earlier request with the same `Idempotency-Key`. */
  replayed: boolean;
  /** The `Idempotency-Key` sent (writes only). */
  idempotencyKey: string | undefined;
}

/** What a call of one operation sends, typed from the OpenAPI document. */
export type CallArgs<K extends OperationId> = ([PathParams<K>] extends [never]
  ? { path?: undefined }
  : { path: PathParams<K> }) &
  ([QueryParams<K>] extends [never] ? { query?: undefined } : { query?: QueryParams<K> }) &
  ([JsonBody<K>] extends [never] ? { body?: undefined } : { body: JsonBody<K> }) & {
    /** A body that is not JSON (an `.eml` file for a phishing report). */
    raw?: { contentType: string; data: string | Uint8Array };
    /** Sent as `If-Match` (a group's ETag). */
    ifMatch?: string;
  };

const WRITES = new Set(['POST', 'PATCH', 'DELETE']);
const API_PREFIX = '/api/api_gateway';

/** Sends the operations of the API: URLs, headers, JSON, retries and errors. */
export class Transport {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #userAgent: string;
  readonly #timeoutMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;

  constructor(options: VigilClientOptions) {
    if (!options.baseUrl) throw new TypeError('VigilClient: baseUrl is required');
    if (!options.apiKey) throw new TypeError('VigilClient: apiKey is required');
    let base = options.baseUrl.replace(/\/+$/, '');
    if (base.endsWith(API_PREFIX)) base = base.slice(0, -API_PREFIX.length);
    this.#baseUrl = base;
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3));
    const own = `vigil-client-typescript/${CLIENT_VERSION}`;
    this.#userAgent = options.userAgent ? `${options.userAgent} ${own}` : own;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetryAfterMs = (options.maxRetryAfterSeconds ?? 60) * 1000;
    this.#initialDelayMs = options.backoff?.initialDelayMs ?? 500;
    this.#maxDelayMs = options.backoff?.maxDelayMs ?? 10_000;
    this.#onRetry = options.onRetry;
  }

  /** Calls one operation, retrying what is safe to retry; throws a `VigilError` for an error answer. */
  async call<K extends OperationId>(
    operation: K,
    args: CallArgs<K>,
    options: RequestOptions = {},
  ): Promise<ApiResponse<Success<K>>> {
    const route = operationRoutes[operation];
    const url = this.#url(route.path, args.path as Record<string, unknown> | undefined, args.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.#userAgent,
      'x-api-version': API_VERSION,
      ...options.headers,
      apikey: this.#apiKey,
    };
    let body: string | Uint8Array | undefined;
    if (args.raw) {
      headers['content-type'] = args.raw.contentType;
      body = args.raw.data;
    } else if (args.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    if (args.ifMatch !== undefined) headers['if-match'] = args.ifMatch;
    // One key per logical call, sent again by each retry: the server runs the write once.
    const idempotencyKey = WRITES.has(route.method)
      ? (options.idempotencyKey ?? globalThis.crypto.randomUUID())
      : undefined;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(url, route.method, headers, body, options.signal, attempt);
      if ('response' in outcome) {
        const { response, data } = outcome;
        return {
          data: data as Success<K>,
          status: response.status,
          headers: response.headers,
          requestId: response.headers.get('x-request-id') ?? undefined,
          etag: response.headers.get('etag') ?? undefined,
          replayed: response.headers.get('idempotent-replayed') === 'true',
          idempotencyKey,
        };
      }
      const { error, retryAfterMs } = outcome;
      if (!outcome.retryable || attempt > this.#maxRetries) throw error;
      const delayMs = retryAfterMs ?? this.#backoffMs(attempt);
      this.#onRetry?.({
        operation,
        attempt,
        delayMs,
        delayFrom: retryAfterMs === undefined ? 'backoff' : 'retry-after',
        status: error.status,
        code: error.code,
        idempotencyKey,
      });
      await sleep(delayMs, options.signal);
    }
  }

  async #attempt(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
    attempt: number,
  ): Promise<
    | { response: Response; data: unknown }
    | { error: VigilError; retryable: boolean; retryAfterMs: number | undefined }
  > {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(url, {
        method,
        headers,
        body: body as RequestInit['body'],
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (cause) {
      // The caller's abort ends the call; a network failure or a timeout is retried.
      if (signal?.aborted) throw signal.reason;
      const timedOut = timeout.aborted;
      return {
        error: new VigilError({
          code: 'connection_error',
          message: timedOut
            ? `No answer within ${this.#timeoutMs} ms (${method} ${url})`
            : `Could not reach Vigil (${method} ${url}): ${(cause as Error)?.message ?? cause}`,
          attempts: attempt,
          cause,
        }),
        retryable: true,
        retryAfterMs: undefined,
      };
    }
    const data = parseJson(text, response.headers.get('content-type'));
    if (response.ok && (data !== INVALID || text === '')) {
      return { response, data: text === '' ? undefined : data };
    }
    const retryAfter = retryAfterMs(response.headers.get('retry-after'));
    const error = errorFromResponse(response, data === INVALID ? undefined : data, {
      sentKey: this.#apiKey !== '',
      attempts: attempt,
      retryAfterSeconds: retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000),
    });
    const { status } = response;
    const retryable =
      status === 408 ||
      status === 429 ||
      status >= 500 ||
      (status === 409 && error.code === 'request_in_progress');
    const honoured =
      (status === 429 || status === 503) && retryAfter !== undefined
        ? Math.min(retryAfter, this.#maxRetryAfterMs)
        : undefined;
    return { error, retryable: retryable && response.ok === false, retryAfterMs: honoured };
  }

  #url(template: string, path: Record<string, unknown> | undefined, query: unknown): string {
    const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = path?.[name];
      if (value === undefined || value === null)
        throw new TypeError(`VigilClient: missing path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      for (const one of Array.isArray(value) ? value : [value]) {
        search.append(name, one instanceof Date ? one.toISOString() : String(one));
      }
    }
    const qs = search.toString();
    return `${this.#baseUrl}${filled}${qs ? `?${qs}` : ''}`;
  }

  /** Exponential back-off with jitter: half of the doubled delay fixed, half random. */
  #backoffMs(attempt: number): number {
    const ceiling = Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }
}

const INVALID = Symbol('invalid JSON');

function parseJson(text: string, contentType: string | null): unknown {
  if (text === '' || !contentType?.toLowerCase().includes('json')) return INVALID;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID;
  }
}
