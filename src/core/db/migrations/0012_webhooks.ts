import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 12: signed webhooks (Standard Webhooks). An account's endpoints; the events its changes
// emit (written in the transaction of the change: an outbox); one delivery per event and
// endpoint, a durable queue claimed by the workers with leases, like the mail queue.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();
  const ref = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** JSON array of event types, or null for every event. */
    .addColumn('event_types', 'text')
    /** `whsec_` + base64 of 24 random bytes: the HMAC key, so it is kept as it is. */
    .addColumn('secret', 'text', (c) => c.notNull())
    /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    /** Null while enabled. */
    .addColumn('disabled_at', 'bigint')
    /** `manual`, `failing` (every attempt failed for days) or `gone` (the receiver answered 410). */
    .addColumn('disabled_reason', 'text')
    /** The first failed attempt since the last success (null: the last attempt succeeded). */
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // What every change of an account reads first: its enabled endpoints (usually none).
  await db.schema
    .createIndex('webhook_endpoints_account_idx')
    .on('webhook_endpoints')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    /** The `webhook-id` header: `msg_` + random, the same for every delivery and retry of the event. */
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    /** The body as signed and sent: `{"type", "timestamp", "data"}`. */
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('endpoint_id', ref, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', ref, (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    /** queued → sending → succeeded | failed (attempts exhausted, 410) | cancelled (endpoint disabled). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('response_status', 'integer')
    /** The first KiB of the receiver's last answer, as text. */
    .addColumn('response_excerpt', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('succeeded_at', 'bigint')
    .execute();
  // The workers claim through this index: only deliveries still to make.
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at, id) where status in ('queued', 'sending')`.execute(
    db,
  );
  // An endpoint's delivery log, newest first.
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event_idx')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();
  await db.schema
    .createIndex('webhook_events_account_idx')
    .on('webhook_events')
    .columns(['account_id', 'id'])
    .execute();

  // `training.enrollment_overdue` fires once per enrollment: when the scheduler found it past its
  // campaign's due date, still incomplete. The partial index holds only those not yet found.
  await db.schema.alterTable('enrollments').addColumn('overdue_at', 'bigint').execute();
  await sql`create index enrollments_overdue_pending_idx on enrollments (campaign_id) where completed_at is null and overdue_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('enrollments_overdue_pending_idx').execute();
  await db.schema.alterTable('enrollments').dropColumn('overdue_at').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
