import { Type } from '@sinclair/typebox';
import {
  bodyErrors,
  conflictErrors,
  errorSchema,
  idempotencyErrors,
  listErrors,
  standardErrors,
} from '../../../core/http/error-responses.js';
import { Id, IdParam, PageQuery, Paginated, Timestamp } from '../../../core/http/schemas.js';
import { badListQuery, updatedSinceQuery } from '../sync/sync.schemas.js';

const ann = {
  id: 17,
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann.lee@example.com',
  created_at: '2026-11-22T09:14:03.512Z',
  updated_at: '2026-11-22T09:14:03.512Z',
};

export const Employee = Type.Object(
  {
    id: Id,
    first_name: Type.String({ examples: ['Ann'] }),
    last_name: Type.String({ examples: ['Lee'] }),
    email: Type.String({ description: 'As first sent (trimmed).', examples: ['ann.lee@example.com'] }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Employee', examples: [ann] },
);

// Types only: trimming, lengths and address syntax are the service's rules (shared with the
// web interface and the CLI), reported in the same `details` shape.
export const CreateEmployeeBody = Type.Object(
  {
    first_name: Type.String({ description: '1–150 characters after trimming.' }),
    last_name: Type.String({ description: '1–150 characters after trimming.' }),
    email: Type.String({
      description:
        'A valid address of at most 254 characters whose domain has a dot. Unique per account, compared case-insensitively.',
    }),
  },
  {
    title: 'NewEmployee',
    examples: [{ first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' }],
    // Unknown fields are ignored (the contract), never refused.
    additionalProperties: true,
  },
);

export const EmployeeParams = IdParam('employee_id', 'The employee id.');

export const ListEmployeesQuery = Type.Object({
  ...PageQuery,
  email: Type.Optional(
    Type.String({
      description: 'Only the employee with this exact address (case-insensitive).',
      examples: ['ann.lee@example.com'],
    }),
  ),
  ...updatedSinceQuery,
});

export const createEmployeeResponses = {
  201: Type.Object(Employee.properties, {
    description: 'Created. `Location` names the new employee.',
    examples: [ann],
  }),
  ...bodyErrors('employees', [
    {
      code: 'validation_failed',
      details: { email: ['must be a valid email address'], last_name: ['is required'] },
    },
  ]),
  ...idempotencyErrors,
  409: conflictErrors('An employee of this account already has this address (compared case-insensitively).', [
    { code: 'email_taken' },
  ]),
};

export const listEmployeesResponses = {
  200: Paginated(Employee, 'EmployeePage'),
  ...listErrors('employees'),
  400: badListQuery('updated_since'),
};

export const getEmployeeResponses = {
  200: Type.Object(Employee.properties, { description: 'The employee.', examples: [ann] }),
  ...standardErrors('employees', 'read'),
  404: errorSchema('No employee with this id in this account.', [{ code: 'employee_not_found' }]),
};

// ---- Writes an HR sync needs (v2.3.0): change and offboard an employee. ----

export const UpdateEmployeeBody = Type.Object(
  {
    first_name: Type.Optional(CreateEmployeeBody.properties.first_name),
    last_name: Type.Optional(CreateEmployeeBody.properties.last_name),
    email: Type.Optional(CreateEmployeeBody.properties.email),
  },
  {
    title: 'EmployeeChanges',
    description: 'Only the fields sent change.',
    examples: [{ last_name: 'Lee-Park' }],
    additionalProperties: true,
  },
);

export const updateEmployeeResponses = {
  200: Type.Object(Employee.properties, { description: 'The employee after the change.', examples: [ann] }),
  ...bodyErrors('employees', [
    { code: 'validation_failed', details: { email: ['must be a valid email address'] } },
  ]),
  ...idempotencyErrors,
  404: errorSchema('No employee with this id in this account.', [{ code: 'employee_not_found' }]),
  409: conflictErrors('Another employee of this account has this address (compared case-insensitively).', [
    { code: 'email_taken' },
  ]),
};

export const deleteEmployeeResponses = {
  204: Type.Unsafe<undefined>({
    type: 'null',
    description:
      'Offboarded: the employee leaves every group (their ETags move) and gets no more training or simulations; their training and simulation history stays in the figures, shown as "Deleted employee #<id>", without their name or address. The id is never given out again; the address is free at once.',
  }),
  ...standardErrors('employees', 'write'),
  ...idempotencyErrors,
  404: errorSchema('No employee with this id in this account.', [{ code: 'employee_not_found' }]),
};
