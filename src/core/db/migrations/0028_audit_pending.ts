import type { Kysely } from 'kysely';
import { dialectOf } from '../database.js';

// The audit log's journal on SQLite (src/core/audit/audit.repository.ts).
//
// - `audit_pending`: audit rows written with the change they record, in the same statement (a
//   trigger of the writer's connection), not yet in their chain. A mover appends them to
//   `audit_log` in batches moments later, in order, and deletes them; every reader of the log,
//   and every other audit write, moves them first. One b-tree appended at its end: on SQLite a
//   recorded create costs one more page, not a row of five indexes and a transaction.
//   `record` is the row's fields as JSON (all but the chain's and the object's id); `object_id`
//   the id of the row the statement inserted. PostgreSQL writes the row directly (one statement):
//   the table stays empty there.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('audit_pending')
    .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
      postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey(),
    )
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_pending').execute();
}
