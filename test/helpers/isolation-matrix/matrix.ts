import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { AppError, ERRORS, type ErrorCode } from '../../../src/core/errors.js';
import { scimErrorBody } from '../../../src/modules/integrations/scim/scim.errors.model.js';
import { coded } from '../errors.js';
import type { Side, World } from './world.js';

/**
 * The isolation matrix: for every route, four cases (401 without credentials, another
 * account's object or account → as if it did not exist, one invalid input → 400, the normal
 * call), each either run or declared not applicable with a reason. Black-box: only HTTP.
 */

/** The cases of every row. */
export const CASES = ['401', "another account's", '400', 'success'] as const;
export type CaseName = (typeof CASES)[number];

/** An id no row of any table ever had (ids count up from 1). */
export const NEVER = 987_654_321;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who makes a route's calls: the account's API key, its administrator, an operator, its SCIM token, or anyone. */
export type Actor = 'key' | 'admin' | 'operator' | 'scim' | 'anyone';

/** One request of a route (its method is the route's). `headers` replace the actor's credentials. */
export interface Call {
  url: string;
  payload?: unknown;
  /** Headers instead of the actor's credentials (a call that chooses its own). */
  headers?: Record<string, string>;
  /** The body's type, sent beside the actor's credentials (a body that is not JSON). */
  contentType?: string;
}

/** A GET by the owner that shows what a call could change; `view` keeps what must stay the same. */
export type Read = string | { url: string; view: (body: unknown) => unknown };

/** A case that does not apply to a route, and why. */
export interface NotApplicable {
  na: string;
}
export const na = (reason: string): NotApplicable => ({ na: reason });
export const isNa = (value: unknown): value is NotApplicable =>
  typeof value === 'object' && value !== null && 'na' in value;

/** How a route keeps another account's data out of reach. */
export type OtherAccount<O> =
  /** The call names an object: another account's answers exactly as a nonexistent one. */
  | {
      kind: 'object';
      notFound: ErrorCode;
      /** The same object with ids that never existed. */
      missing: (obj: O) => O;
      /** More (theirs, nonexistent, their 404) to try, e.g. another account's child under one's own parent. */
      pairs?: (w: World, theirs: O) => [O, O, ErrorCode][];
    }
  /** A list: it holds none of another account's items (and theirs holds them: the check can fail). */
  | {
      kind: 'list';
      ids: (res: LightMyRequestResponse) => (number | string)[];
      theirs: (w: World) => (number | string)[];
    }
  /** Acts on the account in the path only: another account's path is as a nonexistent account's. */
  | { kind: 'account' }
  | { kind: 'custom'; run: (w: World) => Promise<void> };

export interface Row<O = unknown> {
  /** `METHOD /path/:param` exactly as registered (HEAD is tested through its GET). */
  route: string;
  as: Actor;
  /**
   * The object the call names in `side`, for case `c`: a fixture, or one made for the case when
   * the call changes it.
   */
  object?: (w: World, side: Side, c: CaseName) => Promise<O> | O;
  /** The normal call, as made in `side` (its account's path) for `obj`. */
  call: (side: Side, obj: O) => Call;
  success: { status: number; check?: (res: LightMyRequestResponse, side: Side, obj: O) => void };
  /** What the call could change, read by the owner: must be the same after a refused call. */
  read?: (side: Side, obj: O) => Read;
  /** Default: the call without credentials answers 401. */
  unauthenticated?: NotApplicable;
  otherAccount: OtherAccount<O> | NotApplicable;
  invalid:
    | {
        call: (side: Side, obj: O) => Call;
        /** The route's documented 400 code, when it is not `validation_failed`. */
        code?: ErrorCode;
      }
    | NotApplicable;
}

/** Keeps each row's object type while the table holds rows of every type. */
export const row = <O>(r: Row<O>): Row => r as unknown as Row;

export const methodOf = (r: Row) => r.route.slice(0, r.route.indexOf(' ')) as Method;

/** The body of a catalogue error, as the error handler renders it. */
export function errorBody(code: ErrorCode) {
  return { error: ERRORS[code].message, status: ERRORS[code].status, ...coded(code) };
}

/** A catalogue error as a route of this actor renders it: SCIM's error schema under /scim/v2, else the contract's body. */
export function errorBodyFor(actor: Actor, code: ErrorCode): Record<string, unknown> {
  return actor === 'scim'
    ? { ...scimErrorBody(new AppError(code)), detail: expect.any(String) }
    : errorBody(code);
}

/** The Customer API's 401 without a key: the contract states this body exactly. */
export const API_KEY_REQUIRED = { error: 'API key required', status: 401 };

function credentials(w: World, actor: Actor, side: Side): Record<string, string> {
  if (actor === 'key') return { apikey: side.key };
  if (actor === 'admin') return side.admin.headers;
  if (actor === 'operator') return w.operator.headers;
  if (actor === 'scim') return { authorization: `Bearer ${side.scimToken}` };
  return w.anonymous.headers;
}

/** Sends `call` for `r` as `actor` of `side`, or with no credentials at all. */
export function send(w: World, r: Row, call: Call, as: { actor: Actor; side: Side } | 'nobody') {
  const headers = {
    ...(as === 'nobody' ? {} : (call.headers ?? credentials(w, as.actor, as.side))),
    ...(call.contentType ? { 'content-type': call.contentType } : {}),
  };
  return w.app.inject({
    method: methodOf(r),
    url: call.url,
    headers,
    ...(call.payload !== undefined ? { payload: call.payload as object } : {}),
  });
}

// Per-request headers: everything else of two answers must be identical.
const VOLATILE = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);

/** What a client observes of an answer, bar what differs on every request. */
export function observable(res: LightMyRequestResponse) {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VOLATILE.has(name)));
  const body = res.body.replace(/"request_id":"[^"]*"/, '"request_id":"…"');
  return { status: res.statusCode, body, headers };
}

/** The owner's view of what a call could change (undefined when the row names nothing to read). */
export async function readState(w: World, r: Row, side: Side, obj: unknown) {
  if (!r.read || r.as === 'anyone') return undefined;
  const read = r.read(side, obj);
  const { url, view } = typeof read === 'string' ? { url: read, view: (b: unknown) => b } : read;
  const res = await w.app.inject({ method: 'GET', url, headers: credentials(w, r.as, side) });
  expect(res.statusCode, `reading ${url}`).toBe(200);
  return view(String(res.headers['content-type']).includes('json') ? res.json() : res.body);
}
