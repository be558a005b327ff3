import { Type } from '@sinclair/typebox';
import { bodyErrors, errorSchema, listErrors, standardErrors } from '../../http/error-responses.js';
import { Id, IdParam, MAX_ID, PageQuery, Paginated } from '../../http/schemas.js';

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

export const ListGroupsQuery = Type.Object(PageQuery);

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
    examples: [{ employee_ids: [17, 18] }, { employee_ids: [17, 18, 21], name: 'Sales EMEA' }],
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

export const listGroupsResponses = { 200: Paginated(GroupListItem, 'GroupPage'), ...listErrors('groups') };

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
