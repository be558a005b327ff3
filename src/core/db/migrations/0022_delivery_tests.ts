import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Issue 22, item 8: delivery that lands (../shared/spec/reporting.md).
//
// - `phishing_test_sends`: one simulation an administrator sent to one of the account's employees
//   to see whether mail lands, outside every campaign: its own token (40 characters, so the
//   tracking routes tell it from a recipient's 32 by its length, without a read), the address and
//   template, who asked, when the message was queued and when the SMTP server accepted it (the
//   classifier's delivery window). `message_id` is its message in the mail queue (kind
//   `simulation_test`). `hits` counts what was recorded, so one link cannot fill the table.
// - `phishing_test_hits`: the image loads and link follows of a test send, classified by the
//   simulations' classifier (human or automated, the reason and what matched), with the client
//   address, user agent and time. Never counted in any campaign's figures.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const ref = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('phishing_test_sends')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('employee_id', ref)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('template_key', 'text', (c) => c.notNull())
    .addColumn('template_name', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('admin_id', ref)
    .addColumn('message_id', ref)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await sql`create index phishing_test_sends_recent_idx on phishing_test_sends (account_id, created_at)`.execute(
    db,
  );
  await sql`create index phishing_test_sends_message_idx on phishing_test_sends (message_id)`.execute(db);

  await db.schema
    .createTable('phishing_test_hits')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    .addColumn('account_id', ref, (c) => c.notNull())
    .addColumn('test_send_id', ref, (c) =>
      c.notNull().references('phishing_test_sends.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('client_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index phishing_test_hits_send_idx on phishing_test_hits (test_send_id, occurred_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('phishing_test_hits').execute();
  await db.schema.dropTable('phishing_test_sends').execute();
}
