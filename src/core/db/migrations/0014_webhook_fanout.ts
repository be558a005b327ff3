import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 19: a change writes one row per webhook event, whatever the number of endpoints; the
// webhook workers fan each event out into its deliveries later. `fanout_pending` is 1 from the
// change's commit until a worker has written the event's deliveries (in the same transaction as
// it sets 0, so a crash leaves either both or neither). Events stored before this migration had
// their deliveries written with them: 0, a constant default (no table rewrite on PostgreSQL).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_events')
    .addColumn('fanout_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The workers claim through this index: only the events still to fan out, oldest first.
  await sql`create index webhook_events_fanout_idx on webhook_events (id) where fanout_pending = 1`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_events_fanout_idx').execute();
  await db.schema.alterTable('webhook_events').dropColumn('fanout_pending').execute();
}
