import { Type } from '@sinclair/typebox';
import { Body, PathId } from '../../../core/http/admin-schemas.js';
import { Id, ListOf, listQueryFields } from '../../../core/http/schemas.js';
import { MAX_IMPORT_ROWS } from './employees.import.service.js';
import { Employee } from './employees.schemas.js';
import { EMPLOYEE_SORTS, type EmployeeSort, type SortOrder } from './employees.search.repository.js';

/** Request and response schemas of the admin API's employee routes (in /admin/api/openapi.json). */

export const EmployeeIdParams = Type.Object({ accountId: PathId, employeeId: PathId });

export const EmployeeListQuery = Type.Object({
  ...listQueryFields,
  search: Type.Optional(
    Type.String({ maxLength: 200, description: 'Matches first name, last name or email (substring).' }),
  ),
  sort: Type.Optional(Type.Unsafe<EmployeeSort>({ type: 'string', enum: [...EMPLOYEE_SORTS] })),
  order: Type.Optional(Type.Unsafe<SortOrder>({ type: 'string', enum: ['asc', 'desc'] })),
});

/** An employee as the web interface shows it: with `active` (false once deactivated through SCIM). */
export const AdminEmployee = Type.Object(
  {
    ...Employee.properties,
    active: Type.Boolean({
      description: 'False once deactivated (SCIM): kept, but no longer trained or phished.',
    }),
  },
  { title: 'AdminEmployee' },
);

export const EmployeeList = ListOf(AdminEmployee);

const GroupRef = Type.Object({ id: Id, name: Type.String() }, { title: 'GroupRef' });

export const EmployeeWithGroups = Type.Object(
  { ...AdminEmployee.properties, groups: Type.Array(GroupRef) },
  { title: 'EmployeeWithGroups' },
);

// Types only: the rules (trimming, lengths, address syntax) are the service's, as for a create.
export const CreateEmployeeBody = Body({
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
});

export const UpdateEmployeeBody = Body({
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
});

// Rows are checked one by one by the service, so a bad value is reported in its row's result
// instead of refusing the whole file; a field that no row can have still refuses the request.
const ImportRow = Type.Object(
  {
    first_name: Type.Optional(Type.Unknown({ description: 'A string; checked per row.' })),
    last_name: Type.Optional(Type.Unknown({ description: 'A string; checked per row.' })),
    email: Type.Optional(Type.Unknown({ description: 'A string; checked per row.' })),
  },
  { additionalProperties: false },
);

export const ImportBody = Body({
  rows: Type.Array(ImportRow, { maxItems: MAX_IMPORT_ROWS }),
  dry_run: Type.Optional(Type.Boolean({ description: 'Check every row, create nothing.' })),
});

export const IMPORT_STATUSES = ['created', 'would_create', 'exists', 'invalid', 'duplicate'] as const;

export const ImportResponse = Type.Object(
  {
    created: Type.Integer({ minimum: 0 }),
    results: Type.Array(
      Type.Object({
        status: Type.Union(
          IMPORT_STATUSES.map((s) => Type.Literal(s)),
          {
            description: '`duplicate`: the address appears earlier in the same request.',
          },
        ),
        id: Type.Optional(Id),
        errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
      }),
      { description: 'One per row, in the same order.' },
    ),
  },
  { title: 'ImportResult' },
);
