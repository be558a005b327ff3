import type { Kysely } from 'kysely';

// Issue 23, the audit log's retention: each chain's anchor, where verification starts.
//
// - `audit_heads.anchor_seq`: the `seq` of the first row the chain still holds (1 until retention
//   deletes its oldest rows).
// - `audit_heads.anchor_hash`: that row's `prev_hash` (64 zeros for the genesis). Retention moves
//   both forward in the transaction that deletes the rows before them, so verification knows
//   where the kept part must begin: a deleted first row, or a deleted row in the middle, shows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('audit_heads')
    .addColumn('anchor_seq', 'bigint', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('audit_heads')
    .addColumn('anchor_hash', 'text', (c) => c.notNull().defaultTo('0'.repeat(64)))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_heads').dropColumn('anchor_hash').execute();
  await db.schema.alterTable('audit_heads').dropColumn('anchor_seq').execute();
}
