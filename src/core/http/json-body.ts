import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '../errors.js';

/**
 * The one JSON parser of every route (the Customer API, SCIM, the admin API). Before the text
 * is parsed, one linear pass over it refuses nesting deeper than the route accepts (a body of
 * 8 MiB of `[` would otherwise build millions of arrays, and every recursive walk of the result
 * — validation, fingerprinting, serialising — could exhaust the stack), an object of more than
 * 1,000 members (100,000 keys held the event loop for a third of a second while parsed into a
 * dictionary and walked, and left 40 MiB behind; no body of ours has more than a few dozen) and,
 * for routes whose rows must be flat objects of strings, any other value in a row. Nothing is
 * built for a refused body. Arrays are not counted: a list of 100,000 ids is a body of ours. Then Fastify's own parser (secure-json-parse: `__proto__` and
 * `constructor.prototype` keys removed) does the rest.
 */

/** What a route's JSON may hold beyond what its schema says (part of its body policy, bodies.ts). */
export interface JsonShapeRules {
  /** The deepest nesting of arrays and objects (DEFAULT_JSON_DEPTH when absent). */
  readonly jsonDepth?: number;
  /**
   * Every value at `jsonDepth` is a string (a bulk upsert's rows are flat objects of strings); a
   * body with another is a 400 Validation failed naming `field` with `rule`.
   */
  readonly stringLeaves?: { readonly field: string; readonly rule: string };
}

/** No body of ours nests deeper (a campaign's window inside its body is the deepest: 3). */
export const DEFAULT_JSON_DEPTH = 16;

/** The most members one object may have. */
export const MAX_OBJECT_MEMBERS = 1000;

export type JsonShapeProblem = 'too_deep' | 'too_many_members' | 'not_string';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
/** What may stand outside strings among a flat object's values: `:` `,` and white space. */
const BETWEEN_STRINGS = new Set([0x3a, 0x2c, 0x20, 0x09, 0x0a, 0x0d]);

/**
 * Why `text` is not a JSON value the route takes, or null: arrays and objects nested deeper
 * than `maxDepth`, an object of more than MAX_OBJECT_MEMBERS members, or (with `stringLeaves`) a
 * value other than a string at that depth. One pass, stopping at the first problem; strings are
 * skipped with indexOf. Syntax is not checked here (JSON.parse does, afterwards).
 */
export function jsonShapeProblem(
  text: string,
  maxDepth: number,
  stringLeaves = false,
): JsonShapeProblem | null {
  let depth = 0;
  // Per open container (at most maxDepth): whether it is an object, and the commas seen in it.
  const isObject = new Uint8Array(maxDepth + 1);
  const commas = new Uint32Array(maxDepth + 1);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
      if (i === -1) return null; // unterminated: JSON.parse answers it
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return 'too_deep';
      isObject[depth] = c === OPEN_OBJECT ? 1 : 0;
      commas[depth] = 0;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth > 0) depth--;
    } else if (c === COMMA && depth > 0 && isObject[depth] === 1) {
      if (++(commas[depth] as number) >= MAX_OBJECT_MEMBERS) return 'too_many_members';
    } else if (stringLeaves && depth === maxDepth && !BETWEEN_STRINGS.has(c)) {
      return 'not_string';
    }
  }
  return null;
}

/**
 * The index of the quote that closes the string opened at `start`, or -1. A quote is escaped
 * when an odd number of backslashes precede it; each run of backslashes is counted once (it is
 * followed by one character only), so the whole scan stays linear.
 */
function endOfString(text: string, start: number): number {
  let quote = start;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
}

/** The error a refused shape answers (400, in the contract's shape, naming the limit or the rule). */
function shapeError(
  problem: JsonShapeProblem,
  policy: JsonShapeRules | undefined,
  maxDepth: number,
): AppError {
  if (problem === 'too_many_members') {
    return new AppError('json_object_too_large', { details: { max_members: MAX_OBJECT_MEMBERS } });
  }
  // Where rows must be flat, a nested value breaks that rule: say so rather than name a depth.
  const leaves = policy?.stringLeaves;
  if (leaves) return validationFailed({ [leaves.field]: [leaves.rule] });
  if (problem === 'not_string') throw new TypeError('not_string is only found for stringLeaves');
  return new AppError('json_too_deep', { details: { max_depth: maxDepth } });
}

type Done = (err: Error | null, body?: unknown) => void;

/** The parser for `application/json` (and SCIM's `application/scim+json`), checking the route's policy first. */
export function jsonBodyParser(
  app: FastifyInstance,
): (request: FastifyRequest, body: string, done: Done) => void {
  const parse = app.getDefaultJsonParser('remove', 'remove');
  return (request, body, done) => {
    const policy = request.routeOptions.config?.body;
    const maxDepth = policy?.jsonDepth ?? DEFAULT_JSON_DEPTH;
    const problem = jsonShapeProblem(body, maxDepth, policy?.stringLeaves !== undefined);
    if (problem !== null) return done(shapeError(problem, policy, maxDepth));
    parse(request, body, done);
  };
}
