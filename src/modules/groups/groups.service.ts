import { type Db, dialectOf } from '../../db/database.js';
import { FieldErrorCollector, invalidEmployeeIds, notFound, preconditionFailed } from '../../errors.js';
import { checkDescription, checkName } from '../../fields.js';
import { parseId } from '../../ids.js';
import { fetchPage, type Page, type PageRequest } from '../../pagination.js';
import { getAccount } from '../accounts/accounts.service.js';
import { groupEtag, ifMatchAccepts } from './groups.etag.js';
import {
  addMembers,
  countGroups,
  findGroup,
  type GroupListRow,
  type GroupRow,
  insertGroup,
  listGroups,
  lockGroup,
  memberIds,
  memberSummariesJson,
  recordGroupChange,
  removeMembers,
  unknownEmployeeIds,
} from './groups.repository.js';

export type Group = GroupRow;

export interface GroupDetail {
  group: Group;
  /** The members' summaries as a JSON array text. */
  membersJson: string;
  etag: string;
}

export const groupNotFound = () => notFound('Group not found');

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
  const errors = new FieldErrorCollector();
  const changes: { name?: string; description?: string } = {};
  if (props.name !== undefined) changes.name = checkName(errors, 'name', props.name);
  if (props.description !== undefined)
    changes.description = checkDescription(errors, 'description', props.description);
  errors.throwIfAny();
  const ids = [...new Set(props.employeeIds)].sort((a, b) => a - b);
  const id = parseId(props.groupId);
  if (id === null) throw groupNotFound();

  return db.transaction().execute(async (trx) => {
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
    const renamed =
      (changes.name !== undefined && changes.name !== group.name) ||
      (changes.description !== undefined && changes.description !== group.description);
    if (removed.length > 0 || added.length > 0 || renamed) {
      group = await recordGroupChange(trx, id, { ...changes, employee_count: ids.length }, Date.now());
    }
    return { group, membersJson: await memberSummariesJson(trx, id), etag: groupEtag(group) };
  });
}
