import pLimit from 'p-limit';
import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import { type Db, dialectOf } from '../../../core/db/database.js';
import type { GroupScope } from '../../../core/db/group-scope.js';
import { sliceSize } from '../../../core/db/id-slices.js';
import { containsPattern, foldedContainsPattern } from '../../../core/db/like.js';
import { AppError, FieldErrorCollector, invalidPage } from '../../../core/errors.js';
import { yieldToOthers } from '../../../core/event-loop.js';
import { emit } from '../../../core/events.js';
import { checkDescription, checkName } from '../../../core/fields.js';
import type { PageJson, PageRequest } from '../../../core/pagination.js';
import { type ListPage, type ListWindow, readList } from '../../../core/pagination.js';
import { getAccount } from '../../access/index.js';
import type { EmployeeRow } from '../employees/employees.repository.js';
import { readEmployeePage } from '../employees/employees.search.repository.js';
import { instantParameter } from '../sync/sync.service.js';
import type { GroupPagesCache } from './groups.cache.service.js';
import { groupEtag } from './groups.etag.model.js';
import {
  deleteMembershipsOfGroup,
  memberIdsOfGroup,
  memberSummaryChunk,
  unknownEmployeeIds,
} from './groups.members.repository.js';
import {
  countGroups,
  countGroupsNamed,
  deleteGroupRow,
  findGroup,
  type GroupRow,
  groupsHoldingEmployee,
  groupsNamed,
  groupsRevision,
  insertGroup,
  lockGroup,
  readGroupsPage,
  readGroupsPageChangedSince,
  recordGroupChange,
} from './groups.repository.js';

export type Group = GroupRow;

export interface GroupDetail<Members = string[]> {
  group: Group;
  etag: string;
  /** The members' summaries, by id, in chunks of JSON objects joined by commas (see groups.presenter). */
  members: Members;
}

export const groupNotFound = () => new AppError('group_not_found');

/** The ids of the account's group's members, sorted (a membership change's webhook compares them). */
export const groupMemberIds = (db: Db, accountId: number, groupId: number): Promise<number[]> =>
  memberIdsOfGroup(db, accountId, groupId);

/** The account's groups an employee is a member of, as lists show them, by id. */
export const groupsHolding = (db: Db, accountId: number, employeeId: number) =>
  groupsHoldingEmployee(db, accountId, employeeId);

/** The refusal to delete a group that scheduled or running campaigns (named) target. */
export const groupInUse = (campaignNames: readonly string[]) =>
  new AppError('group_in_use', {
    message: `This group is a target of ${campaignNames.map((name) => `"${name}"`).join(', ')}; stop or change that campaign first`,
  });

interface GroupChanges {
  name?: string;
  description?: string;
}

/** The rules of a group's name and description, for the fields given. */
export function checkGroupChanges(input: { name?: unknown; description?: unknown }): GroupChanges {
  const errors = new FieldErrorCollector();
  const changes: GroupChanges = {};
  if (input.name !== undefined) changes.name = checkName(errors, 'name', input.name);
  if (input.description !== undefined)
    changes.description = checkDescription(errors, 'description', input.description);
  errors.throwIfAny();
  return changes;
}

export function isRenamed(group: GroupRow, changes: GroupChanges): boolean {
  return (
    (changes.name !== undefined && changes.name !== group.name) ||
    (changes.description !== undefined && changes.description !== group.description)
  );
}

/** What an identity provider sets on a group besides its fields (SCIM): its own id for it. */
export interface ProvisionedGroupFields {
  externalId?: string | null;
}

/** The fields of a group the audit log shows. */
const GROUP_AUDIT_FIELDS = ['name', 'description', 'external_id', 'employee_count'] as const;

/** Creates an (empty) group in an existing account. */
export async function createGroup(
  db: Db,
  accountId: number,
  input: { name: unknown; description?: unknown },
  provisioned: ProvisionedGroupFields = {},
): Promise<Group> {
  const errors = new FieldErrorCollector();
  const name = checkName(errors, 'name', input.name);
  const description =
    input.description === undefined ? '' : checkDescription(errors, 'description', input.description);
  errors.throwIfAny();
  await getAccount(db, accountId);
  const values = {
    name,
    description,
    ...(provisioned.externalId !== undefined && { external_id: provisioned.externalId }),
  };
  return db.transaction().execute(async (trx) => {
    const group = await insertGroup(trx, accountId, values, Date.now());
    await emit(trx, 'group.created', { accountId, group });
    await recordAudit(trx, {
      accountId,
      action: 'group.created',
      object: { type: 'group', id: group.id, label: group.name },
      changes: diffFields(null, group, { fields: GROUP_AUDIT_FIELDS }),
    });
    return group;
  });
}

/**
 * A page of the account's groups (Customer API), as JSON. Answers are remembered per account,
 * page and size with the account's groups revision (bumpGroupsRevision), which every change to
 * the list moves on in its own transaction: one cheap read of the revision tells whether the
 * remembered answer is still the list every instance would read.
 */
export async function findGroups(
  db: Db,
  accountId: number,
  page: PageRequest,
  groupPages: GroupPagesCache,
  query: { updated_since?: string } = {},
): Promise<PageJson> {
  const since = instantParameter('updated_since', query.updated_since);
  // By id, as without it: see findEmployees for why a sync paging through cannot miss a group.
  if (since !== undefined) return findGroupsChangedSince(db, accountId, page, since);
  const revision = await groupsRevision(db, accountId);
  const key = `${accountId}:${page.page}:${page.pageSize}`;
  let json = groupPages.get(key);
  if (json?.revision !== revision) {
    const offset = (page.page - 1) * page.pageSize;
    // Far past any real collection (an offset like 10^20): nothing to ask the database for.
    const read = Number.isSafeInteger(offset)
      ? await readGroupsPage(db, accountId, page.pageSize, offset)
      : { count: await countGroups(db, accountId), results: '[]' };
    json = { revision, ...read };
    groupPages.set(key, json);
  }
  if (page.page > 1 && (page.page - 1) * page.pageSize >= json.count) throw invalidPage();
  return { ...page, count: json.count, results: json.results };
}

/** A page of the groups created or changed at or after `since` (not remembered: each `since` differs). */
async function findGroupsChangedSince(
  db: Db,
  accountId: number,
  page: PageRequest,
  since: number,
): Promise<PageJson> {
  const offset = (page.page - 1) * page.pageSize;
  const read = Number.isSafeInteger(offset)
    ? await readGroupsPageChangedSince(db, accountId, since, page.pageSize, offset)
    : { count: 0, results: '[]' };
  if (page.page > 1 && offset >= read.count) throw invalidPage();
  return { ...page, count: read.count, results: read.results };
}

/**
 * Members per chunk of a detail answer: about 100 KiB of JSON, under V8's large-object size, so
 * a chunk sent is young garbage collected at once (chunks of 5,000 took ten 100,000-member
 * answers in flight to 308 MiB of RSS on PostgreSQL), and a statement of about a millisecond.
 */
export const MEMBER_CHUNK_SIZE = 1_000;

/**
 * At most this many answers longer than one chunk (details, replacements) are built at once in
 * a process; the others wait their turn, holding no connection or lock meanwhile. What large
 * answers cost in memory while they are built and sent is then bounded whatever the number of
 * clients asking for them (ten 100,000-member answers at once peaked 30–60 MiB higher without
 * it), and two keep the machine's cores as busy as more would.
 */
export const largeAnswers = pLimit(2);

/**
 * The account's group's members, chunk by chunk. The next chunk is asked for as soon as this
 * one's rows are in, so the database reads it while this one is serialized and sent.
 */
export async function* memberChunks(
  db: Db,
  accountId: number,
  groupId: number,
  limit = MEMBER_CHUNK_SIZE,
): AsyncGenerator<string> {
  const read = (afterId: number) => memberSummaryChunk(db, accountId, groupId, afterId, limit);
  let chunk = await read(0);
  for (;;) {
    const next = chunk.count === limit ? read(chunk.lastId) : undefined;
    // Read ahead: if the client goes away before it is awaited, its failure is nobody's.
    next?.catch(() => {});
    if (chunk.count > 0) yield chunk.json;
    if (!next) return;
    await yieldToOthers();
    chunk = await next;
  }
}

/**
 * All of a group's member chunks (an answer that must be read inside its transaction). They are
 * all kept until sent whatever their size, so they are read in slices (fewer round trips).
 */
export async function readMemberChunks(db: Db, accountId: number, groupId: number): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of memberChunks(db, accountId, groupId, sliceSize(db))) chunks.push(chunk);
  return chunks;
}

/**
 * The group with its members, read in one snapshot so the ETag, count and members agree, and
 * handed to `send` while the snapshot lasts: the members stream out chunk by chunk as the client
 * takes them, so a 100,000-member answer never sits whole in memory.
 */
export async function readGroupDetail<T>(
  db: Db,
  accountId: number,
  groupId: number,
  send: (detail: GroupDetail<AsyncIterable<string>>) => Promise<T>,
): Promise<T> {
  const found = await findGroup(db, accountId, groupId);
  if (!found) throw groupNotFound();
  let snapshot = db.transaction().setAccessMode('read only');
  if (dialectOf(db) === 'postgres') snapshot = snapshot.setIsolationLevel('repeatable read');
  const read = () =>
    snapshot.execute(async (trx) => {
      const group = await findGroup(trx, accountId, groupId);
      if (!group) throw groupNotFound();
      return send({ group, etag: groupEtag(group), members: memberChunks(trx, accountId, groupId) });
    });
  return found.employee_count > MEMBER_CHUNK_SIZE ? largeAnswers(read) : read();
}

/** A page of an account's groups whose name contains `search`, by name. */
export function listGroupsPage(
  db: Db,
  accountId: number,
  query: { search?: string },
  window: ListWindow,
  groups: GroupScope = null,
): Promise<ListPage<Group>> {
  const pattern = containsPattern(query.search);
  if (pattern === null) return Promise.resolve({ count: 0, items: [] });
  return readList(
    window,
    () => countGroupsNamed(db, accountId, pattern, groups),
    (limit, offset) => groupsNamed(db, accountId, pattern, limit, offset, groups),
  );
}

export async function getGroup(db: Db, accountId: number, groupId: number): Promise<Group> {
  const group = await findGroup(db, accountId, groupId);
  if (!group) throw groupNotFound();
  return group;
}

/** Renames a group or changes its description; the version (ETag) moves only if something changed. */
export async function updateGroup(
  db: Db,
  accountId: number,
  groupId: number,
  input: { name?: unknown; description?: unknown },
  provisioned: ProvisionedGroupFields = {},
): Promise<Group> {
  const changes = checkGroupChanges(input);
  const externalId = provisioned.externalId;
  return db.transaction().execute(async (trx) => {
    const group = await lockGroup(trx, accountId, groupId);
    if (!group) throw groupNotFound();
    const newExternalId = externalId !== undefined && externalId !== group.external_id;
    if (!isRenamed(group, changes) && !newExternalId) return group;
    const saved = newExternalId ? { ...changes, external_id: externalId } : changes;
    const changed = await recordGroupChange(trx, accountId, groupId, saved, Date.now());
    if (isRenamed(group, changes)) await emit(trx, 'group.updated', { accountId, group: changed });
    await recordAudit(trx, {
      accountId,
      action: 'group.updated',
      object: { type: 'group', id: groupId, label: changed.name },
      changes: diffFields(group, changed, { fields: GROUP_AUDIT_FIELDS }),
    });
    return changed;
  });
}

/**
 * Deletes a group; its memberships go with it, and draft, completed and archived campaigns no
 * longer target it (enrollments stay). A group that a scheduled or active campaign targets is
 * kept (409): deleting it would silently change who that campaign trains.
 */
export async function deleteGroup(db: Db, accountId: number, groupId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const group = await lockGroup(trx, accountId, groupId);
    if (!group) throw groupNotFound();
    // Training and phishing name their scheduled or running campaigns that target it, and let
    // go of it in their drafts.
    const targetedBy: string[] = [];
    await emit(trx, 'group.deleting', { accountId, groupId, targetedBy });
    if (targetedBy.length > 0) throw groupInUse(targetedBy);
    await deleteMembershipsOfGroup(trx, accountId, groupId);
    await deleteGroupRow(trx, accountId, groupId);
    await emit(trx, 'group.deleted', { accountId, groupId, at: Date.now() }); // tombstone, webhooks
    await recordAudit(trx, {
      accountId,
      action: 'group.deleted',
      object: { type: 'group', id: groupId, label: group.name },
      changes: diffFields(group, null, { fields: GROUP_AUDIT_FIELDS }),
    });
  });
}

/** A page of a group's members whose name or address contains `search`, by last name. */
export async function groupMembersPage(
  db: Db,
  accountId: number,
  groupId: number,
  query: { search?: string },
  window: ListWindow,
): Promise<ListPage<EmployeeRow>> {
  const group = await getGroup(db, accountId, groupId);
  const pattern = foldedContainsPattern(query.search);
  if (pattern === null) return { count: 0, items: [] };
  return readEmployeePage(
    db,
    accountId,
    { pattern, groupId: group.id },
    { by: 'last_name', order: 'asc' },
    window,
  );
}

/**
 * The ids among `ids` that are no employee of the account (locked until commit on PostgreSQL, as
 * a membership change locks them): SCIM checks a group's members with it.
 */
export function employeesNotInAccount(trx: Db, accountId: number, ids: number[]): Promise<number[]> {
  return unknownEmployeeIds(trx, accountId, ids);
}
