import { iso } from '../../../core/time.js';
import type { Tombstone } from './sync.tombstones.repository.js';

export function presentTombstone(tombstone: Tombstone) {
  return { id: tombstone.id, deleted_at: iso(tombstone.deleted_at) };
}
