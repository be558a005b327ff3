import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { dialectOf } from '../database.js';

// Frozen: never edit a migration after it has landed; add a new one.
// Issue 12: `Idempotency-Key` on the Customer API's POST, PATCH and DELETE, as Stripe defines it.
// One row per API key and key: the request's fingerprint, whether it is still running (with a
// lease, so a request whose process died can be run again), then the first response as it was
// sent (status, the headers that describe it, body), replayed for 24 hours.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const idType = postgres ? 'bigint' : 'integer';
  const id = (col: ColumnDefinitionBuilder) =>
    postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement();
  const ref = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', idType, id)
    .addColumn('account_id', ref, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('api_key_id', ref, (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    /** SHA-256 (hex) of the method, the path with its query and the body. */
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    /** `running` until the first response is stored, then `done`. */
    .addColumn('state', 'text', (c) => c.notNull())
    /** While running: after this moment the request counts as abandoned (its process died). */
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    /** JSON object of the response headers replayed (content-type, location, etag). */
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_key_unique', ['api_key_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_expires_idx')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();
  await db.schema
    .createIndex('idempotency_keys_account_idx')
    .on('idempotency_keys')
    .column('account_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
