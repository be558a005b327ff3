import type { Kysely } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 12: incremental sync of the Customer API. `updated_since=` on the employee and group
// lists reads the account's rows changed since an instant: an index on (account, updated_at)
// makes that a range read when few changed. Deleted employees and groups leave a tombstone
// (written in the transaction that deletes them) so a sync learns which ids are gone; they go
// with their account.

export async function up(db: Kysely<unknown>): Promise<void> {
  const ref = dialectOf(db) === 'postgres' ? 'bigint' : 'integer';

  await db.schema
    .createIndex('employees_account_updated_idx')
    .on('employees')
    .columns(['account_id', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('groups_account_updated_idx')
    .on('groups')
    .columns(['account_id', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('tombstones')
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    /** `employee` or `group`. */
    .addColumn('resource', 'text', (c) => c.notNull())
    /** The id the deleted row had (never given out again). */
    .addColumn('resource_id', ref, (c) => c.notNull())
    .addColumn('deleted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('tombstones_pk', ['account_id', 'resource', 'resource_id'])
    .execute();
  await db.schema
    .createIndex('tombstones_account_deleted_idx')
    .on('tombstones')
    .columns(['account_id', 'resource', 'deleted_at', 'resource_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tombstones').execute();
  await db.schema.dropIndex('groups_account_updated_idx').execute();
  await db.schema.dropIndex('employees_account_updated_idx').execute();
}
