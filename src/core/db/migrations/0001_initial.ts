import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();
  const ref = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('accounts')
    .addColumn('id', idType, id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('rate_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('employees')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('employees_account_email_uq', ['account_id', 'email_normalized'])
    .execute();
  await db.schema
    .createIndex('employees_account_idx')
    .on('employees')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('employee_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('groups_account_idx').on('groups').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('group_members')
    .addColumn('group_id', ref, (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('employee_id', ref, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'employee_id'])
    .execute();
  await db.schema
    .createIndex('group_members_employee_idx')
    .on('group_members')
    .columns(['employee_id', 'group_id'])
    .execute();

  await db.schema
    .createTable('training_campaigns')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('training_campaigns_account_idx')
    .on('training_campaigns')
    .columns(['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('campaign_groups')
    .addColumn('campaign_id', ref, (c) => c.notNull().references('training_campaigns.id').onDelete('cascade'))
    .addColumn('group_id', ref, (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('campaign_groups_pk', ['campaign_id', 'group_id'])
    .execute();
  await db.schema.createIndex('campaign_groups_group_idx').on('campaign_groups').column('group_id').execute();

  if (postgres) await sql`analyze`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'campaign_groups',
    'training_campaigns',
    'group_members',
    'groups',
    'employees',
    'api_keys',
    'accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
