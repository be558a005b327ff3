import { iso } from '../../../core/time.js';
import type { GroupListRow, GroupRow } from './groups.repository.js';

export function presentGroup(group: GroupListRow) {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    employee_count: group.employee_count,
  };
}

/**
 * The detail's JSON, piece by piece: the group's fields, then its members chunk by chunk as the
 * database built them (see memberSummaryChunk), never as one text or as member objects.
 */
export async function* presentGroupDetail(
  // The shape of groups.service's GroupDetail (not imported: the service presents webhook events).
  detail: { group: GroupListRow; members: Iterable<string> | AsyncIterable<string> },
): AsyncGenerator<string> {
  const group = JSON.stringify(presentGroup(detail.group));
  let separator = '';
  yield `${group.slice(0, -1)},"employees":[`;
  for await (const chunk of detail.members) {
    yield separator + chunk;
    separator = ',';
  }
  yield ']}';
}

/** A group as operators and administrators see it (the CLI): with its account and times. */
export function presentGroupRecord(group: GroupRow) {
  return {
    ...presentGroup(group),
    account_id: group.account_id,
    created_at: iso(group.created_at),
    updated_at: iso(group.updated_at),
  };
}

/** A group as the web interface shows it: with its times (the account is the page's). */
export function presentAdminGroup(group: GroupRow) {
  return { ...presentGroup(group), created_at: iso(group.created_at), updated_at: iso(group.updated_at) };
}

/** The answer to a membership change of the web interface: its figures, and the group as it is now. */
export function presentMembershipChange<T extends { group: GroupRow }>(change: T) {
  return { ...change, group: presentAdminGroup(change.group) };
}
