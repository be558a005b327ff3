import type { Db } from '../../../core/db/database.js';
import { distinctSorted, sliceSize, slices } from '../../../core/db/id-slices.js';
import {
  addGroupMembers,
  createGroup,
  deleteGroup,
  employeesNotInAccount,
  type Group,
  getGroup,
  removeGroupMembers,
  replaceMembership,
  updateGroup,
} from '../../directory/index.js';
import { GROUP_ATTRIBUTES } from './scim.attributes.model.js';
import { scimError } from './scim.errors.model.js';
import { groupCriteria, memberIdsOfValueFilter } from './scim.filter.model.js';
import {
  applyPatch,
  checkReadOnly,
  readPatchBody,
  type TargetedOperation,
  targetOperations,
} from './scim.patch.model.js';
import {
  countScimGroups,
  type GroupLookup,
  type MemberRef,
  membersOfGroups,
  scimGroupsPage,
} from './scim.repository.js';
import { idNumber, readGroup, readMemberValues } from './scim.resources.presenter.js';
import { readScimWindow, type ScimWindow } from './scim.window.model.js';

/**
 * SCIM Groups over the groups service: createGroup, updateGroup (name, externalId), deleteGroup,
 * and for members addGroupMembers, removeGroupMembers and replaceMembership, so counts, versions
 * (ETags), the groups list cache and the enrollment of newcomers by running campaigns stay as
 * every other change of membership keeps them. Members are user ids (strings in SCIM).
 */

export async function listGroups(
  db: Db,
  accountId: number,
  filter: string | undefined,
  window: ScimWindow,
): Promise<{ total: number; groups: Group[] }> {
  const criteria = filter === undefined ? {} : groupCriteria(filter);
  if (criteria.none) return { total: 0, groups: [] };
  const lookup: GroupLookup = {};
  for (const value of [criteria.displayName, criteria.externalId]) {
    if (value?.includes('\u0000')) return { total: 0, groups: [] };
  }
  if (criteria.displayName !== undefined) lookup.displayName = criteria.displayName;
  if (criteria.externalId !== undefined) lookup.externalId = criteria.externalId;
  if (criteria.id !== undefined) {
    lookup.id = idNumber(criteria.id);
    if (lookup.id === 0) return { total: 0, groups: [] };
  }
  const { total, items } = await readScimWindow(
    window,
    () => countScimGroups(db, accountId, lookup),
    (limit, offset) => scimGroupsPage(db, accountId, lookup, limit, offset),
  );
  return { total, groups: items };
}

/** The members of these groups, by group id. */
export async function membersByGroup(
  db: Db,
  accountId: number,
  groupIds: number[],
): Promise<Map<number, MemberRef[]>> {
  const byGroup = new Map<number, MemberRef[]>(groupIds.map((id) => [id, []]));
  for (const member of await membersOfGroups(db, accountId, groupIds))
    byGroup.get(member.groupId)?.push(member);
  return byGroup;
}

export function getScimGroup(db: Db, accountId: number, groupId: number): Promise<Group> {
  return getGroup(db, accountId, groupId);
}

/** Which of these positive ids (distinct) are no employee of the account, through the groups module's check. */
async function unknownUsers(db: Db, accountId: number, ids: number[]): Promise<Set<number>> {
  const unknown = new Set<number>();
  for (const slice of slices(distinctSorted(ids), sliceSize(db)))
    for (const id of await employeesNotInAccount(db, accountId, slice)) unknown.add(id);
  return unknown;
}

/** Member ids as numbers; every one must be a user of the account (else 400 invalidValue, naming them). */
async function requireUsers(db: Db, accountId: number, values: string[]): Promise<number[]> {
  const ids = values.map(idNumber);
  const unknown = await unknownUsers(
    db,
    accountId,
    ids.filter((id) => id > 0),
  );
  const refused = values.filter((_value, i) => (ids[i] as number) <= 0 || unknown.has(ids[i] as number));
  if (refused.length > 0)
    throw scimError('scim_invalid_value', `No such user: ${refused.slice(0, 20).join(', ')}`);
  return ids;
}

/** The ids of these values that are users of the account (a removal ignores the others). */
async function knownUsers(db: Db, accountId: number, values: string[]): Promise<number[]> {
  const ids = distinctSorted(values.map(idNumber).filter((id) => id > 0));
  const unknown = await unknownUsers(db, accountId, ids);
  return ids.filter((id) => !unknown.has(id));
}

function requireName(displayName: string | undefined): string {
  if (displayName === undefined) throw scimError('scim_invalid_value', 'displayName is required');
  return displayName;
}

/** POST /Groups: a new group, with its members if any (all checked before anything is made). */
export async function createScimGroup(db: Db, accountId: number, body: unknown): Promise<Group> {
  const fields = readGroup(body);
  const name = requireName(fields.displayName);
  const members = fields.members ? await requireUsers(db, accountId, fields.members) : [];
  let group = await createGroup(db, accountId, { name }, { externalId: fields.externalId ?? null });
  if (members.length > 0) {
    try {
      group = (await addGroupMembers(db, accountId, group.id, members)).group;
    } catch (err) {
      // A member deleted between the check and the addition: the group is not left half made.
      await deleteGroup(db, accountId, group.id);
      throw err;
    }
  }
  return group;
}

/** PUT /Groups/{id}: name and externalId as sent; members replaced when sent, kept when left out. */
export async function replaceScimGroup(
  db: Db,
  accountId: number,
  groupId: number,
  body: unknown,
): Promise<Group> {
  const fields = readGroup(body);
  if (fields.id !== undefined && fields.id !== null && String(fields.id) !== String(groupId))
    throw scimError('scim_mutability', 'id cannot be changed');
  const name = requireName(fields.displayName);
  await getGroup(db, accountId, groupId);
  const members = fields.members ? await requireUsers(db, accountId, fields.members) : undefined;
  let group = await updateGroup(
    db,
    accountId,
    groupId,
    { name },
    fields.externalId === undefined ? {} : { externalId: fields.externalId },
  );
  if (members) group = (await replaceMembership(db, { accountId, groupId, employeeIds: members })).group;
  return group;
}

type MemberChange = { kind: 'add' | 'remove' | 'replace'; values: string[] } | { kind: 'removeAll' };

/**
 * The membership change of an operation on `members` (Okta's `members[value eq "…"]` removal and
 * Entra's value arrays included); readPath has checked the path's names and filter.
 */
function memberChange({ op, target, value }: TargetedOperation): MemberChange {
  if (target.kind !== 'mapped' || target.sub)
    throw scimError('scim_invalid_path', `Unsupported path: ${target.label.slice(0, 100)}`);
  if (target.filter) {
    if (op !== 'remove') throw scimError('scim_invalid_path', 'Only remove takes a members[…] filter');
    return { kind: 'remove', values: memberIdsOfValueFilter(target.filter.text) };
  }
  if (op === 'remove')
    return value === undefined ? { kind: 'removeAll' } : { kind: 'remove', values: readMemberValues(value) };
  return { kind: op, values: readMemberValues(value) };
}

const isMembers = ({ target }: TargetedOperation) =>
  target.kind === 'mapped' && target.attribute.name === 'members';

/**
 * PATCH /Groups/{id}: displayName and externalId through the PATCH applier, members through the
 * groups service. Everything is read and checked before the first change is made.
 */
export async function patchScimGroup(
  db: Db,
  accountId: number,
  groupId: number,
  body: unknown,
): Promise<void> {
  const operations = targetOperations(readPatchBody(body), GROUP_ATTRIBUTES);
  const group = await getGroup(db, accountId, groupId);
  const memberChanges = operations.filter(isMembers).map(memberChange);
  const rest = operations.filter((operation) => !isMembers(operation));

  const shown = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    id: String(group.id),
    displayName: group.name,
    ...(group.external_id !== null && { externalId: group.external_id }),
  };
  const patched = applyPatch(shown, rest, GROUP_ATTRIBUTES);
  checkReadOnly(shown, patched);
  const fields = readGroup(patched);
  const name = requireName(fields.displayName);
  const externalId = fields.externalId ?? null;

  // Every id to add or set must be a user of the account; ids to remove need not be (already gone).
  const resolved: Array<{ kind: MemberChange['kind']; ids: number[] }> = [];
  for (const change of memberChanges) {
    if (change.kind === 'removeAll') resolved.push({ kind: 'removeAll', ids: [] });
    else if (change.kind === 'remove')
      resolved.push({ kind: 'remove', ids: await knownUsers(db, accountId, change.values) });
    else resolved.push({ kind: change.kind, ids: await requireUsers(db, accountId, change.values) });
  }

  if (name !== group.name || externalId !== group.external_id)
    await updateGroup(db, accountId, groupId, { name }, { externalId });
  for (const change of resolved) {
    if (change.kind === 'add') await addGroupMembers(db, accountId, groupId, change.ids);
    else if (change.kind === 'remove') await removeGroupMembers(db, accountId, groupId, change.ids);
    else
      await replaceMembership(db, {
        accountId,
        groupId,
        employeeIds: change.kind === 'replace' ? change.ids : [],
      });
  }
}

/** DELETE /Groups/{id}: 409 while a scheduled or running campaign targets it (deleteGroup). */
export function deleteScimGroup(db: Db, accountId: number, groupId: number): Promise<void> {
  return deleteGroup(db, accountId, groupId);
}
