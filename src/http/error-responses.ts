import { Type } from '@sinclair/typebox';

/**
 * Response schemas for errors, one per status, each with a description and examples, so the
 * OpenAPI document lists every error a route can give. Errors are serialized through them.
 */

interface ErrorExample {
  error: string;
  status: number;
  details?: Record<string, unknown>;
}

export const ErrorProperties = {
  error: Type.String({ description: 'Human-readable message.' }),
  status: Type.Integer({ description: 'Equals the HTTP status.' }),
  details: Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'For `Validation failed`: each offending field mapped to a list of messages. For `Invalid employee_ids`: `invalid_ids`, the sorted offending ids.',
      },
    ),
  ),
};

export const errorSchema = (description: string, examples: ErrorExample[]) =>
  Type.Object(ErrorProperties, { description, examples });

const common = {
  401: errorSchema('The `apiKey` header is missing, or the key is unknown, malformed, revoked or expired.', [
    { error: 'API key required', status: 401 },
    { error: 'Invalid API key', status: 401 },
  ]),
  403: (accessPoint: string, right: 'read' | 'write') =>
    errorSchema(`The key lacks ${right} permission on \`${accessPoint}\`.`, [
      { error: `API key lacks ${right} permission on ${accessPoint}`, status: 403 },
    ]),
  404: errorSchema('Unknown route.', [{ error: 'Not found', status: 404 }]),
  405: errorSchema('The route exists but not with this method; `Allow` lists the methods it has.', [
    { error: 'Method not allowed', status: 405 },
  ]),
  413: errorSchema('The body is larger than the limit (8 MiB by default).', [
    { error: 'Payload too large', status: 413 },
  ]),
  415: errorSchema('The body is not `application/json`.', [{ error: 'Unsupported media type', status: 415 }]),
  429: errorSchema(
    'The key used up its per-minute budget (or this address failed authentication too often). See `Retry-After`.',
    [{ error: 'Rate limit exceeded', status: 429 }],
  ),
  500: errorSchema('Something unexpected went wrong; nothing internal is revealed.', [
    { error: 'Internal server error', status: 500 },
  ]),
  503: errorSchema('The database is unreachable; retry with back-off, the service recovers by itself.', [
    { error: 'Service unavailable', status: 503 },
  ]),
};

const invalidPage = { error: 'Invalid page', status: 404 };
const badQuery = {
  error: 'Validation failed',
  status: 400,
  details: { page_size: ['must be a positive integer'] },
};

/** Errors every authenticated route can give. */
export function standardErrors(accessPoint: string, right: 'read' | 'write') {
  return {
    401: common[401],
    403: common[403](accessPoint, right),
    405: common[405],
    429: common[429],
    500: common[500],
    503: common[503],
  };
}

/** Errors of a paginated list. */
export function listErrors(accessPoint: string) {
  return {
    ...standardErrors(accessPoint, 'read'),
    400: errorSchema('`page` or `page_size` is not a positive integer.', [badQuery]),
    404: errorSchema('The page is past the last page.', [invalidPage]),
  };
}

/** Errors of a route that takes a JSON body. */
export function bodyErrors(accessPoint: string, validationExamples: ErrorExample[]) {
  return {
    ...standardErrors(accessPoint, 'write'),
    400: errorSchema(
      'The body is not valid JSON, or a field is missing, of the wrong type, empty or too long.',
      [{ error: 'Malformed JSON body', status: 400 }, ...validationExamples],
    ),
    413: common[413],
    415: common[415],
  };
}

export const unknownRoute = common[404];
