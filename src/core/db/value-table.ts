import { sql } from 'kysely';
import { type Db, dialectOf } from './database.js';

/**
 * A list of values as a one-column table `u(<column>)` to join against. Lists can hold
 * 100,000 entries: they travel as one parameter (a JSON text for SQLite's json_each, an array
 * for PostgreSQL's unnest), never as 100,000 placeholders.
 */
export function idRows(db: Db, ids: number[]) {
  return dialectOf(db) === 'postgres'
    ? sql`unnest(${ids}::bigint[]) as u(id)`
    : sql`(select value as id from json_each(${JSON.stringify(ids)})) as u`;
}

/** Text values as a table `u(email)` (see idRows). */
export function emailRows(db: Db, emails: string[]) {
  return dialectOf(db) === 'postgres'
    ? sql`unnest(${emails}::text[]) as u(email)`
    : sql`(select value as email from json_each(${JSON.stringify(emails)})) as u`;
}
