import { iso } from '../../time.js';
import type { Tombstone } from './tombstones.repository.js';

export function presentTombstone(tombstone: Tombstone) {
  return { id: tombstone.id, deleted_at: iso(tombstone.deleted_at) };
}
