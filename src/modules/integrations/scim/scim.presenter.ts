import { iso } from '../../../core/time.js';
import type { Employee, Group } from '../../directory/index.js';
import type { MemberRef } from './scim.repository.js';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** A person as a SCIM User: userName and the work address are the employee's email. */
export function presentUser(employee: Employee, base: string) {
  const id = String(employee.id);
  return {
    schemas: [USER_SCHEMA],
    id,
    ...(employee.external_id !== null && { externalId: employee.external_id }),
    userName: employee.email,
    name: {
      givenName: employee.first_name,
      familyName: employee.last_name,
      formatted: `${employee.first_name} ${employee.last_name}`,
    },
    displayName: `${employee.first_name} ${employee.last_name}`,
    emails: [{ value: employee.email, type: 'work', primary: true }],
    active: employee.active === 1,
    meta: {
      resourceType: 'User',
      created: iso(employee.created_at),
      lastModified: iso(employee.updated_at),
      location: `${base}/Users/${id}`,
      version: `W/"${employee.updated_at}"`,
    },
  };
}

export type ScimUser = ReturnType<typeof presentUser>;

/** A group as a SCIM Group; `members` absent when the client excluded them. */
export function presentGroup(group: Group, base: string, members: MemberRef[] | undefined) {
  const id = String(group.id);
  return {
    schemas: [GROUP_SCHEMA],
    id,
    ...(group.external_id !== null && { externalId: group.external_id }),
    displayName: group.name,
    ...(members && {
      members: members.map((m) => ({
        value: String(m.employeeId),
        display: m.email,
        $ref: `${base}/Users/${m.employeeId}`,
        type: 'User',
      })),
    }),
    meta: {
      resourceType: 'Group',
      created: iso(group.created_at),
      lastModified: iso(group.updated_at),
      location: `${base}/Groups/${id}`,
      version: `W/"${group.version}"`,
    },
  };
}

/** Keeps the attributes asked for (`attributes`) or drops those excluded (`excludedAttributes`); id, schemas and meta always stay. */
export function projectAttributes<T extends Record<string, unknown>>(
  resource: T,
  projection: { attributes?: string[]; excluded?: string[] },
): T {
  const always = new Set(['id', 'schemas', 'meta']);
  const top = (names: string[]) => new Set(names.map((n) => n.split('.')[0]?.toLowerCase() ?? ''));
  const keep = projection.attributes ? top(projection.attributes) : undefined;
  const drop = top(projection.excluded ?? []);
  return Object.fromEntries(
    Object.entries(resource).filter(([key]) => {
      if (always.has(key)) return true;
      const lower = key.toLowerCase();
      return (keep === undefined || keep.has(lower)) && !drop.has(lower);
    }),
  ) as T; // id, schemas and meta are always there; the response schema has every other attribute optional
}

export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
