import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 11: phishing simulations. An account's own templates; campaigns with their groups,
// template pool (snapshotted at launch) and remedial courses; one recipient row per person with
// an unguessable token and the first time of each step; append-only events; and the figures,
// kept up to date in the transaction that moves a recipient (docs/phishing-plan.md), so reading
// a campaign's results never scans its events. Simulation mail goes through the one queue:
// `messages.phishing_recipient_id`, unique, so a recipient can never get two simulations.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();
  const ref = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('phishing_templates')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('sender_name', 'text', (c) => c.notNull())
    /** The local part only; the domain is the campaign's. */
    .addColumn('sender_address', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('landing_html', 'text', (c) => c.notNull())
    .addColumn('difficulty', 'integer', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    /** JSON array of `{text, part, quote}`. */
    .addColumn('red_flags', 'text', (c) => c.notNull())
    /** The key of the template it was cloned from (`builtin:<slug>` or `custom:<id>`), if any. */
    .addColumn('cloned_from', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('phishing_templates_account_idx')
    .on('phishing_templates')
    .columns(['account_id', 'id'])
    .execute();

  // An account's phishing settings: the networks of its mail security products (CIDR lines).
  await db.schema
    .createTable('phishing_settings')
    .addColumn('account_id', ref, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    /** JSON array of CIDR strings. */
    .addColumn('scanner_networks', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('phishing_campaigns')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    /** draft | scheduled | running | completed | archived */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The send window: from, to (epoch ms), the weekdays (bit 0 Monday … bit 6 Sunday), the hours [first, last) and the zone. */
    .addColumn('window_start_at', 'bigint')
    .addColumn('window_end_at', 'bigint')
    .addColumn('weekdays', 'integer', (c) => c.notNull().defaultTo(31))
    .addColumn('hour_start', 'integer', (c) => c.notNull().defaultTo(9))
    .addColumn('hour_end', 'integer', (c) => c.notNull().defaultTo(17))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    /** teach_on_click | teach_on_submit: when the landing flow turns to the teachable page. */
    .addColumn('landing', 'text', (c) => c.notNull().defaultTo('teach_on_click'))
    /** click | submit: the step at which a person has failed and is given the remedial courses. */
    .addColumn('remedial_on', 'text', (c) => c.notNull().defaultTo('click'))
    /** Hours after the window's end during which clicks still count; then the campaign completes. */
    .addColumn('grace_hours', 'integer', (c) => c.notNull().defaultTo(72))
    /** Seconds after delivery within which an open or click is a scanner's unless a person interacts. */
    .addColumn('automated_window_seconds', 'integer', (c) => c.notNull().defaultTo(60))
    /** The domain of the sender address; null: the host of PHISH_URL. */
    .addColumn('sender_domain', 'text')
    /** The training campaign that enrols the people who fail (made at launch when there are courses). */
    .addColumn('remedial_campaign_id', ref)
    .addColumn('launched_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    /** stopped | window_ended, once completed. */
    .addColumn('completed_reason', 'text')
    .addColumn('archived_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('phishing_campaigns_account_idx')
    .on('phishing_campaigns')
    .columns(['account_id', 'id'])
    .execute();
  // The scheduler: scheduled campaigns whose window opens, running ones whose grace ends.
  await db.schema
    .createIndex('phishing_campaigns_status_idx')
    .on('phishing_campaigns')
    .columns(['status', 'window_start_at'])
    .execute();

  const child = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('phishing_campaigns.id').onDelete('cascade');
  await db.schema
    .createTable('phishing_campaign_groups')
    .addColumn('campaign_id', ref, child)
    .addColumn('group_id', ref, (c) => c.notNull())
    .addPrimaryKeyConstraint('phishing_campaign_groups_pk', ['campaign_id', 'group_id'])
    .execute();
  await db.schema
    .createIndex('phishing_campaign_groups_group_idx')
    .on('phishing_campaign_groups')
    .column('group_id')
    .execute();
  await db.schema
    .createTable('phishing_campaign_templates')
    .addColumn('campaign_id', ref, child)
    /** `builtin:<slug>` or `custom:<id>`. */
    .addColumn('template_key', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    /** The template as it was at launch (JSON of its content); null before. */
    .addColumn('snapshot', 'text')
    .addPrimaryKeyConstraint('phishing_campaign_templates_pk', ['campaign_id', 'template_key'])
    .execute();
  await db.schema
    .createTable('phishing_campaign_courses')
    .addColumn('campaign_id', ref, child)
    .addColumn('course_key', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('phishing_campaign_courses_pk', ['campaign_id', 'course_key'])
    .execute();

  // No foreign keys on the bulk tables: a launch writes 100,000 recipients, and the code deletes
  // what a deleted draft or account would (0004 explains the cost on PostgreSQL).
  await db.schema
    .createTable('phishing_recipients')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull())
    .addColumn('campaign_id', ref, (c) => c.notNull())
    /** Kept when the employee is deleted (then `employee_deleted_at` says when), like enrollments. */
    .addColumn('employee_id', ref, (c) => c.notNull())
    .addColumn('employee_deleted_at', 'bigint')
    /** 32 base64url characters (192 random bits): the personal link and tracking image carry it. */
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('template_key', 'text', (c) => c.notNull())
    /** JSON array of the campaign's groups the person was in at launch. */
    .addColumn('group_ids', 'text', (c) => c.notNull())
    .addColumn('planned_at', 'bigint', (c) => c.notNull())
    /** scheduled | sent | opened | clicked | submitted | failed: only moves up (human steps). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('opened_at', 'bigint')
    .addColumn('clicked_at', 'bigint')
    .addColumn('submitted_at', 'bigint')
    .addColumn('reported_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('training_assigned_at', 'bigint')
    .addColumn('enrollment_id', ref)
    .addUniqueConstraint('phishing_recipients_campaign_employee_uq', ['campaign_id', 'employee_id'])
    .execute();
  await db.schema
    .createIndex('phishing_recipients_token_uq')
    .on('phishing_recipients')
    .column('token')
    .unique()
    .execute();
  await db.schema
    .createIndex('phishing_recipients_campaign_status_idx')
    .on('phishing_recipients')
    .columns(['campaign_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('phishing_recipients_account_employee_idx')
    .on('phishing_recipients')
    .columns(['account_id', 'employee_id'])
    .execute();

  await db.schema
    .createTable('phishing_events')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull())
    .addColumn('campaign_id', ref, (c) => c.notNull())
    .addColumn('recipient_id', ref, (c) => c.notNull())
    /** sent | delivery_failed | opened | clicked | submitted | interaction | reported | training_assigned */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('client_address', 'text')
    /** Cut to 512 characters. */
    .addColumn('user_agent', 'text')
    /** human | automated */
    .addColumn('classification', 'text', (c) => c.notNull())
    /** A code of CLASSIFICATION_REASONS (phishing.classify.ts), or another step's own (e.g. `smtp_accepted`). */
    .addColumn('reason', 'text', (c) => c.notNull())
    /** A submission's field names (JSON array); the values are never stored. */
    .addColumn('field_names', 'text')
    /** An administrator's reclassification: the classification before, who, when and why. */
    .addColumn('original_classification', 'text')
    .addColumn('reclassified_by', ref)
    .addColumn('reclassified_at', 'bigint')
    .addColumn('reclassified_reason', 'text')
    .execute();
  await db.schema
    .createIndex('phishing_events_recipient_idx')
    .on('phishing_events')
    .columns(['recipient_id', 'id'])
    .execute();
  await db.schema
    .createIndex('phishing_events_campaign_idx')
    .on('phishing_events')
    .columns(['campaign_id', 'id'])
    .execute();

  // The figures: one row per campaign and dimension (`all` with key '', `group` with the group's
  // id, `template` with the template key), each step a count of distinct people (human only),
  // the raw counts of every event beside them.
  await db.schema
    .createTable('phishing_figures')
    .addColumn('campaign_id', ref, (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('dimension_key', 'text', (c) => c.notNull())
    .addColumn('recipients', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('opened', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('submitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reported', 'integer', (c) => c.notNull().defaultTo(0))
    /** People who clicked or submitted (the phish-prone). */
    .addColumn('phished', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('training_assigned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('raw_opens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('raw_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('raw_submits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('automated_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('phishing_figures_pk', ['campaign_id', 'dimension', 'dimension_key'])
    .execute();
  // Time to first click and to report, per dimension: a histogram (bucket of seconds on a
  // logarithmic scale, phishing.figures.ts) from which the medians are read.
  await db.schema
    .createTable('phishing_figure_delays')
    .addColumn('campaign_id', ref, (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('dimension_key', 'text', (c) => c.notNull())
    /** click | report */
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('people', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('phishing_figure_delays_pk', [
      'campaign_id',
      'dimension',
      'dimension_key',
      'step',
      'bucket',
    ])
    .execute();
  // Events over time: the people reaching each step in each hour (human only).
  await db.schema
    .createTable('phishing_activity')
    .addColumn('campaign_id', ref, (c) => c.notNull())
    /** The hour's start, epoch ms. */
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('opened', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('submitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reported', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('phishing_activity_pk', ['campaign_id', 'hour'])
    .execute();

  await db.schema.alterTable('messages').addColumn('phishing_recipient_id', ref).execute();
  await sql`create unique index messages_phishing_recipient_uq on messages (phishing_recipient_id) where phishing_recipient_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_phishing_recipient_uq').execute();
  await db.schema.alterTable('messages').dropColumn('phishing_recipient_id').execute();
  for (const table of [
    'phishing_activity',
    'phishing_figure_delays',
    'phishing_figures',
    'phishing_events',
    'phishing_recipients',
    'phishing_campaign_courses',
    'phishing_campaign_templates',
    'phishing_campaign_groups',
    'phishing_campaigns',
    'phishing_settings',
    'phishing_templates',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
