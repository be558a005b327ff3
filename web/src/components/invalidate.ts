import type { QueryClient } from '@tanstack/react-query';

/** Marks the account's queries under each key (['groups', accountId], …) stale. */
export function invalidateAccount(queryClient: QueryClient, accountId: number, ...keys: string[]): void {
  for (const key of keys) queryClient.invalidateQueries({ queryKey: [key, accountId] });
}
