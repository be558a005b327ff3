import { iso } from '../../time.js';
import type { Account } from './accounts.service.js';

export function presentAccount(account: Account) {
  return {
    id: account.id,
    name: account.name,
    created_at: iso(account.created_at),
    updated_at: iso(account.updated_at),
  };
}
