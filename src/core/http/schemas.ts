import { type TSchema, Type } from '@sinclair/typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../pagination.js';
import { OPENAPI_OVERRIDE } from './openapi-components.js';

/** Shared schema primitives; every route's request and response schemas are built from these. */

export const MAX_ID = Number.MAX_SAFE_INTEGER;

export const Id = Type.Integer({ minimum: 1, description: 'Assigned by the service.', examples: [17] });

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601, UTC, millisecond precision.',
  examples: ['2026-11-22T09:14:03.512Z'],
});

/** The schema keyword that makes a path parameter an id (see PathId; the validator implements it). */
export const PATH_ID_KEYWORD = 'x-path-id';

/**
 * A path id, parsed once here, at the edge: the validator turns a positive decimal integer below
 * 2^53 into that number, and any other text into 0, an id no row has. Such an id is then simply
 * not found (404, like another account's), after the request's other checks (400 first, as the
 * contract orders them), never a 400 of its own. Routes and services only ever see numbers.
 */
export const PathId = (options: { description?: string } = {}) =>
  Type.Unsafe<number>(
    Type.String({
      ...options,
      format: 'id',
      examples: ['17'],
      [PATH_ID_KEYWORD]: true,
      // What a client sends (openapi-components.ts): any other text is simply not found.
      [OPENAPI_OVERRIDE]: { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID, examples: [17] },
    }),
  );

/** Params of a route with one path id. */
export const IdParam = <K extends string>(name: K, description: string) =>
  Type.Object({ [name]: PathId({ description }) } as Record<K, ReturnType<typeof PathId>>);

/** Decimal digits only: `+1`, `0x1`, `1e0`, ` 1` or `1.0` are not page numbers. */
export const POSITIVE_INTEGER_PATTERN = '^[1-9][0-9]*$';

// Query values stay text so that only plain decimal positive integers pass; the route turns them into numbers.
export const PageQuery = {
  page: Type.Optional(
    Type.String({
      pattern: POSITIVE_INTEGER_PATTERN,
      description: 'Page number, a positive integer, 1-based (default 1).',
      // "Try it out" sends the example: page 1 answers even on an empty collection.
      examples: ['1'],
      [OPENAPI_OVERRIDE]: { type: 'integer', minimum: 1, default: 1, examples: [1] },
    }),
  ),
  page_size: Type.Optional(
    Type.String({
      pattern: POSITIVE_INTEGER_PATTERN,
      description: `Items per page, a positive integer (default ${DEFAULT_PAGE_SIZE}; values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}).`,
      examples: ['100'],
      [OPENAPI_OVERRIDE]: { type: 'integer', minimum: 1, default: DEFAULT_PAGE_SIZE, examples: [100] },
    }),
  ),
};

/**
 * A URL or null, as one JSON Schema type list (OpenAPI 3.1) rather than a union: the response
 * serializer writes a type list directly, where a union makes it validate every value first.
 */
const pageLink = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uri', description });

/** A page of `item`s; documented with one page holding the item's own example. */
export const Paginated = <T extends TSchema>(item: T, name: string) =>
  Type.Object(
    {
      count: Type.Integer({ minimum: 0, description: 'Total number of items across all pages.' }),
      next: pageLink('Absolute URL of the next page, or null on the last page.'),
      previous: pageLink('Absolute URL of the previous page, or null on the first page.'),
      results: Type.Array(item),
    },
    {
      title: name,
      description: 'One page of results, ordered by id.',
      examples: [
        {
          count: 1,
          next: null,
          previous: null,
          results: (item.examples as unknown[] | undefined)?.slice(0, 1) ?? [],
        },
      ],
    },
  );

// Lists of the admin API (see pagination.ts): the same text-only page parameters.
export const listQueryFields = {
  page: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
  page_size: Type.Optional(Type.String({ pattern: POSITIVE_INTEGER_PATTERN })),
};

/** Query of a list with paging only; spread `listQueryFields` into lists with more parameters. */
export const ListQuery = Type.Object(listQueryFields);

/** Response schema of a list of `item`s: `{count, results}`. */
export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({ count: Type.Integer({ minimum: 0 }), results: Type.Array(item) });
