import { Type } from '@sinclair/typebox';
import { bodyErrors, errorSchema, listErrors, standardErrors } from '../../http/error-responses.js';
import { Id, IdParam, PageQuery, Paginated, Timestamp } from '../../http/schemas.js';

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
    examples: [{ first_name: 'Ann', last_name: 'Lee', email: 'ann.lee@example.com' }],
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
  409: errorSchema('An employee of this account already has this address (compared case-insensitively).', [
    { code: 'email_taken' },
  ]),
};

export const listEmployeesResponses = {
  200: Paginated(Employee, 'EmployeePage'),
  ...listErrors('employees'),
};

export const getEmployeeResponses = {
  200: Type.Object(Employee.properties, { description: 'The employee.', examples: [ann] }),
  ...standardErrors('employees', 'read'),
  404: errorSchema('No employee with this id in this account.', [{ code: 'employee_not_found' }]),
};
