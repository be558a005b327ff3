import { Type } from '@sinclair/typebox';
import { ListOf, listQueryFields } from '../../admin/list.js';
import { Id } from '../../http/schemas.js';
import { MAX_IMPORT_ROWS } from './employees.import.js';
import { Employee } from './employees.schemas.js';
import { EMPLOYEE_SORTS, type EmployeeSort, type SortOrder } from './employees.search.repository.js';

/** Request and response schemas of the admin API's employee routes (kept out of the OpenAPI document). */

export const EmployeeIdParams = Type.Object({ employeeId: Type.String() });

export const EmployeeListQuery = Type.Object({
  ...listQueryFields,
  search: Type.Optional(Type.String({ maxLength: 200 })),
  sort: Type.Optional(Type.Unsafe<EmployeeSort>({ type: 'string', enum: [...EMPLOYEE_SORTS] })),
  order: Type.Optional(Type.Unsafe<SortOrder>({ type: 'string', enum: ['asc', 'desc'] })),
});

export const EmployeeList = ListOf(Employee);

const GroupRef = Type.Object({ id: Id, name: Type.String() });

export const EmployeeWithGroups = Type.Object({ ...Employee.properties, groups: Type.Array(GroupRef) });

// Types only: the rules (trimming, lengths, address syntax) are the service's, as for a create.
export const UpdateEmployeeBody = Type.Object({
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
});

// Rows are checked one by one by the service, so a bad row is reported in its result instead
// of refusing the whole file.
const ImportRow = Type.Object(
  {
    first_name: Type.Optional(Type.Unknown()),
    last_name: Type.Optional(Type.Unknown()),
    email: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

export const ImportBody = Type.Object({
  rows: Type.Array(ImportRow, { maxItems: MAX_IMPORT_ROWS }),
  dry_run: Type.Optional(Type.Boolean()),
});

export const ImportResponse = Type.Object({
  created: Type.Integer({ minimum: 0 }),
  results: Type.Array(
    Type.Object({
      status: Type.String(),
      id: Type.Optional(Id),
      errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    }),
  ),
});
