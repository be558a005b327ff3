import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 21, item 14 sorted names as people read them (core/db/collation.ts) instead of by
// lower(…), and so left the name indexes of 0002 unused: a list of 100,000 employees by name
// sorted the whole account on every page (SQLite: 164–428 ms of the server's one thread a page,
// bench/RESULTS.md). These indexes hold exactly the expressions the lists
// order by (byName), so a page is again a walk along an index:
// - PostgreSQL: lower(name collate "und-x-icu"), ICU's root collation.
// - SQLite: vigil_name_key(name), the function every Vigil connection defines (name-key.ts).
//   A connection without it (the sqlite3 shell) can read these tables but not write employees
//   or groups. If that function's keys ever change, a migration must run `reindex`.
// The lower(…) indexes of 0002 are dropped: nothing orders or searches by them any more.

function nameKey(postgres: boolean, column: string) {
  return postgres ? `lower(${column} collate "und-x-icu")` : `vigil_name_key(${column})`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const last = nameKey(postgres, 'last_name');
  const first = nameKey(postgres, 'first_name');
  await sql`drop index employees_account_last_name_idx`.execute(db);
  await sql`drop index employees_account_first_name_idx`.execute(db);
  await sql`drop index groups_account_name_idx`.execute(db);
  await sql
    .raw(`create index employees_account_last_name_key_idx on employees (account_id, ${last}, ${first}, id)`)
    .execute(db);
  await sql
    .raw(`create index employees_account_first_name_key_idx on employees (account_id, ${first}, ${last}, id)`)
    .execute(db);
  await sql
    .raw(`create index groups_account_name_key_idx on groups (account_id, ${nameKey(postgres, 'name')}, id)`)
    .execute(db);
  if (postgres) await sql`analyze employees, groups`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index groups_account_name_key_idx`.execute(db);
  await sql`drop index employees_account_first_name_key_idx`.execute(db);
  await sql`drop index employees_account_last_name_key_idx`.execute(db);
  await sql`create index employees_account_last_name_idx on employees (account_id, lower(last_name), lower(first_name), id)`.execute(
    db,
  );
  await sql`create index employees_account_first_name_idx on employees (account_id, lower(first_name), lower(last_name), id)`.execute(
    db,
  );
  await sql`create index groups_account_name_idx on groups (account_id, lower(name), id)`.execute(db);
}
