import type { JsonBody, QueryParams, Success } from '../operations.js';
import { PageIterator } from '../pagination.js';
import type { ApiResponse, RequestOptions, Transport } from '../transport.js';

export type Group = Success<'listGroups'>['results'][number];
export type GroupDetail = Success<'getGroup'>;
export type GroupListParams = QueryParams<'listGroups'>;
export type NewGroup = JsonBody<'createGroup'>;
export type GroupChanges = JsonBody<'updateGroup'>;
export type GroupMembership = JsonBody<'replaceGroupMembers'>;
export type DeletedGroupsParams = QueryParams<'listDeletedGroups'>;
export type DeletedGroup = Success<'listDeletedGroups'>['results'][number];

/** A group's detail with its `ETag`, to send back as `ifMatch`. */
export interface GroupWithEtag {
  group: GroupDetail;
  etag: string | undefined;
}

const withEtag = (answer: ApiResponse<GroupDetail>): GroupWithEtag => ({
  group: answer.data,
  etag: answer.etag,
});

/** `client.groups`: the account's groups and their members. */
export class Groups {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Every group (ordered by id), page by page as you iterate. */
  list(params: GroupListParams = {}): PageIterator<Group, GroupListParams> {
    return new PageIterator((query) => this.page(query), params);
  }

  /** One page of groups. */
  async page(params: GroupListParams = {}, options?: RequestOptions) {
    return (await this.#t.call('listGroups', { query: params }, options)).data;
  }

  /** The group with all its members (ordered by id). */
  async get(id: number, options?: RequestOptions): Promise<GroupDetail> {
    return (await this.getWithEtag(id, options)).group;
  }

  /** The group and its `ETag`, for a change that must not overwrite another's (`replaceMembers(…, { ifMatch })`). */
  async getWithEtag(id: number, options?: RequestOptions): Promise<GroupWithEtag> {
    return withEtag(await this.#t.call('getGroup', { path: { group_id: id } }, options));
  }

  /** Creates a group (with no members). */
  async create(body: NewGroup, options?: RequestOptions): Promise<Success<'createGroup'>> {
    return (await this.#t.call('createGroup', { body }, options)).data;
  }

  /** Renames the group or changes its description. */
  async update(id: number, body: GroupChanges, options?: RequestOptions): Promise<Success<'updateGroup'>> {
    return (await this.#t.call('updateGroup', { path: { group_id: id }, body }, options)).data;
  }

  /** Deletes the group; `group_in_use` while a scheduled or active campaign targets it. */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    await this.#t.call('deleteGroup', { path: { group_id: id } }, options);
  }

  /**
   * Replaces the whole membership with these employees (`[]` empties the group), optionally
   * renaming it (`{ employee_ids, name, description }`). With `ifMatch` (an ETag from
   * `getWithEtag`), a group changed meanwhile is refused with `precondition_failed` and nothing
   * changes. Answers the group and its new ETag.
   */
  async replaceMembers(
    id: number,
    membership: number[] | GroupMembership,
    options: RequestOptions & { ifMatch?: string } = {},
  ): Promise<GroupWithEtag> {
    const body = Array.isArray(membership) ? { employee_ids: membership } : membership;
    const args = { path: { group_id: id }, body, ...(options.ifMatch ? { ifMatch: options.ifMatch } : {}) };
    return withEtag(await this.#t.call('replaceGroupMembers', args, options));
  }

  /** Adds these employees and keeps every other member. */
  async addMembers(id: number, employeeIds: number[], options?: RequestOptions): Promise<GroupWithEtag> {
    const body = { employee_ids: employeeIds };
    return withEtag(await this.#t.call('addGroupMembers', { path: { group_id: id }, body }, options));
  }

  /** Removes these employees and keeps every other member. */
  async removeMembers(id: number, employeeIds: number[], options?: RequestOptions): Promise<GroupWithEtag> {
    const body = { employee_ids: employeeIds };
    return withEtag(await this.#t.call('removeGroupMembers', { path: { group_id: id }, body }, options));
  }

  /** The ids of groups deleted at or after `since` (oldest first), page by page as you iterate. */
  listDeleted(params: DeletedGroupsParams = {}): PageIterator<DeletedGroup, DeletedGroupsParams> {
    return new PageIterator(
      async (query) => (await this.#t.call('listDeletedGroups', { query })).data,
      params,
    );
  }
}
