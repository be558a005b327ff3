import { createContext, useContext } from 'react';
import type { Account } from '../api/types';

/** The customer account whose pages are shown (/a/:accountId/…). */
export const AccountContext = createContext<Account | null>(null);

export function useAccount(): Account {
  const account = useContext(AccountContext);
  if (!account) throw new Error('useAccount outside AccountLayout');
  return account;
}

/** Path of a page of the current account: accountPath(7, 'employees') → /a/7/employees */
export function accountPath(accountId: number, ...parts: (string | number)[]): string {
  return ['', 'a', accountId, ...parts].join('/');
}
