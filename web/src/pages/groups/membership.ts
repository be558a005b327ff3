import type { QueryClient } from '@tanstack/react-query';
import type { Group } from '../../api/types';
import { invalidateAccount } from '../../components/invalidate';

/** After members were added or removed: the group's count, its member list, lists showing it. */
export function membershipChanged(queryClient: QueryClient, accountId: number, group: Group): void {
  queryClient.setQueryData(['group', accountId, group.id], group);
  invalidateAccount(queryClient, accountId, 'members', 'groups', 'employee');
}
