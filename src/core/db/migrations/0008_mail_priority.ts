import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 10: mail someone is waiting for (a new learner link they asked for, an invitation an
// administrator resent at their request) goes out before bulk campaign mail. A launch queues
// one invitation per person; without a priority, a requested link waited behind all of them.

export async function up(db: Kysely<unknown>): Promise<void> {
  // 0: someone is waiting for it; 1: bulk (launch invitations, reminders). No table rewrite on
  // PostgreSQL (a constant default).
  await db.schema
    .alterTable('messages')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`update messages set priority = 0 where kind = 'link' and status in ('queued', 'sending')`.execute(
    db,
  );
  // The workers claim these first, through this index: it holds only the waiting messages
  // still to send (a handful), so bulk mail costs it nothing. The rest is claimed through
  // messages_due_idx (0003) as before.
  await sql`create index messages_waiting_due_idx on messages (next_attempt_at, id) where status in ('queued', 'sending') and priority = 0`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_waiting_due_idx').execute();
  await db.schema.alterTable('messages').dropColumn('priority').execute();
}
