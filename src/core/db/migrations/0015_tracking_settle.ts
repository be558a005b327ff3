import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 19, items 9 and 10: a tracking hit's classification settles once the address-burst window
// has passed (docs/phishing-plan.md, "Settling"). A person's hit (an open or click of a browser)
// waits with `settles_at` set; the scheduler then decides from the recorded hits of its client
// address whether it was part of a scanner's burst, and only a settled click announces itself
// (`phishing.simulation_clicked`) and enrols the person in the remedial training.

export async function up(db: Kysely<unknown>): Promise<void> {
  // When the hit's classification settles (epoch ms); null once settled, and for every hit that
  // needs no settling (a machine's, a form post, a report, a system event).
  await db.schema.alterTable('phishing_events').addColumn('settles_at', 'bigint').execute();
  // The scheduler's queue of hits to settle: only the waiting ones are in it, so it stays small.
  await sql`create index phishing_events_settle_idx on phishing_events (settles_at) where settles_at is not null`.execute(
    db,
  );
  // An account's hits within seconds, in time order (the burst rule reads them by address then).
  // Ordered by time, not by address: a hit's entry lands at the end of its account's range, where
  // the last ones did, instead of at a random place (an index by address cost a fifth more per
  // tracking hit). System events have no address and are left out.
  await sql`create index phishing_events_time_idx on phishing_events (account_id, occurred_at) where client_address is not null`.execute(
    db,
  );

  // When the recipient's first click was announced (its webhook event emitted, once it settled);
  // null while it waits or before any click. Clicks recorded before this migration were announced
  // as they happened.
  await db.schema.alterTable('phishing_recipients').addColumn('click_announced_at', 'bigint').execute();
  await sql`update phishing_recipients set click_announced_at = clicked_at where clicked_at is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('phishing_recipients').dropColumn('click_announced_at').execute();
  await sql`drop index phishing_events_time_idx`.execute(db);
  await sql`drop index phishing_events_settle_idx`.execute(db);
  await db.schema.alterTable('phishing_events').dropColumn('settles_at').execute();
}
