import { bulkChange, diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { distinctSorted, sliceSize, slices } from '../../../core/db/id-slices.js';
import { invalidEmployeeIds, preconditionFailed, validationFailed } from '../../../core/errors.js';
import { yieldToOthers } from '../../../core/event-loop.js';
import { type Handler, watch } from '../../../core/events.js';
import { normalizeEmail } from '../../../core/fields.js';
import { employeesByEmail } from '../employees/employees.repository.js';
import { groupEtag, ifMatchAccepts } from './groups.etag.model.js';
import {
  addNewMembers,
  addNewMembersReturning,
  deleteMembershipsOfGroup,
  type NewMembers,
  removeMembers,
  removeMembersBetween,
  unknownEmployeeIds,
} from './groups.members.repository.js';
import { lockGroup, recordGroupChange } from './groups.repository.js';
import {
  checkGroupChanges,
  type Group,
  type GroupDetail,
  groupNotFound,
  isRenamed,
  largeAnswers,
  MEMBER_CHUNK_SIZE,
  readMemberChunks,
} from './groups.service.js';

/**
 * Changing who is in a group: replacing the whole membership (the Customer API's PUT), and
 * adding or removing some members (the web interface). Each change is one transaction on the
 * locked group; the count and version move only when something changed. Long id lists are
 * handled slice by slice (db/id-slices.ts), so a 100,000-id change never stalls other requests.
 */

export const MAX_EMAILS = 10_000;

/** Every id of these slices must be an employee of the account (else 400 with all those that are not). */
async function requireEmployees(trx: Db, accountId: number, idSlices: number[][]): Promise<void> {
  const unknown: number[] = [];
  for (const slice of idSlices) {
    unknown.push(...(await unknownEmployeeIds(trx, accountId, slice)));
    await yieldToOthers();
  }
  if (unknown.length > 0) throw invalidEmployeeIds(unknown);
}

/**
 * Adds the ids of one slice that are not members yet and, when someone wants to know who joined
 * (training enrolls newcomers in its campaigns), emits `group.members_added`; how many were added.
 */
async function addSlice(
  trx: Db,
  accountId: number,
  to: NewMembers & { joined: Handler<'group.members_added'> | undefined },
  ids: number[],
): Promise<number> {
  if (!to.joined) return addNewMembers(trx, accountId, to, ids);
  const added = await addNewMembersReturning(trx, accountId, to, ids);
  await to.joined(trx, { accountId, groupId: to.groupId, employeeIds: added });
  return added.length;
}

/** Watches a membership change of the locked group (`group.membership_changed`), before it. */
async function watchMembership(trx: Db, accountId: number, groupId: number) {
  const changed = await watch(trx, 'group.membership_changed', { accountId, groupId });
  return async (group: Group, memberIds?: readonly number[]) =>
    changed?.(trx, { accountId, groupId, group, memberIds });
}

export interface ReplaceMembershipProps {
  accountId: number;
  groupId: number;
  employeeIds: number[];
  name?: unknown;
  description?: unknown;
  /** The request's If-Match header, if any. */
  ifMatch?: string;
}

/**
 * Replaces a group's membership (and optionally its name and description), all or nothing.
 * Order of checks: input (400) → group exists (404) → If-Match (412) → ids belong to the
 * account (400). The difference is made slice by slice in SQL, in id order: each slice's range
 * of current members loses those not wanted and gains the wanted ones it lacks. The answer's
 * member list is read inside the same transaction, so it is exactly this request's result.
 */
export async function replaceMembership(db: Db, props: ReplaceMembershipProps): Promise<GroupDetail> {
  const changes = checkGroupChanges(props);
  const { accountId, groupId } = props;
  const wanted = distinctSorted(props.employeeIds);
  const idSlices = slices(wanted, sliceSize(db));

  const replace = () =>
    db.transaction().execute(async (trx) => {
      let group = await lockGroup(trx, accountId, groupId);
      if (!group) throw groupNotFound();
      if (props.ifMatch !== undefined && !ifMatchAccepts(props.ifMatch, groupEtag(group)))
        throw preconditionFailed();
      await requireEmployees(trx, accountId, idSlices);
      const changed = await watchMembership(trx, accountId, groupId);

      const target = {
        groupId,
        groupWasEmpty: group.employee_count === 0,
        joined: await watch(trx, 'group.members_added', { accountId, groupId }),
      };
      let moved = 0;
      let after = 0;
      for (const [index, slice] of idSlices.entries()) {
        const upTo = index === idSlices.length - 1 ? Number.MAX_SAFE_INTEGER : (slice.at(-1) as number);
        // An empty group (filled for the first time, say) has nobody to remove.
        if (!target.groupWasEmpty)
          moved += await removeMembersBetween(trx, accountId, groupId, { after, upTo }, slice);
        moved += await addSlice(trx, accountId, target, slice);
        after = upTo;
        await yieldToOthers();
      }
      if (idSlices.length === 0) moved += await deleteMembershipsOfGroup(trx, accountId, groupId);

      if (moved > 0 || isRenamed(group, changes)) {
        const before = group;
        group = await recordGroupChange(
          trx,
          accountId,
          groupId,
          { ...changes, employee_count: wanted.length },
          Date.now(),
        );
        await recordAudit(trx, {
          accountId,
          action: 'group.members_replaced',
          object: { type: 'group', id: groupId, label: group.name },
          changes: {
            ...diffFields(before, group, { fields: ['name', 'description', 'employee_count'] }),
            members: bulkChange(wanted),
          },
        });
      }
      await changed(group, wanted); // the membership is now exactly `wanted`
      return { group, etag: groupEtag(group), members: await readMemberChunks(trx, accountId, groupId) };
    });
  // A large answer waits its turn (largeAnswers) before the transaction begins, holding nothing.
  return wanted.length > MEMBER_CHUNK_SIZE ? largeAnswers(replace) : replace();
}

/**
 * Runs `change` on the locked group and records it. Order of checks: group exists (404) →
 * then whatever `change` checks (400).
 */
function changeMembers<T extends { delta: number; ids: readonly number[] }>(
  db: Db,
  accountId: number,
  groupId: number,
  action: 'group.members_added' | 'group.members_removed',
  change: (trx: Db) => Promise<T>,
): Promise<T & { group: Group }> {
  return db.transaction().execute(async (trx) => {
    let group = await lockGroup(trx, accountId, groupId);
    if (!group) throw groupNotFound();
    const changed = await watchMembership(trx, accountId, groupId);
    const result = await change(trx);
    if (result.delta !== 0) {
      const employee_count = group.employee_count + result.delta;
      const before = group;
      group = await recordGroupChange(trx, accountId, groupId, { employee_count }, Date.now());
      await changed(group);
      // One row for the change, whatever its size: the count and the first ids asked for.
      await recordAudit(trx, {
        accountId,
        action,
        object: { type: 'group', id: groupId, label: group.name },
        changes: {
          ...diffFields(before, group, { fields: ['employee_count'] }),
          employee_ids: bulkChange(result.ids),
        },
      });
    }
    return { ...result, group };
  });
}

/** Distinct ids in slices; any that is not an employee of the account → 400 Invalid employee_ids. */
async function checkedSlices(trx: Db, accountId: number, employeeIds: number[]): Promise<number[][]> {
  const idSlices = slices(distinctSorted(employeeIds), sliceSize(trx));
  await requireEmployees(trx, accountId, idSlices);
  return idSlices;
}

/** Adds the (checked) ids of these slices to the locked group of the account; how many were added. */
async function addSlices(trx: Db, accountId: number, groupId: number, idSlices: number[][]): Promise<number> {
  const target = {
    groupId,
    groupWasEmpty: false,
    joined: await watch(trx, 'group.members_added', { accountId, groupId }),
  };
  let added = 0;
  for (const slice of idSlices) added += await addSlice(trx, accountId, target, slice);
  return added;
}

/** Adds employees to a group; those already in it are left as they are. */
export async function addGroupMembers(
  db: Db,
  accountId: number,
  groupId: number,
  employeeIds: number[],
): Promise<{ added: number; group: Group }> {
  const { delta, group } = await changeMembers(
    db,
    accountId,
    groupId,
    'group.members_added',
    async (trx) => ({
      delta: await addSlices(trx, accountId, groupId, await checkedSlices(trx, accountId, employeeIds)),
      ids: employeeIds,
    }),
  );
  return { added: delta, group };
}

/** Removes employees from a group; those not in it are ignored (but must be the account's). */
export async function removeGroupMembers(
  db: Db,
  accountId: number,
  groupId: number,
  employeeIds: number[],
): Promise<{ removed: number; group: Group }> {
  const { delta, group } = await changeMembers(
    db,
    accountId,
    groupId,
    'group.members_removed',
    async (trx) => {
      let removed = 0;
      for (const slice of await checkedSlices(trx, accountId, employeeIds))
        removed += await removeMembers(trx, accountId, groupId, slice);
      return { delta: -removed, ids: employeeIds };
    },
  );
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
  groupId: number,
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
  const result = await changeMembers(db, accountId, groupId, 'group.members_added', async (trx) => {
    const found = await employeesByEmail(trx, accountId, lookup);
    // Locked as any other addition (a concurrent deletion waits); all exist, being just found.
    const idSlices = await checkedSlices(
      trx,
      accountId,
      found.map((e) => e.id),
    );
    const delta = await addSlices(trx, accountId, groupId, idSlices);
    return {
      delta,
      ids: found.map((e) => e.id),
      matched: found.length,
      found: new Set(found.map((e) => e.email_normalized)),
    };
  });
  return {
    added: result.delta,
    already_members: result.matched - result.delta,
    not_found: [...wanted].filter(([key]) => !result.found.has(key)).map(([, given]) => given),
    group: result.group,
  };
}
