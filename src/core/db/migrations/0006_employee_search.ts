import { type Kysely, sql } from 'kysely';
import { employeeSearchText } from '../../search-text.js';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 10: employee search for any script. SQLite's lower() and like fold ASCII letters only,
// so "öztürk" found nobody; the names and address are now folded by the application
// (search-text.ts) into a column kept in step on every write, and searches compare with it.

const BATCH = 2000;

/** Runs `work` in one transaction: PostgreSQL's migrations already run in one, SQLite's do not. */
async function inOneTransaction(db: Kysely<unknown>, work: (trx: Kysely<unknown>) => Promise<void>) {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await inOneTransaction(db, async (trx) => {
    await trx.schema
      .alterTable('employees')
      .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    // Every employee's search text, a batch at a time in id order, computed here as the
    // application computes it on write.
    for (let after = 0; ; ) {
      const { rows } = await sql<{ id: number; first_name: string; last_name: string; email: string }>`
        select id, first_name, last_name, email from employees where id > ${after} order by id limit ${BATCH}`.execute(
        trx,
      );
      if (rows.length === 0) break;
      const values = rows.map((r) => [Number(r.id), employeeSearchText(r)] as const);
      const last = Number(rows[rows.length - 1]?.id);
      if (postgres) {
        // The id range lets PostgreSQL read just this batch's rows by primary key (without it,
        // it hashed the batch and scanned the whole table once per batch).
        await sql`update employees e set search_text = v.search_text
          from unnest(${values.map((v) => v[0])}::bigint[], ${values.map((v) => v[1])}::text[]) as v(id, search_text)
          where e.id = v.id and e.id > ${after} and e.id <= ${last}`.execute(trx);
      } else {
        await sql`update employees set search_text = v.value ->> 1
          from json_each(${JSON.stringify(values)}) as v
          where employees.id = v.value ->> 0`.execute(trx);
      }
      after = last;
    }
    // New rows must bring their own (the application always does); SQLite cannot drop a default.
    if (postgres) await sql`alter table employees alter column search_text drop default`.execute(trx);
  });
  if (postgres) await sql`analyze employees`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('employees').dropColumn('search_text').execute();
}
