import { Type } from '@sinclair/typebox';
import { bodyErrors, errorSchema, idempotencyErrors } from '../../../core/http/error-responses.js';
import { OPENAPI_OVERRIDE } from '../../../core/http/openapi-components.js';
import { Id } from '../../../core/http/schemas.js';
import { MAX_BULK_ROWS } from './employees.bulk.commands.js';
import { CreateEmployeeBody } from './employees.schemas.js';

/**
 * A bulk upsert's body is refused as a whole (400, nothing written) only when it is not
 * `{"employees": [objects…]}` with 1 to 10,000 rows. What is inside a row is checked row by row
 * (employees.bulk.commands.ts), so one bad row never refuses the others.
 */

/**
 * 10,000 rows of names and addresses of the longest lengths allowed (about 600 bytes a row in
 * ASCII), or of real ones (about 120 bytes) with a few other fields each, with room to spare.
 */
export const BULK_BODY_LIMIT = 8 * 1024 * 1024;

const row = Type.Object(
  {},
  {
    additionalProperties: true,
    // Validated as any object; documented as what it must hold.
    [OPENAPI_OVERRIDE]: CreateEmployeeBody,
  },
);

export const BulkEmployeesBody = Type.Object(
  {
    employees: Type.Array(row, {
      minItems: 1,
      maxItems: MAX_BULK_ROWS,
      description: `1 to ${MAX_BULK_ROWS.toLocaleString('en')} people, each with the fields and rules of a create. Each address may appear once.`,
    }),
  },
  {
    title: 'BulkEmployees',
    examples: [
      {
        employees: [
          { first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' },
          { first_name: 'Bo', last_name: 'Chen', email: 'bo.chen@example.com' },
        ],
      },
    ],
    // Unknown fields are ignored (the contract), never refused.
    additionalProperties: true,
  },
);

const RowError = Type.Object(
  {
    code: Type.Unsafe<'validation_failed' | 'duplicate_email'>({
      type: 'string',
      enum: ['validation_failed', 'duplicate_email'],
      description:
        '`validation_failed`: a field breaks a rule of the create (`details` says which). `duplicate_email`: an earlier row of this request has the address (compared case-insensitively); only the first is applied.',
    }),
    message: Type.String(),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'For `validation_failed`: each offending field mapped to a list of messages.',
      }),
    ),
  },
  {
    title: 'BulkRowError',
    additionalProperties: false,
    examples: [
      {
        code: 'validation_failed',
        message: 'Validation failed',
        details: { email: ['must be a valid email address'] },
      },
    ],
  },
);

const created = { index: 0, email: 'ann.lee@example.com', status: 'created', id: 17 };
const refused = {
  index: 1,
  email: 'bo.chen@',
  status: 'error',
  error: {
    code: 'validation_failed',
    message: 'Validation failed',
    details: { email: ['must be a valid email address'] },
  },
};

export const BulkEmployeeResult = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'The row’s position in the request, from 0.' }),
    email: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: 'The row’s address as sent (trimmed); null when it was not a string.',
    }),
    status: Type.Unsafe<'created' | 'updated' | 'unchanged' | 'error'>({
      type: 'string',
      enum: ['created', 'updated', 'unchanged', 'error'],
      description:
        '`created`: a new employee. `updated`: the account’s employee with this address (case aside) had another name or spelling of the address, now the row’s (`updated_at` moved). `unchanged`: it already matched; nothing written. `error`: the row was not applied (see `error`).',
    }),
    id: Type.Optional(Id),
    error: Type.Optional(RowError),
  },
  { title: 'BulkEmployeeResult', additionalProperties: false, examples: [created, refused] },
);

const count = (what: string) => Type.Integer({ minimum: 0, description: `Rows ${what}.` });

export const BulkEmployeesResponse = Type.Object(
  {
    results: Type.Array(BulkEmployeeResult, { description: 'One per row sent, in the same order.' }),
    counts: Type.Object(
      {
        created: count('created'),
        updated: count('updated'),
        unchanged: count('unchanged'),
        error: count('not applied'),
      },
      { additionalProperties: false },
    ),
  },
  {
    title: 'BulkEmployeesResult',
    description: 'Each row’s outcome; the valid rows were applied even if others were not.',
    additionalProperties: false,
    examples: [{ results: [created, refused], counts: { created: 1, updated: 0, unchanged: 0, error: 1 } }],
  },
);

export const bulkEmployeesResponses = {
  200: BulkEmployeesResponse,
  ...bodyErrors('employees', [
    {
      code: 'validation_failed',
      details: { employees: [`must have at most ${MAX_BULK_ROWS} entries`] },
    },
  ]),
  ...idempotencyErrors,
  413: errorSchema(
    `The body is larger than ${BULK_BODY_LIMIT / 1024 / 1024} MiB (the limit of this route, whatever \`BODY_LIMIT\` says): send the rows in two requests.`,
    [{ code: 'payload_too_large' }],
  ),
};
