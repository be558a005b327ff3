import type { CompiledQuery, QueryResult } from 'kysely';

/**
 * SQLite: a write statement followed by others that depend on its result, run together, at once
 * and atomically (in one savepoint, with nothing else between them), without a transaction of
 * their own: a single write's group commit (sqlite-driver.ts) takes them as one. `follow` runs
 * synchronously with the first statement's result and a `run` for the next ones; it must not
 * await. For the hot writes that must record something beside them (an audit row).
 *
 * Only the SQLite driver knows it: on PostgreSQL, say the same with one statement (a CTE).
 */
export type Followers = (
  result: QueryResult<unknown>,
  run: <R>(query: CompiledQuery<R>) => QueryResult<R>,
) => void;

export const FOLLOWED_BY = Symbol('vigil.followedBy');

export type FollowedQuery<R> = CompiledQuery<R> & { [FOLLOWED_BY]?: Followers };

export function followedBy<R>(query: CompiledQuery<R>, follow: Followers): FollowedQuery<R> {
  return { ...query, [FOLLOWED_BY]: follow };
}

/**
 * SQLite: one write statement whose result adds an item to a batch of work (`batch.run`) that
 * the driver runs once, synchronously on the writer, in the same SQLite transaction, just before
 * that transaction commits: after a group commit's writes (sqlite-driver.ts), with every item of
 * the group's writes that succeeded; or, inside a transaction, right after the statement. For
 * hot writes that must record something beside them (the audit log): the work is done once per
 * commit, not once per write, and it fails the whole commit when it throws. `item` returns
 * undefined for a result that adds nothing.
 *
 * Only the SQLite driver knows it: on PostgreSQL, say the same with one statement (a CTE).
 */
export interface CommitBatch<T> {
  run(items: T[], run: <R>(query: CompiledQuery<R>) => QueryResult<R>): void;
}

export interface CommitWork<T> {
  batch: CommitBatch<T>;
  item: (result: QueryResult<unknown>) => T | undefined;
}

export const AT_COMMIT = Symbol('vigil.atCommit');

export type AtCommitQuery<R> = CompiledQuery<R> & { [AT_COMMIT]?: CommitWork<unknown> };

export function withCommitWork<R, T>(query: CompiledQuery<R>, work: CommitWork<T>): AtCommitQuery<R> {
  return { ...query, [AT_COMMIT]: work as CommitWork<unknown> };
}
