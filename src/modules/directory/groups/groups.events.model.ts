import type { GroupListRow } from './groups.repository.js';
import type { Group } from './groups.service.js';

/** The events the groups module emits (core/events.ts); subscribers run inside its transactions. */
declare module '../../../core/events.js' {
  interface DomainEvents {
    'group.created': { accountId: number; group: Group };
    /** A group was renamed or its description changed. */
    'group.updated': { accountId: number; group: Group };
    /**
     * A group is about to be deleted (locked, still whole). A subscriber whose campaigns must keep
     * it adds their names to `targetedBy`: any name, and the deletion is refused (409
     * group_in_use, naming them all).
     */
    'group.deleting': { accountId: number; groupId: number; targetedBy: string[] };
    /** A group was deleted (its row and memberships are gone). */
    'group.deleted': { accountId: number; groupId: number; at: number };
    /**
     * The membership of a locked group changed: watched before the change (a subscriber may read
     * the members before), emitted after with the group as it ended and, when the owner knows
     * them, its member ids sorted.
     */
    'group.membership_changed': {
      accountId: number;
      groupId: number;
      group: GroupListRow;
      memberIds?: readonly number[];
    };
    /**
     * These employees joined the group (one slice of a change at a time). Watched once before
     * the change: when nobody wants it, the added ids are not even returned by the insert.
     */
    'group.members_added': { accountId: number; groupId: number; employeeIds: readonly number[] };
  }
  interface DomainEventHeads {
    'group.membership_changed': { accountId: number; groupId: number };
    'group.members_added': { accountId: number; groupId: number };
  }
}
