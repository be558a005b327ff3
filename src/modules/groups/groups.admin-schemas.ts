import { Type } from '@sinclair/typebox';
import { ListOf, listQueryFields } from '../../admin/list.js';
import { Id, MAX_ID, Timestamp } from '../../http/schemas.js';
import { Employee } from '../employees/employees.schemas.js';
import { MAX_EMAILS } from './groups.membership.js';

/** Request and response schemas of the admin API's group routes (kept out of the OpenAPI document). */

export const AdminGroup = Type.Object({
  id: Id,
  name: Type.String(),
  description: Type.String(),
  employee_count: Type.Integer({ minimum: 0 }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const GroupIdParams = Type.Object({ groupId: Type.String() });

export const SearchListQuery = Type.Object({
  ...listQueryFields,
  search: Type.Optional(Type.String({ maxLength: 200 })),
});

export const GroupList = ListOf(AdminGroup);
export const MemberList = ListOf(Employee);

// Types only: the name and description rules are the service's.
export const CreateGroupBody = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
});
export const UpdateGroupBody = Type.Object({
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

export const EmployeeIdsBody = Type.Object({
  employee_ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 100_000 }),
});

export const EmailsBody = Type.Object({ emails: Type.Array(Type.String(), { maxItems: MAX_EMAILS }) });

export const AddedResponse = Type.Object({ added: Type.Integer({ minimum: 0 }), group: AdminGroup });
export const RemovedResponse = Type.Object({ removed: Type.Integer({ minimum: 0 }), group: AdminGroup });
export const AddedByEmailResponse = Type.Object({
  added: Type.Integer({ minimum: 0 }),
  already_members: Type.Integer({ minimum: 0 }),
  not_found: Type.Array(Type.String()),
  group: AdminGroup,
});
