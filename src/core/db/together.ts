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
