import type { Db } from '../../db/database.js';
import { invalidEmployeeIds, validationFailed } from '../../errors.js';
import { normalizeEmail } from '../../fields.js';
import { parseId } from '../../ids.js';
import { enrollNewMembers } from '../campaigns/campaigns.launch.js';
import { employeesByEmail } from '../employees/employees.repository.js';
import {
  addNewMembers,
  removeMembers,
  retryIfEmployeeDeleted,
  unknownEmployeeIds,
} from './groups.members.repository.js';
import { lockGroup, recordGroupChange } from './groups.repository.js';
import { type Group, groupNotFound } from './groups.service.js';

/**
 * Adding and removing some members (the web interface), beside replaceMembership (the
 * Customer API): the same locks, id checks and version rule. Each change is one transaction
 * on the locked group; the count and version move only when a membership changed.
 */

export const MAX_EMAILS = 10_000;

/**
 * Runs `change` on the locked group and records it. Order of checks: group exists (404) →
 * then whatever `change` checks (400).
 */
function changeMembers<T extends { delta: number }>(
  db: Db,
  accountId: number,
  groupId: string | number,
  change: (trx: Db, groupId: number) => Promise<T>,
): Promise<T & { group: Group }> {
  const id = parseId(groupId);
  if (id === null) throw groupNotFound();
  return retryIfEmployeeDeleted(() =>
    db.transaction().execute(async (trx) => {
      let group = await lockGroup(trx, accountId, id);
      if (!group) throw groupNotFound();
      const result = await change(trx, id);
      if (result.delta !== 0) {
        const employee_count = group.employee_count + result.delta;
        group = await recordGroupChange(trx, id, { employee_count }, Date.now());
      }
      return { ...result, group };
    }),
  );
}

/** Distinct ids, ascending; any that is not an employee of the account → 400 Invalid employee_ids. */
async function checkedIds(trx: Db, accountId: number, employeeIds: number[]): Promise<number[]> {
  const ids = [...new Set(employeeIds)].sort((a, b) => a - b);
  const unknown = await unknownEmployeeIds(trx, accountId, ids);
  if (unknown.length > 0) throw invalidEmployeeIds(unknown);
  return ids;
}

/** Adds employees to a group; those already in it are left as they are. */
export async function addGroupMembers(
  db: Db,
  accountId: number,
  groupId: string | number,
  employeeIds: number[],
): Promise<{ added: number; group: Group }> {
  const { delta, group } = await changeMembers(db, accountId, groupId, async (trx, id) => {
    const ids = await checkedIds(trx, accountId, employeeIds);
    const added = await addNewMembers(trx, id, ids);
    if (added > 0) await enrollNewMembers(trx, { accountId, groupId: id, employeeIds: ids });
    return { delta: added };
  });
  return { added: delta, group };
}

/** Removes employees from a group; those not in it are ignored (but must be the account's). */
export async function removeGroupMembers(
  db: Db,
  accountId: number,
  groupId: string | number,
  employeeIds: number[],
): Promise<{ removed: number; group: Group }> {
  const { delta, group } = await changeMembers(db, accountId, groupId, async (trx, id) => ({
    delta: -(await removeMembers(trx, id, await checkedIds(trx, accountId, employeeIds))),
  }));
  return { removed: -delta, group };
}

interface AddedByEmail {
  added: number;
  already_members: number;
  /** The addresses (as given, trimmed) of no employee of the account, in input order, each once. */
  not_found: string[];
  group: Group;
}

/** Adds the account's employees with these addresses (compared case-insensitively) to a group. */
export async function addGroupMembersByEmail(
  db: Db,
  accountId: number,
  groupId: string | number,
  emails: string[],
): Promise<AddedByEmail> {
  if (emails.length > MAX_EMAILS)
    throw validationFailed({ emails: [`must have at most ${MAX_EMAILS} entries`] });
  const wanted = new Map<string, string>();
  for (const email of emails) {
    const given = email.trim();
    const key = normalizeEmail(given);
    if (key !== '' && !wanted.has(key)) wanted.set(key, given);
  }
  // No stored address holds a NUL (and PostgreSQL could not compare one): such an entry is not found.
  const lookup = [...wanted.keys()].filter((key) => !key.includes('\u0000'));
  const result = await changeMembers(db, accountId, groupId, async (trx, id) => {
    const found = await employeesByEmail(trx, accountId, lookup);
    const ids = found.map((e) => e.id);
    const delta = await addNewMembers(trx, id, ids);
    if (delta > 0) await enrollNewMembers(trx, { accountId, groupId: id, employeeIds: ids });
    return { delta, matched: found.length, found: new Set(found.map((e) => e.email_normalized)) };
  });
  return {
    added: result.delta,
    already_members: result.matched - result.delta,
    not_found: [...wanted].filter(([key]) => !result.found.has(key)).map(([, given]) => given),
    group: result.group,
  };
}
