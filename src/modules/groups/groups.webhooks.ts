import type { Db } from '../../db/database.js';
import { emitWebhookEvents, webhooksListen } from '../webhooks/webhooks.emit.js';
import { memberIdsOfGroup } from './groups.members.repository.js';
import { presentGroup } from './groups.presenter.js';
import type { GroupListRow } from './groups.repository.js';

/**
 * Watches a membership change of a locked group for `group.membership_changed`: call it before
 * the change, inside its transaction, and the function it returns after, with the group as it
 * ended (and its member ids, sorted, when the caller knows them: a replacement does). When no
 * endpoint listens this costs the one read of the endpoints; otherwise it reads the member ids
 * before (and after, unless given) and emits the ids added and removed (nothing if none moved).
 */
export async function watchMembership(
  trx: Db,
  accountId: number,
  groupId: number,
): Promise<(group: GroupListRow, memberIds?: readonly number[]) => Promise<void>> {
  if (!(await webhooksListen(trx, accountId, ['group.membership_changed']))) return async () => {};
  const before = await memberIdsOfGroup(trx, accountId, groupId);
  return async (group, memberIds) => {
    const after = memberIds ?? (await memberIdsOfGroup(trx, accountId, groupId));
    const had = new Set(before);
    const has = new Set(after);
    const added = after.filter((id) => !had.has(id));
    const removed = before.filter((id) => !has.has(id));
    if (added.length + removed.length === 0) return;
    await emitWebhookEvents(trx, accountId, [
      {
        type: 'group.membership_changed',
        data: { group: presentGroup(group), added_employee_ids: added, removed_employee_ids: removed },
      },
    ]);
  };
}
