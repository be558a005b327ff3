import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 21, items 1 and 2: sending a lead can predict, and a sender set in the web interface.
// - A launched campaign keeps the first and last moment it planned (the launch draws them), so a
//   page or list shows them without reading its recipients; campaigns launched before this
//   migration get theirs from their recipients here.
// - "Next send" is the earliest planned moment of a simulation not yet sent: a partial index of
//   the recipients still `scheduled`, by campaign and moment, answers it with one index probe
//   (the entries leave the index as simulations go out, so it stays the size of what is pending).
// - A campaign may set its sender name and address (the part before the @) besides its domain;
//   an account keeps defaults of all three in its phishing settings. Null everywhere means what
//   it meant before: the template's name and address, the domain of PHISH_URL. Existing campaigns
//   and settings are left null, so nothing already planned changes its From.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('phishing_campaigns').addColumn('planned_first_at', 'bigint').execute();
  await db.schema.alterTable('phishing_campaigns').addColumn('planned_last_at', 'bigint').execute();
  await db.schema.alterTable('phishing_campaigns').addColumn('sender_name', 'text').execute();
  await db.schema.alterTable('phishing_campaigns').addColumn('sender_address', 'text').execute();
  await sql`update phishing_campaigns
    set planned_first_at = (select min(r.planned_at) from phishing_recipients r where r.campaign_id = phishing_campaigns.id),
        planned_last_at = (select max(r.planned_at) from phishing_recipients r where r.campaign_id = phishing_campaigns.id)
    where launched_at is not null`.execute(db);

  await sql`create index phishing_recipients_next_send_idx on phishing_recipients (campaign_id, planned_at) where status = 'scheduled'`.execute(
    db,
  );

  await db.schema.alterTable('phishing_settings').addColumn('sender_name', 'text').execute();
  await db.schema.alterTable('phishing_settings').addColumn('sender_address', 'text').execute();
  await db.schema.alterTable('phishing_settings').addColumn('sender_domain', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('phishing_settings').dropColumn('sender_domain').execute();
  await db.schema.alterTable('phishing_settings').dropColumn('sender_address').execute();
  await db.schema.alterTable('phishing_settings').dropColumn('sender_name').execute();
  await sql`drop index phishing_recipients_next_send_idx`.execute(db);
  await db.schema.alterTable('phishing_campaigns').dropColumn('sender_address').execute();
  await db.schema.alterTable('phishing_campaigns').dropColumn('sender_name').execute();
  await db.schema.alterTable('phishing_campaigns').dropColumn('planned_last_at').execute();
  await db.schema.alterTable('phishing_campaigns').dropColumn('planned_first_at').execute();
}
