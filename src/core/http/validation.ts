import { Ajv, type ErrorObject } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldErrors } from '../errors.js';
import { parseId } from '../ids.js';
import { PATH_ID_KEYWORD, POSITIVE_INTEGER_PATTERN } from './schemas.js';

// Bodies are JSON: a number where a string belongs is an error, never coerced.
// Query strings and path parameters are text: "2" is coerced to the integer 2.
const options = { allErrors: true, strict: false, validateFormats: false, useDefaults: true } as const;
const compilers = {
  body: new Ajv({ ...options, coerceTypes: false, removeAdditional: false }),
  other: new Ajv({ ...options, coerceTypes: true, removeAdditional: false }),
};

// Path ids (PathId): the text becomes its number, or 0 (no row's id) when it is not an id.
compilers.other.addKeyword({
  keyword: PATH_ID_KEYWORD,
  modifying: true,
  schemaType: 'boolean',
  validate: (_enabled: boolean, data: unknown, _schema: unknown, cxt?: DataValidationCxt) => {
    if (cxt && typeof data === 'string') {
      (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = parseId(data) ?? 0;
    }
    return true;
  },
});

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? compilers.body : compilers.other).compile(schema as object);

const MAX_MESSAGES_PER_FIELD = 5;

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type':
      return p.type === 'integer'
        ? 'must be an integer'
        : `must be ${/^[aeiou]/.test(String(p.type)) ? 'an' : 'a'} ${p.type}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return p.limit === 1 ? 'must be a positive integer' : `must be at least ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters`;
    case 'maxLength':
      return `must be at most ${p.limit} characters`;
    case 'minItems':
      return p.limit === 1 ? 'must not be empty' : `must have at least ${p.limit} entries`;
    case 'maxItems':
      return `must have at most ${p.limit} entries`;
    case 'pattern':
      return p.pattern === POSITIVE_INTEGER_PATTERN ? 'must be a positive integer' : 'has an invalid format';
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    // Only the admin API's bodies refuse unknown fields (the Customer API ignores them).
    case 'additionalProperties':
      return `must not have the field "${p.additionalProperty}"`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Turns Ajv errors into the contract's `details`: field → messages. */
export function fieldErrorsFromAjv(errors: ErrorObject[], context: string | undefined): FieldErrors {
  // Field names come from the body (`__proto__`, `hasOwnProperty`…): nothing inherited may answer for one.
  const fields: FieldErrors = Object.create(null);
  for (const error of errors) {
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let field: string;
    let message = describe(error);
    if (error.keyword === 'required')
      field = String((error.params as { missingProperty: string }).missingProperty);
    else if (error.keyword === 'additionalProperties' && segments.length === 0) {
      field = String((error.params as { additionalProperty: string }).additionalProperty);
      message = 'is not a known field';
    } else if (segments.length === 0) field = context ?? 'body';
    else field = segments[0] as string;
    if (segments.length > 1) message = `each entry ${message}`;
    // Every query parameter is text; an array means the parameter was repeated.
    if (context === 'querystring' && error.keyword === 'type') message = 'must be given once';
    const list = fields[field] ?? [];
    fields[field] = list;
    if (!list.includes(message) && list.length < MAX_MESSAGES_PER_FIELD) list.push(message);
  }
  return fields;
}
