import type { Kysely } from 'kysely';

// Frozen: never edit a migration after it has landed; add a new one.
// The mail queue's send phase: when an attempt handed its message over for delivery (over SMTP:
// just before the final "." of DATA), so that a worker taking over an expired claim knows
// whether the earlier attempt may have been delivered; and how many attempts ended unknown.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('handed_over_at', 'bigint').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('attempts_in_doubt', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('attempts_in_doubt').execute();
  await db.schema.alterTable('messages').dropColumn('handed_over_at').execute();
}
