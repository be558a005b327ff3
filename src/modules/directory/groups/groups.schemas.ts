import { Type } from '@sinclair/typebox';
import {
  bodyErrors,
  conflictErrors,
  errorSchema,
  idempotencyErrors,
  listErrors,
  standardErrors,
} from '../../../core/http/error-responses.js';
import { Id, IdParam, MAX_ID, PageQuery, Paginated } from '../../../core/http/schemas.js';
import { badListQuery, updatedSinceQuery } from '../sync/sync.schemas.js';

const sales = { id: 3, name: 'Sales', description: 'Everyone in sales', employee_count: 2 };
const member = (id: number, first: string, last: string) => ({
  id,
  first_name: first,
  last_name: last,
  email: `${first.toLowerCase()}.${last.toLowerCase()}@example.com`,
});
const salesDetail = { ...sales, employees: [member(17, 'Ann', 'Lee'), member(18, 'Bo', 'Chen')] };

const groupFields = {
  id: Id,
  name: Type.String({ examples: ['Sales'] }),
  description: Type.String({ examples: ['Everyone in sales'] }),
  employee_count: Type.Integer({ minimum: 0, description: 'Number of members.' }),
};

export const GroupListItem = Type.Object(groupFields, { title: 'Group', examples: [sales] });

export const EmployeeSummary = Type.Object(
  {
    id: Id,
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
  },
  { title: 'EmployeeSummary' },
);

export const GroupDetail = Type.Object(
  { ...groupFields, employees: Type.Array(EmployeeSummary, { description: 'Members, ordered by id.' }) },
  { title: 'GroupDetail', examples: [salesDetail] },
);

export const GroupParams = IdParam('group_id', 'The group id.');

export const ListGroupsQuery = Type.Object({ ...PageQuery, ...updatedSinceQuery });

export const ReplaceMembershipBody = Type.Object(
  {
    employee_ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
      description:
        'The complete new membership: it REPLACES the current one. `[]` empties the group; repeated ids count once; at least 100,000 ids are accepted.',
    }),
    name: Type.Optional(Type.String({ description: 'Renames the group: 1–150 characters after trimming.' })),
    description: Type.Optional(
      Type.String({ description: 'New description: 0–2,000 characters after trimming.' }),
    ),
  },
  {
    title: 'GroupMembership',
    examples: [{ employee_ids: [17, 18] }, { employee_ids: [17, 18, 21], name: 'Sales EMEA' }],
    // Unknown fields are ignored (the contract), never refused.
    additionalProperties: true,
  },
);

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'The `ETag` of a previous read. When it no longer matches, nothing changes and the answer is 412: a safe read-modify-write.',
    }),
  ),
});

const groupNotFound = errorSchema('No group with this id in this account (non-numeric ids included).', [
  { code: 'group_not_found' },
]);

const etagHeader = {
  ETag: { type: 'string', description: 'Changes whenever membership, name or description changes.' },
};

export const listGroupsResponses = {
  200: Paginated(GroupListItem, 'GroupPage'),
  ...listErrors('groups'),
  400: badListQuery('updated_since'),
};

export const getGroupResponses = {
  200: Type.Object(GroupDetail.properties, {
    description: 'The group with its members.',
    examples: [salesDetail],
    headers: etagHeader,
  }),
  ...standardErrors('groups', 'read'),
  404: groupNotFound,
};

export const replaceMembershipResponses = {
  200: Type.Object(GroupDetail.properties, {
    description: 'The group after the change.',
    examples: [salesDetail],
    headers: etagHeader,
  }),
  ...bodyErrors('groups', [
    {
      code: 'validation_failed',
      details: { employee_ids: ['each entry must be a positive integer'] },
    },
    { code: 'invalid_employee_ids', details: { invalid_ids: [404, 405] } },
  ]),
  404: groupNotFound,
  412: errorSchema('`If-Match` does not match the group’s current `ETag`; nothing changed.', [
    { code: 'precondition_failed' },
  ]),
};

// ---- Writes an HR sync needs (v2.3.0): create, rename, delete a group; add or remove members. ----

const nameField = Type.String({ description: '1–150 characters after trimming.', examples: ['Sales'] });
const descriptionField = Type.String({
  description: '0–2,000 characters after trimming.',
  examples: ['Everyone in sales'],
});

export const CreateGroupBody = Type.Object(
  { name: nameField, description: Type.Optional(descriptionField) },
  {
    title: 'NewGroup',
    examples: [{ name: 'Sales', description: 'Everyone in sales' }],
    // Unknown fields are ignored (the contract), never refused.
    additionalProperties: true,
  },
);

export const UpdateGroupBody = Type.Object(
  { name: Type.Optional(nameField), description: Type.Optional(descriptionField) },
  { title: 'GroupChanges', examples: [{ name: 'Sales EMEA' }], additionalProperties: true },
);

export const MembersBody = Type.Object(
  {
    employee_ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
      description:
        'Employees of the account to add (or remove); the group’s other members stay. Repeated ids count once; up to 100,000 ids.',
    }),
  },
  { title: 'GroupMembersChange', examples: [{ employee_ids: [21, 22] }], additionalProperties: true },
);

const membersValidation = [
  {
    code: 'validation_failed' as const,
    details: { employee_ids: ['each entry must be a positive integer'] },
  },
  { code: 'invalid_employee_ids' as const, details: { invalid_ids: [404, 405] } },
];

const groupBody = (description: string) =>
  Type.Object(GroupDetail.properties, { description, examples: [salesDetail], headers: etagHeader });

export const createGroupResponses = {
  201: groupBody('Created, with no members. `Location` names it, `ETag` is its version.'),
  ...bodyErrors('groups', [{ code: 'validation_failed', details: { name: ['is required'] } }]),
  ...idempotencyErrors,
};

export const updateGroupResponses = {
  200: groupBody('The group after the change (its `ETag` moves only when something changed).'),
  ...bodyErrors('groups', [{ code: 'validation_failed', details: { name: ['must not be empty'] } }]),
  ...idempotencyErrors,
  404: groupNotFound,
};

export const deleteGroupResponses = {
  204: Type.Unsafe<undefined>({
    type: 'null',
    description: 'Deleted: its memberships went with it; campaigns’ training history stays.',
  }),
  ...standardErrors('groups', 'write'),
  ...idempotencyErrors,
  404: groupNotFound,
  409: conflictErrors('A scheduled or running campaign targets the group: stop or change it first.', [
    {
      code: 'group_in_use',
      error: 'This group is a target of "Q4 phishing"; stop or change that campaign first',
    },
  ]),
};

export const membersResponses = (verb: 'added' | 'removed') => ({
  200: groupBody(`The group with the employees ${verb}; its \`ETag\` moves when the membership changed.`),
  ...bodyErrors('groups', membersValidation),
  ...idempotencyErrors,
  404: groupNotFound,
});
