import { Type } from '@sinclair/typebox';
import { Body, PathId } from '../../../core/http/admin-schemas.js';
import { Id, ListOf, listQueryFields, MAX_ID, Timestamp } from '../../../core/http/schemas.js';
import { Employee } from '../employees/employees.schemas.js';
import { MAX_EMAILS } from './groups.membership.commands.js';

/** Request and response schemas of the admin API's group routes (in /admin/api/openapi.json). */

export const AdminGroup = Type.Object(
  {
    id: Id,
    name: Type.String(),
    description: Type.String(),
    employee_count: Type.Integer({ minimum: 0 }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Group' },
);

export const GroupIdParams = Type.Object({ accountId: PathId, groupId: PathId });

export const SearchListQuery = Type.Object({
  ...listQueryFields,
  search: Type.Optional(Type.String({ maxLength: 200 })),
});

export const GroupList = ListOf(AdminGroup);
export const MemberList = ListOf(Employee);

// Types only: the name and description rules are the service's.
export const CreateGroupBody = Body({
  name: Type.String(),
  description: Type.Optional(Type.String()),
});
export const UpdateGroupBody = Body({
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

export const EmployeeIdsBody = Body({
  employee_ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 100_000 }),
});

export const EmailsBody = Body({ emails: Type.Array(Type.String(), { maxItems: MAX_EMAILS }) });

export const AddedResponse = Type.Object({ added: Type.Integer({ minimum: 0 }), group: AdminGroup });
export const RemovedResponse = Type.Object({ removed: Type.Integer({ minimum: 0 }), group: AdminGroup });
export const AddedByEmailResponse = Type.Object({
  added: Type.Integer({ minimum: 0 }),
  already_members: Type.Integer({ minimum: 0 }),
  not_found: Type.Array(Type.String()),
  group: AdminGroup,
});
