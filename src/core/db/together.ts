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
 * SQLite: one write statement run with `context`, whose `i`th value its triggers read as
 * `vigil_statement_context(i)` (null for every other statement), after `setUp` (the
 * `create temp trigger if not exists …` that reads it), which the writer's connection runs once,
 * outside any transaction. For a hot write that records something beside it in the same
 * statement: one statement, atomic, committed alone when nothing else is waiting (the audit
 * journal, audit.repository.ts).
 *
 * Only the SQLite driver knows it: on PostgreSQL, say the same with one statement (a CTE).
 */
export type StatementValue = string | number;

export interface StatementContext {
  setUp: string;
  context: readonly StatementValue[];
}

export const WITH_CONTEXT = Symbol('vigil.withContext');

export type ContextQuery<R> = CompiledQuery<R> & { [WITH_CONTEXT]?: StatementContext };

export function withContext<R>(query: CompiledQuery<R>, context: StatementContext): ContextQuery<R> {
  return { ...query, [WITH_CONTEXT]: context };
}
