import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// The web interface: administrators, their sessions and invitations, server secrets, and the
// indexes the employee and group tables of the interface sort and page by.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();
  const ref = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('admin_users')
    .addColumn('id', idType, id)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('account_id', ref, (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('admin_users_account_idx')
    .on('admin_users')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('admin_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', ref, (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_sessions_user_idx').on('admin_sessions').column('user_id').execute();

  await db.schema
    .createTable('admin_invitations')
    .addColumn('id', idType, id)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('account_id', ref, (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('created_by', ref, (c) => c.references('admin_users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('admin_invitations_account_idx')
    .on('admin_invitations')
    .columns(['account_id', 'id'])
    .execute();

  // Sorting and paging the interface's tables: case-insensitive names, then id for a stable order.
  await sql`create index employees_account_last_name_idx on employees (account_id, lower(last_name), lower(first_name), id)`.execute(
    db,
  );
  await sql`create index employees_account_first_name_idx on employees (account_id, lower(first_name), lower(last_name), id)`.execute(
    db,
  );
  await sql`create index groups_account_name_idx on groups (account_id, lower(name), id)`.execute(db);
  if (postgres) await sql`analyze`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index groups_account_name_idx`.execute(db);
  await sql`drop index employees_account_first_name_idx`.execute(db);
  await sql`drop index employees_account_last_name_idx`.execute(db);
  for (const table of ['admin_invitations', 'admin_sessions', 'admin_users', 'app_secrets']) {
    await db.schema.dropTable(table).execute();
  }
}
