import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Issue 22: the reporting loop (../shared/spec/reporting.md).
//
// - `phishing_settings.simulation_header`: the name of the header simulations carry and every
//   report path reads; null is `X-Vigil-Simulation`.
// - `reporting_settings`, one row per account made when first needed: the reporting id (a random
//   name in `report+<id>@REPORT_DOMAIN`, not a secret, unique across the service; null until the
//   address is first needed) and how many days a reported message's content is kept (null: 90).
// - `reports`: a real report, that is identical messages grouped (same sender, subject and body
//   fingerprint, or the same URLs). `content` is the safe view as JSON (headers, text, HTML,
//   URLs, attachments by name, type, size and SHA-256); retention sets it null and keeps the
//   rest: sender, subject, counts, verdict. A verdict is an administrator's or a rule's.
// - `report_reporters`: every person who reported one, with when and how; one row per address
//   and report (a second report by the same person moves `last_reported_at`).
// - `report_rules`: verdicts given by sender domain or URL host as reports arrive.
// - `report_feedback_templates`: an account's own feedback mail for a verdict; none: the default.
// - `messages.report_reporter_id`: a reporter's feedback mail (kind `report_feedback`), one per
//   reporter and verdict (the round is the verdict's number), queued with the verdict.
// - `phishing_figures.reported_after_click` and `missed`: people who reported after clicking
//   (counted apart), and people delivered who neither clicked nor reported; counted here for the
//   campaigns already launched, from their recipients, then kept by every step.
// - `admin_users.can_triage`: the triage permission; reported mail may hold personal data, so it
//   is a right of its own. Account administrators who exist now keep seeing what they saw.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const ref = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();

  await db.schema.alterTable('phishing_settings').addColumn('simulation_header', 'text').execute();
  await db.schema
    .alterTable('admin_users')
    .addColumn('can_triage', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('reporting_settings')
    .addColumn('account_id', ref, (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('reporting_id', 'text', (c) => c.unique())
    .addColumn('retention_days', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('sender_domain', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_fingerprint', 'text', (c) => c.notNull())
    .addColumn('url_fingerprint', 'text')
    .addColumn('reporters', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_reported_at', 'bigint', (c) => c.notNull())
    .addColumn('last_reported_at', 'bigint', (c) => c.notNull())
    .addColumn('verdict', 'text')
    .addColumn('verdict_note', 'text')
    .addColumn('verdict_at', 'bigint')
    .addColumn('verdict_admin_id', ref)
    .addColumn('verdict_rule_id', ref)
    .addColumn('content', 'text')
    .addColumn('content_deleted_at', 'bigint')
    .execute();
  await sql`create index reports_recent_idx on reports (account_id, last_reported_at, id)`.execute(db);
  await sql`create index reports_body_idx on reports (account_id, body_fingerprint)`.execute(db);
  await sql`create index reports_urls_idx on reports (account_id, url_fingerprint) where url_fingerprint is not null`.execute(
    db,
  );
  await sql`create index reports_retention_idx on reports (last_reported_at) where content is not null`.execute(
    db,
  );

  await db.schema
    .createTable('report_reporters')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    .addColumn('account_id', ref, (c) => c.notNull())
    .addColumn('report_id', ref, (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('employee_id', ref)
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('reported_at', 'bigint', (c) => c.notNull())
    .addColumn('last_reported_at', 'bigint', (c) => c.notNull())
    .addColumn('feedback_verdict', 'text')
    .addColumn('feedback_at', 'bigint')
    .addUniqueConstraint('report_reporters_address_uq', ['report_id', 'address'])
    .execute();
  await sql`create index report_reporters_time_idx on report_reporters (account_id, reported_at)`.execute(db);

  await db.schema
    .createTable('report_rules')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('report_rules_value_uq', ['account_id', 'kind', 'value'])
    .execute();

  await db.schema.alterTable('messages').addColumn('report_reporter_id', ref).execute();

  for (const column of ['reported_after_click', 'missed']) {
    await db.schema
      .alterTable('phishing_figures')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await countFiguresOfLaunchedCampaigns(db);

  await db.schema
    .createTable('report_feedback_templates')
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_feedback_templates_pk', ['account_id', 'verdict'])
    .execute();
}

/**
 * The two counters of every figures row (the campaign's, each group's, each template's) from the
 * recipients, a campaign at a time. Plain statements only, as the figures' own code writes them
 * (a migration reads no module).
 */
async function countFiguresOfLaunchedCampaigns(db: Kysely<unknown>): Promise<void> {
  const campaigns = await sql<{
    campaign_id: number;
  }>`select distinct campaign_id from phishing_figures`.execute(db);
  for (const { campaign_id } of campaigns.rows) {
    const recipients = await sql<{
      group_ids: string;
      template_key: string;
      sent_at: number | null;
      clicked_at: number | null;
      reported_at: number | null;
    }>`select group_ids, template_key, sent_at, clicked_at, reported_at from phishing_recipients where campaign_id = ${campaign_id}`.execute(
      db,
    );
    const sums = new Map<string, { dimension: string; key: string; after: number; missed: number }>();
    const add = (dimension: string, key: string, after: number, miss: number) => {
      const id = `${dimension}\u0000${key}`;
      const row = sums.get(id) ?? { dimension, key, after: 0, missed: 0 };
      row.after += after;
      row.missed += miss;
      sums.set(id, row);
    };
    for (const r of recipients.rows) {
      const clicked = r.clicked_at === null ? null : Number(r.clicked_at);
      const reported = r.reported_at === null ? null : Number(r.reported_at);
      const after = reported !== null && clicked !== null && reported >= clicked ? 1 : 0;
      const miss = r.sent_at !== null && clicked === null && reported === null ? 1 : 0;
      if (after + miss === 0) continue;
      let groups: unknown = [];
      try {
        groups = JSON.parse(r.group_ids);
      } catch {}
      add('all', '', after, miss);
      for (const group of Array.isArray(groups) ? groups : []) add('group', String(group), after, miss);
      add('template', r.template_key, after, miss);
    }
    for (const row of sums.values()) {
      await sql`update phishing_figures set reported_after_click = ${row.after}, missed = ${row.missed}
        where campaign_id = ${campaign_id} and dimension = ${row.dimension} and dimension_key = ${row.key}`.execute(
        db,
      );
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table report_feedback_templates`.execute(db);
  await db.schema.alterTable('phishing_figures').dropColumn('missed').execute();
  await db.schema.alterTable('phishing_figures').dropColumn('reported_after_click').execute();
  await db.schema.alterTable('messages').dropColumn('report_reporter_id').execute();
  await sql`drop table report_rules`.execute(db);
  await sql`drop table report_reporters`.execute(db);
  await sql`drop table reports`.execute(db);
  await sql`drop table reporting_settings`.execute(db);
  await db.schema.alterTable('admin_users').dropColumn('can_triage').execute();
  await db.schema.alterTable('phishing_settings').dropColumn('simulation_header').execute();
}
