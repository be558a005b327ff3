// API keys of an account: the Integration area (docs/admin-api.md § API keys).
import { type ListPage, request } from './client';

export const KEY_RESOURCES = ['employees', 'groups', 'campaigns'] as const;
export const KEY_ACCESS = ['read', 'write'] as const;
export type KeyResource = (typeof KEY_RESOURCES)[number];
export type KeyAccess = (typeof KEY_ACCESS)[number];
export type Permission = `${KeyResource}:${KeyAccess}`;

export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  permissions: Permission[];
  /** Requests per minute. */
  rate_limit: number;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked' | 'expired';
}

/** A just-created key: `key` (the secret) is shown only this once. */
export interface CreatedKey extends ApiKey {
  key: string;
}

export interface NewKeyInput {
  name: string;
  permissions: Permission[];
  expires_at?: string | null;
}

export function listKeys(accountId: number): Promise<ListPage<ApiKey>> {
  return request(`/accounts/${accountId}/keys`, { query: { page_size: 200 } });
}

export function createKey(accountId: number, input: NewKeyInput): Promise<CreatedKey> {
  return request(`/accounts/${accountId}/keys`, { method: 'POST', body: input });
}

export function revokeKey(accountId: number, keyId: number): Promise<ApiKey> {
  return request(`/accounts/${accountId}/keys/${keyId}/revoke`, { method: 'POST' });
}

/** Operators only. */
export function setKeyRateLimit(accountId: number, keyId: number, rateLimit: number): Promise<ApiKey> {
  return request(`/accounts/${accountId}/keys/${keyId}`, {
    method: 'PATCH',
    body: { rate_limit: rateLimit },
  });
}
