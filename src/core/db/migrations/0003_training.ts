import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Training campaigns that train: campaign settings, custom courses, enrollments with per-course
// progress, the reminder rounds already queued, and the durable mail queue (also the outbox).

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();
  const ref = postgres ? 'bigint' : 'integer';

  for (const [name, type, build] of [
    ['description', 'text', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('')],
    ['start_at', 'bigint', (c: ColumnDefinitionBuilder) => c],
    ['due_at', 'bigint', (c: ColumnDefinitionBuilder) => c],
    ['reminder_days', 'text', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('[]')],
    ['enroll_new_members', 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0)],
    ['launched_at', 'bigint', (c: ColumnDefinitionBuilder) => c],
    ['completed_at', 'bigint', (c: ColumnDefinitionBuilder) => c],
    ['archived_at', 'bigint', (c: ColumnDefinitionBuilder) => c],
  ] as const) {
    await db.schema.alterTable('training_campaigns').addColumn(name, type, build).execute();
  }
  // The scheduler looks for scheduled campaigns whose start has come, and active ones to remind.
  await db.schema
    .createIndex('training_campaigns_status_idx')
    .on('training_campaigns')
    .columns(['status', 'start_at'])
    .execute();

  await db.schema
    .createTable('courses')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('pass_mark', 'integer', (c) => c.notNull())
    .addColumn('lessons', 'text', (c) => c.notNull())
    .addColumn('quiz', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('courses_account_idx').on('courses').columns(['account_id', 'id']).execute();

  // A course is a built-in slug ("phishing") or a custom course ("custom-12").
  await db.schema
    .createTable('campaign_courses')
    .addColumn('campaign_id', ref, (c) => c.notNull().references('training_campaigns.id').onDelete('cascade'))
    .addColumn('course_key', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_courses_pk', ['campaign_id', 'course_key'])
    .execute();
  await db.schema
    .createIndex('campaign_courses_course_idx')
    .on('campaign_courses')
    .column('course_key')
    .execute();

  await db.schema
    .createTable('enrollments')
    .addColumn('id', idType, id)
    // No foreign key on account_id here or in messages: the campaign's (and the enrollment's)
    // already cascade from the account, and a launch writes 100,000 rows whose checks of the
    // same parent row cost more than the rows themselves on PostgreSQL.
    .addColumn('account_id', ref, (c) => c.notNull())
    .addColumn('campaign_id', ref, (c) => c.notNull().references('training_campaigns.id').onDelete('cascade'))
    .addColumn('employee_id', ref, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    .addColumn('enrolled_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('score', 'integer')
    .addColumn('last_activity_at', 'bigint')
    .addUniqueConstraint('enrollments_campaign_employee_uq', ['campaign_id', 'employee_id'])
    .execute();
  // Counting a campaign's enrolled and completed people from the index alone.
  await db.schema
    .createIndex('enrollments_campaign_completed_idx')
    .on('enrollments')
    .columns(['campaign_id', 'completed_at'])
    .execute();
  await db.schema
    .createIndex('enrollments_employee_idx')
    .on('enrollments')
    .columns(['employee_id', 'campaign_id'])
    .execute();

  await db.schema
    .createTable('enrollment_courses')
    .addColumn('enrollment_id', ref, (c) => c.notNull().references('enrollments.id').onDelete('cascade'))
    .addColumn('course_key', 'text', (c) => c.notNull())
    /** JSON array of the lesson indexes read. */
    .addColumn('lessons_read', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('best_score', 'integer')
    .addColumn('last_answers', 'text')
    .addColumn('passed_at', 'bigint')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('enrollment_courses_pk', ['enrollment_id', 'course_key'])
    .execute();

  await db.schema
    .createTable('campaign_reminders')
    .addColumn('campaign_id', ref, (c) => c.notNull().references('training_campaigns.id').onDelete('cascade'))
    .addColumn('days_before_due', 'integer', (c) => c.notNull())
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .addColumn('queued_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_reminders_pk', ['campaign_id', 'days_before_due'])
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull())
    // Goes with its enrollment (which goes with its campaign and its employee).
    .addColumn('campaign_id', ref)
    .addColumn('enrollment_id', ref, (c) => c.references('enrollments.id').onDelete('cascade'))
    /** invitation | reminder | link (a new link the learner asked for). */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** 0 for the invitation, the days before due for a reminder, a counter for new links. */
    .addColumn('round', 'integer', (c) => c.notNull().defaultTo(0))
    /** queued | sending | sent | failed | cancelled */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    /** Filled when sent: what went out, for the outbox and the record. */
    .addColumn('transport', 'text')
    .addColumn('to_address', 'text')
    .addColumn('subject', 'text')
    .addColumn('body_text', 'text')
    .addColumn('body_html', 'text')
    .addColumn('message_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  // Enqueueing twice (a retried launch, a second scheduler) can never make a second message.
  await db.schema
    .createIndex('messages_enrollment_kind_round_uq')
    .on('messages')
    .columns(['enrollment_id', 'kind', 'round'])
    .unique()
    .execute();
  await db.schema.createIndex('messages_account_idx').on('messages').columns(['account_id', 'id']).execute();
  await db.schema
    .createIndex('messages_campaign_idx')
    .on('messages')
    .columns(['campaign_id', 'id'])
    .execute();
  // Workers claim due messages through this small index; sent ones leave it.
  await sql`create index messages_due_idx on messages (next_attempt_at, id) where status in ('queued', 'sending')`.execute(
    db,
  );
  if (postgres) await sql`analyze`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'messages',
    'campaign_reminders',
    'enrollment_courses',
    'enrollments',
    'campaign_courses',
    'courses',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('training_campaigns_status_idx').execute();
  for (const column of [
    'archived_at',
    'completed_at',
    'launched_at',
    'enroll_new_members',
    'reminder_days',
    'due_at',
    'start_at',
    'description',
  ]) {
    await db.schema.alterTable('training_campaigns').dropColumn(column).execute();
  }
}
