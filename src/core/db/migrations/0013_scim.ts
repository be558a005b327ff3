import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 12: SCIM 2.0 provisioning (Okta, Microsoft Entra). Employees can be deactivated (kept,
// readable, but no longer enrolled, invited, reminded or sent simulations); users and groups keep
// the identity provider's `externalId`; an account's SCIM bearer tokens are stored as a SHA-256
// hash only, like API keys.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();

  // 1 active, 0 deactivated (integers, as every flag here: SQLite has no boolean). A constant
  // default: no table rewrite on PostgreSQL.
  await db.schema
    .alterTable('employees')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('employees').addColumn('external_id', 'text').execute();
  await db.schema.alterTable('groups').addColumn('external_id', 'text').execute();
  // Identity providers look people and groups up by externalId; deactivated people are few, and
  // launches leave them out through this small partial index.
  await sql`create index employees_external_id_idx on employees (account_id, external_id) where external_id is not null`.execute(
    db,
  );
  await sql`create index employees_inactive_idx on employees (account_id, id) where active = 0`.execute(db);
  await sql`create index groups_external_id_idx on groups (account_id, external_id) where external_id is not null`.execute(
    db,
  );

  await db.schema
    .createTable('scim_tokens')
    .addColumn('id', idType, id)
    .addColumn('account_id', idType, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** `vgs_` and the next 8 characters, shown in lists to recognise a token. */
    .addColumn('prefix', 'text', (c) => c.notNull())
    /** SHA-256 (hex) of the whole token; the token itself is never stored. */
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('scim_tokens_account_idx').on('scim_tokens').column('account_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scim_tokens').execute();
  await db.schema.dropIndex('groups_external_id_idx').execute();
  await db.schema.dropIndex('employees_inactive_idx').execute();
  await db.schema.dropIndex('employees_external_id_idx').execute();
  await db.schema.alterTable('groups').dropColumn('external_id').execute();
  await db.schema.alterTable('employees').dropColumn('external_id').execute();
  await db.schema.alterTable('employees').dropColumn('active').execute();
}
