import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 21, items 5 and 6. What employees see names the account as its administrator chose
// (a display name, and an optional logo) and never an internal campaign name; remedial training
// has a due date per enrollment (set per phishing campaign) and the training reminders.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';

  // The name employees see in mail and on pages; null: the account's name.
  await db.schema.alterTable('accounts').addColumn('display_name', 'text').execute();
  // One logo per account, kept apart from the account's row (which every request reads). The
  // bytes as base64 text: one type on both databases, and a logo is small (256 KiB at most).
  await db.schema
    .createTable('account_logos')
    .addColumn('account_id', idType, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    /** `image/png`, `image/jpeg` or `image/webp`, as the bytes themselves say. */
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    /** SHA-256 (hex) of the bytes: the ETag, and the mail's Content-ID. */
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // Days from a person's failure to the due date of their remedial training. A constant default:
  // no table rewrite on PostgreSQL, and every existing campaign gets the default.
  await db.schema
    .alterTable('phishing_campaigns')
    .addColumn('remedial_due_days', 'integer', (c) => c.notNull().defaultTo(14))
    .execute();

  // An enrollment's own due date (remedial training: assignment + the campaign's days); null: the
  // campaign's due date. And the last reminder round queued to it alone (days before its due
  // date; rounds come in descending order), which lets one scheduler through per round.
  await db.schema.alterTable('enrollments').addColumn('due_at', 'bigint').execute();
  await db.schema.alterTable('enrollments').addColumn('reminded_days', 'integer').execute();
  // The remedial training of simulations made before this migration reminds as new ones do (the
  // training form's default days); its people enrolled from now on have a due date to be reminded of.
  await sql`update training_campaigns set reminder_days = '[7,1]' where reminder_days = '[]' and id in (select remedial_campaign_id from phishing_campaigns where remedial_campaign_id is not null)`.execute(
    db,
  );
  // The scheduler's pass over enrollments with their own due date, still to be completed.
  await sql`create index enrollments_own_due_idx on enrollments (due_at) where due_at is not null and completed_at is null`.execute(
    db,
  );
}

// Down leaves the remedial campaigns' reminder days as they are: without the due dates they remind of nothing.
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index enrollments_own_due_idx`.execute(db);
  await db.schema.alterTable('enrollments').dropColumn('reminded_days').execute();
  await db.schema.alterTable('enrollments').dropColumn('due_at').execute();
  await db.schema.alterTable('phishing_campaigns').dropColumn('remedial_due_days').execute();
  await db.schema.dropTable('account_logos').execute();
  await db.schema.alterTable('accounts').dropColumn('display_name').execute();
}
