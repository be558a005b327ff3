import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 10: deleting an employee keeps their training record. A completion is audit evidence, so
// an enrollment now outlives its employee: it keeps the employee's id (ids are never reused) and
// records when the person was deleted (`employee_deleted_at`); the person's name and address go
// with the employee row, and the campaign shows "Deleted employee #id".
//
// PostgreSQL has had no foreign key from enrollments to employees since 0004: it gains the
// column. SQLite's enrollments cascade from their employee, and SQLite cannot drop a foreign key:
// the table is rebuilt without it (SQLite's documented procedure: foreign keys off, a new table,
// copy, drop, rename, indexes, foreign_key_check), its AUTOINCREMENT high-water mark kept so no
// enrollment id (which signed learner links carry) is ever given out twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await db.schema.alterTable('enrollments').addColumn('employee_deleted_at', 'bigint').execute();
    return;
  }
  // Outside a transaction (inside one SQLite ignores it), on the connection that writes.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const { rows: fk } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(trx);
      // With them on, dropping the old table would delete every message and course progress row.
      if (Number(fk[0]?.foreign_keys) !== 0)
        throw new Error('0007: foreign keys are still on; nothing changed');
      const { rows: sequence } = await sql<{ seq: number }>`
        select seq from sqlite_sequence where name = 'enrollments'`.execute(trx);
      await trx.schema
        .createTable('enrollments_0007')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('campaign_id', 'integer', (c) =>
          c.notNull().references('training_campaigns.id').onDelete('cascade'),
        )
        // No foreign key: the enrollment stays when its employee is deleted.
        .addColumn('employee_id', 'integer', (c) => c.notNull())
        .addColumn('enrolled_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .addColumn('score', 'integer')
        .addColumn('last_activity_at', 'bigint')
        .addColumn('employee_deleted_at', 'bigint')
        .addUniqueConstraint('enrollments_campaign_employee_uq', ['campaign_id', 'employee_id'])
        .execute();
      await sql`insert into enrollments_0007
          (id, account_id, campaign_id, employee_id, enrolled_at, started_at, completed_at, score, last_activity_at)
        select id, account_id, campaign_id, employee_id, enrolled_at, started_at, completed_at, score, last_activity_at
        from enrollments`.execute(trx);
      await sql`drop table enrollments`.execute(trx);
      // Renaming carries the table's sqlite_sequence row; enrollment_courses and messages refer
      // to "enrollments" by name, so their foreign keys now point at the new table.
      await sql`alter table enrollments_0007 rename to enrollments`.execute(trx);
      await trx.schema
        .createIndex('enrollments_campaign_completed_idx')
        .on('enrollments')
        .columns(['campaign_id', 'completed_at'])
        .execute();
      await trx.schema
        .createIndex('enrollments_employee_idx')
        .on('enrollments')
        .columns(['employee_id', 'campaign_id'])
        .execute();
      const highWater = Number(sequence[0]?.seq ?? 0);
      await sql`insert into sqlite_sequence (name, seq) select 'enrollments', 0
        where not exists (select 1 from sqlite_sequence where name = 'enrollments')`.execute(trx);
      await sql`update sqlite_sequence set seq = max(seq, ${highWater}) where name = 'enrollments'`.execute(
        trx,
      );
      for (const table of ['enrollments', 'enrollment_courses', 'messages']) {
        const { rows: broken } = await sql`pragma foreign_key_check(${sql.raw(table)})`.execute(trx);
        if (broken.length > 0) throw new Error(`0007: ${table} fails foreign_key_check; nothing changed`);
      }
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Going back would cascade-delete the history of deleted employees on SQLite: not supported.
  await db.schema.alterTable('enrollments').dropColumn('employee_deleted_at').execute();
}
