// Groups of an account and their members (docs/admin-api.md § Groups).
import { type ListPage, type ListParams, request } from './client';
import type { Employee } from './employees';

export interface Group {
  id: number;
  name: string;
  description: string;
  employee_count: number;
  created_at: string;
  updated_at: string;
}

export interface GroupInput {
  name: string;
  description: string;
}

export interface AddByEmailAnswer {
  added: number;
  already_members: number;
  not_found: string[];
  group: Group;
}

/** The most addresses one by-email request takes. */
export const BY_EMAIL_CHUNK = 10000;

const base = (accountId: number) => `/accounts/${accountId}/groups`;

export function listGroups(accountId: number, params: ListParams = {}): Promise<ListPage<Group>> {
  return request(base(accountId), { query: { ...params } });
}

export function getGroup(accountId: number, groupId: number): Promise<Group> {
  return request(`${base(accountId)}/${groupId}`);
}

export function createGroup(accountId: number, input: GroupInput): Promise<Group> {
  return request(base(accountId), { method: 'POST', body: input });
}

export function updateGroup(accountId: number, groupId: number, input: Partial<GroupInput>): Promise<Group> {
  return request(`${base(accountId)}/${groupId}`, { method: 'PATCH', body: input });
}

export function deleteGroup(accountId: number, groupId: number): Promise<void> {
  return request(`${base(accountId)}/${groupId}`, { method: 'DELETE' });
}

export function listMembers(accountId: number, groupId: number, params: ListParams = {}) {
  return request<ListPage<Employee>>(`${base(accountId)}/${groupId}/members`, { query: { ...params } });
}

export function addMembers(accountId: number, groupId: number, employeeIds: number[]) {
  return request<{ added: number; group: Group }>(`${base(accountId)}/${groupId}/members`, {
    method: 'POST',
    body: { employee_ids: employeeIds },
  });
}

export function removeMembers(accountId: number, groupId: number, employeeIds: number[]) {
  return request<{ removed: number; group: Group }>(`${base(accountId)}/${groupId}/members/remove`, {
    method: 'POST',
    body: { employee_ids: employeeIds },
  });
}

/** At most BY_EMAIL_CHUNK addresses. */
export function addMembersByEmail(accountId: number, groupId: number, emails: string[]) {
  return request<AddByEmailAnswer>(`${base(accountId)}/${groupId}/members/by-email`, {
    method: 'POST',
    body: { emails },
  });
}
