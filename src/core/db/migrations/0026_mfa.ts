import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Issue 23, item 2: multi-factor authentication for local sign-in.
//
// - `admin_mfa_factors`: an administrator's second factors. `kind` 'totp': `secret_sealed` is the
//   seed sealed by the secret box, `last_step` the last time step accepted (a code is used once),
//   `confirmed_at` null while enrolment waits for its first code. `kind` 'passkey': the
//   credential's id (base64url, unique), public key (base64url), signature counter, transports
//   (JSON). `account_id` is the administrator's (null: an operator).
// - `admin_recovery_codes`: ten one-time codes per administrator, SHA-256 only; `used_at` once used.
// - `admin_mfa_challenges`: WebAuthn challenges, kept server-side, single use, short-lived,
//   bound to the session (its id hash) that asked for them.
// - `admin_sessions.mfa_pending`: null for a full session; 'verify' (password done, second step
//   to go) or 'enrol' (MFA required, no factor yet): such a session can do nothing else.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const ref = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();

  await db.schema
    .createTable('admin_mfa_factors')
    .addColumn('id', postgres ? 'bigint' : 'integer', id)
    .addColumn('admin_id', ref, (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
    .addColumn('account_id', ref)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text')
    .addColumn('last_step', 'bigint')
    .addColumn('credential_id', 'text')
    .addColumn('public_key', 'text')
    .addColumn('counter', 'bigint')
    .addColumn('transports', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  await sql`create index admin_mfa_factors_admin_idx on admin_mfa_factors (admin_id)`.execute(db);
  await sql`create unique index admin_mfa_factors_credential_uq on admin_mfa_factors (credential_id)`.execute(
    db,
  );

  await db.schema
    .createTable('admin_recovery_codes')
    .addColumn('admin_id', ref, (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('admin_recovery_codes_pk', ['admin_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('admin_mfa_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('session_id_hash', 'text', (c) => c.notNull())
    .addColumn('admin_id', ref, (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index admin_mfa_challenges_session_idx on admin_mfa_challenges (session_id_hash)`.execute(
    db,
  );

  await db.schema.alterTable('admin_sessions').addColumn('mfa_pending', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('admin_sessions').dropColumn('mfa_pending').execute();
  await sql`drop table admin_mfa_challenges`.execute(db);
  await sql`drop table admin_recovery_codes`.execute(db);
  await sql`drop table admin_mfa_factors`.execute(db);
}
