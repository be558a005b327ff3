// Customer accounts (docs/admin-api.md § Accounts).
import { type ListPage, type ListParams, request } from './client';

export interface Account {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface AccountOverview {
  employees: number;
  groups: number;
  campaigns: number;
  active_keys: number;
}

export function listAccounts(params: ListParams = {}): Promise<ListPage<Account>> {
  return request('/accounts', { query: { ...params } });
}

export function getAccount(accountId: number): Promise<Account> {
  return request(`/accounts/${accountId}`);
}

export function createAccount(name: string): Promise<Account> {
  return request('/accounts', { method: 'POST', body: { name } });
}

export function renameAccount(accountId: number, name: string): Promise<Account> {
  return request(`/accounts/${accountId}`, { method: 'PATCH', body: { name } });
}

export function getOverview(accountId: number): Promise<AccountOverview> {
  return request(`/accounts/${accountId}/overview`);
}
