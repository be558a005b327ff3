import { type ListPage, type ListWindow, readList } from '../../admin/list.js';
import { type Db, dialectOf } from '../../db/database.js';
import { containsPattern } from '../../db/like.js';
import {
  conflict,
  FieldErrorCollector,
  invalidEmployeeIds,
  notFound,
  preconditionFailed,
} from '../../errors.js';
import { checkDescription, checkName } from '../../fields.js';
import { parseId } from '../../ids.js';
import { fetchPage, type Page, type PageRequest } from '../../pagination.js';
import { getAccount } from '../accounts/accounts.service.js';
import { enrollNewMembers } from '../campaigns/campaigns.launch.js';
import { campaignsTargetingGroup } from '../campaigns/campaigns.repository.js';
import type { EmployeeRow } from '../employees/employees.repository.js';
import { readEmployeePage } from '../employees/employees.search.repository.js';
import { groupEtag, ifMatchAccepts } from './groups.etag.js';
import {
  addMembers,
  memberIds,
  removeMembers,
  retryIfEmployeeDeleted,
  unknownEmployeeIds,
} from './groups.members.repository.js';
import {
  countGroups,
  countGroupsNamed,
  deleteGroupRow,
  findGroup,
  type GroupListRow,
  type GroupRow,
  groupsNamed,
  insertGroup,
  listGroups,
  lockGroup,
  memberSummariesJson,
  recordGroupChange,
} from './groups.repository.js';

export type Group = GroupRow;

export interface GroupDetail {
  group: Group;
  /** The members' summaries as a JSON array text. */
  membersJson: string;
  etag: string;
}

export const groupNotFound = () => notFound('Group not found');

interface GroupChanges {
  name?: string;
  description?: string;
}

/** The rules of a group's name and description, for the fields given. */
function checkGroupChanges(input: { name?: unknown; description?: unknown }): GroupChanges {
  const errors = new FieldErrorCollector();
  const changes: GroupChanges = {};
  if (input.name !== undefined) changes.name = checkName(errors, 'name', input.name);
  if (input.description !== undefined)
    changes.description = checkDescription(errors, 'description', input.description);
  errors.throwIfAny();
  return changes;
}

function isRenamed(group: GroupRow, changes: GroupChanges): boolean {
  return (
    (changes.name !== undefined && changes.name !== group.name) ||
    (changes.description !== undefined && changes.description !== group.description)
  );
}

/** Creates an (empty) group in an existing account; the API cannot, administrators and operators can. */
export async function createGroup(
  db: Db,
  accountId: number,
  input: { name: unknown; description?: unknown },
): Promise<Group> {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', input.name);
  const description =
    input.description === undefined ? '' : checkDescription(errors, 'description', input.description);
  errors.throwIfAny();
  await getAccount(db, accountId);
  return insertGroup(db, accountId, { name, description }, Date.now());
}

export function findGroups(db: Db, accountId: number, page: PageRequest): Promise<Page<GroupListRow>> {
  return fetchPage(
    page,
    () => countGroups(db, accountId),
    (limit, offset) => listGroups(db, accountId, limit, offset),
  );
}

/** The group with its members, read in one snapshot so the ETag, count and members agree. */
export async function getGroupDetail(
  db: Db,
  accountId: number,
  groupId: string | number,
): Promise<GroupDetail> {
  const id = parseId(groupId);
  if (id === null) throw groupNotFound();
  let transaction = db.transaction();
  if (dialectOf(db) === 'postgres') transaction = transaction.setIsolationLevel('repeatable read');
  return transaction.execute(async (trx) => {
    const group = await findGroup(trx, accountId, id);
    if (!group) throw groupNotFound();
    return { group, membersJson: await memberSummariesJson(trx, id), etag: groupEtag(group) };
  });
}

export interface ReplaceMembershipProps {
  accountId: number;
  groupId: string | number;
  employeeIds: number[];
  name?: unknown;
  description?: unknown;
  /** The request's If-Match header, if any. */
  ifMatch?: string;
}

/**
 * Replaces a group's membership (and optionally its name and description), all or nothing.
 * Order of checks: input (400) → group exists (404) → If-Match (412) → ids belong to the account (400).
 */
export async function replaceMembership(db: Db, props: ReplaceMembershipProps): Promise<GroupDetail> {
  const changes = checkGroupChanges(props);
  const ids = [...new Set(props.employeeIds)].sort((a, b) => a - b);
  const id = parseId(props.groupId);
  if (id === null) throw groupNotFound();

  // An employee deleted between the id check and the insert: the second run reports it.
  return retryIfEmployeeDeleted(() =>
    db.transaction().execute(async (trx) => {
      let group = await lockGroup(trx, props.accountId, id);
      if (!group) throw groupNotFound();
      if (props.ifMatch !== undefined && !ifMatchAccepts(props.ifMatch, groupEtag(group)))
        throw preconditionFailed();
      const unknown = await unknownEmployeeIds(trx, props.accountId, ids);
      if (unknown.length > 0) throw invalidEmployeeIds(unknown);

      const current = new Set(await memberIds(trx, id));
      const wanted = new Set(ids);
      const removed = [...current].filter((e) => !wanted.has(e));
      const added = ids.filter((e) => !current.has(e));
      await removeMembers(trx, id, removed);
      await addMembers(trx, id, added);
      await enrollNewMembers(trx, { accountId: props.accountId, groupId: id, employeeIds: added });
      if (removed.length > 0 || added.length > 0 || isRenamed(group, changes)) {
        group = await recordGroupChange(trx, id, { ...changes, employee_count: ids.length }, Date.now());
      }
      return { group, membersJson: await memberSummariesJson(trx, id), etag: groupEtag(group) };
    }),
  );
}

/** A page of an account's groups whose name contains `search`, by name. */
export function listGroupsPage(
  db: Db,
  accountId: number,
  query: { search?: string },
  window: ListWindow,
): Promise<ListPage<Group>> {
  const pattern = containsPattern(query.search);
  if (pattern === null) return Promise.resolve({ count: 0, items: [] });
  return readList(
    window,
    () => countGroupsNamed(db, accountId, pattern),
    (limit, offset) => groupsNamed(db, accountId, pattern, limit, offset),
  );
}

export async function getGroup(db: Db, accountId: number, groupId: string | number): Promise<Group> {
  const id = parseId(groupId);
  const group = id === null ? undefined : await findGroup(db, accountId, id);
  if (!group) throw groupNotFound();
  return group;
}

/** Renames a group or changes its description; the version (ETag) moves only if something changed. */
export async function updateGroup(
  db: Db,
  accountId: number,
  groupId: string | number,
  input: { name?: unknown; description?: unknown },
): Promise<Group> {
  const changes = checkGroupChanges(input);
  const id = parseId(groupId);
  if (id === null) throw groupNotFound();
  return db.transaction().execute(async (trx) => {
    const group = await lockGroup(trx, accountId, id);
    if (!group) throw groupNotFound();
    if (!isRenamed(group, changes)) return group;
    return recordGroupChange(trx, id, changes, Date.now());
  });
}

/**
 * Deletes a group; its memberships go with it, and draft, completed and archived campaigns no
 * longer target it (enrollments stay). A group that a scheduled or active campaign targets is
 * kept (409): deleting it would silently change who that campaign trains.
 */
export async function deleteGroup(db: Db, accountId: number, groupId: string | number): Promise<void> {
  const id = parseId(groupId);
  if (id === null) throw groupNotFound();
  await db.transaction().execute(async (trx) => {
    const group = await lockGroup(trx, accountId, id);
    if (!group) throw groupNotFound();
    const running = await campaignsTargetingGroup(trx, accountId, id, ['scheduled', 'active']);
    if (running.length > 0) {
      throw conflict(
        `This group is a target of ${running.map((name) => `"${name}"`).join(', ')}; stop or change that campaign first`,
      );
    }
    await deleteGroupRow(trx, accountId, id);
  });
}

/** A page of a group's members whose name or address contains `search`, by last name. */
export async function groupMembersPage(
  db: Db,
  accountId: number,
  groupId: string | number,
  query: { search?: string },
  window: ListWindow,
): Promise<ListPage<EmployeeRow>> {
  const group = await getGroup(db, accountId, groupId);
  const pattern = containsPattern(query.search);
  if (pattern === null) return { count: 0, items: [] };
  return readEmployeePage(
    db,
    accountId,
    { pattern, groupId: group.id },
    { by: 'last_name', order: 'asc' },
    window,
  );
}
