import type { QueryClient } from '@tanstack/react-query';
import type { Group } from '../../api/groups';

/** After members were added or removed: the group's count, its member list, lists showing it. */
export function membershipChanged(queryClient: QueryClient, accountId: number, group: Group): void {
  queryClient.setQueryData(['group', accountId, group.id], group);
  for (const key of ['members', 'groups', 'employee'])
    queryClient.invalidateQueries({ queryKey: [key, accountId] });
}
