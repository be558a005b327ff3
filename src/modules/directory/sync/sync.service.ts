import type { Db } from '../../../core/db/database.js';
import { validationFailed } from '../../../core/errors.js';
import { fetchPage, type Page, type PageRequest } from '../../../core/pagination.js';
import { parseInstant } from '../../../core/time.js';
import {
  countTombstones,
  listTombstones,
  type Tombstone,
  type TombstoneResource,
} from './sync.tombstones.repository.js';

/**
 * Incremental sync (issue 12): `updated_since=` on the employee and group lists, and the ids
 * deleted since an instant. Instants are ISO 8601 with a time zone; anything else is a 400
 * naming the parameter, before anything is read.
 */

/** The instant a sync parameter names, in epoch milliseconds; undefined when it was not sent. */
export function instantParameter(field: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseInstant(text);
  if (ms === null)
    throw validationFailed({
      [field]: ['must be an ISO 8601 instant with a time zone, such as 2026-11-22T09:14:03.512Z'],
    });
  return ms;
}

/**
 * A page of the ids of the account's `resource`s deleted at or after `since` (all when absent),
 * oldest first: a sync pages through them after its last run and removes each.
 */
export function deletedSince(
  db: Db,
  accountId: number,
  resource: TombstoneResource,
  since: string | undefined,
  page: PageRequest,
): Promise<Page<Tombstone>> {
  const sinceMs = instantParameter('since', since);
  return fetchPage(
    page,
    () => countTombstones(db, accountId, resource, sinceMs),
    (limit, offset) => listTombstones(db, accountId, resource, sinceMs, limit, offset),
  );
}
