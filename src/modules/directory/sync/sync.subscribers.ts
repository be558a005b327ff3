import { subscribe } from '../../../core/events.js';
import { recordTombstone } from './sync.tombstones.repository.js';

/**
 * An incremental sync learns of deletions from tombstones: one per deleted employee and group,
 * written by the deleting transaction (a deletion that rolls back leaves none).
 */
export function subscribeSync(): void {
  subscribe('employee.deleted', 'sync.tombstone', (trx, { accountId, employeeId, at }) =>
    recordTombstone(trx, accountId, 'employee', employeeId, at),
  );
  subscribe('group.deleted', 'sync.tombstone', (trx, { accountId, groupId, at }) =>
    recordTombstone(trx, accountId, 'group', groupId, at),
  );
}
