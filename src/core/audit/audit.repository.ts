import type { Insertable } from 'kysely';
import { type Db, dialectOf } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';

/** The genesis of every chain: the "previous hash" of its first row. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The head of an account's chain, locked until the transaction ends (PostgreSQL: the row lock an
 * upsert takes; SQLite: its one writer), so concurrent writers of one account take turns. One
 * statement: made at the chain's first row, else "updated" to itself, which locks and returns it.
 */
export async function lockChainHead(trx: Db, accountId: number): Promise<{ seq: number; hash: string }> {
  const head = await trx
    .insertInto('audit_heads')
    .values({ account_id: accountId, seq: 0, hash: GENESIS_HASH })
    .onConflict((oc) => oc.column('account_id').doUpdateSet((eb) => ({ seq: eb.ref('audit_heads.seq') })))
    .returning(['seq', 'hash'])
    .executeTakeFirstOrThrow();
  return { seq: Number(head.seq), hash: head.hash };
}

/** Appends a row and moves the chain's head to it (PostgreSQL: in one statement, one round trip). */
export async function appendAuditRow(trx: Db, row: Insertable<AuditLogTable>): Promise<void> {
  const head = { seq: row.seq, hash: row.hash };
  if (dialectOf(trx) === 'postgres') {
    await trx
      .with('appended', (db) => db.insertInto('audit_log').values(row))
      .updateTable('audit_heads')
      .set(head)
      .where('account_id', '=', row.account_id)
      .execute();
    return;
  }
  await trx.insertInto('audit_log').values(row).execute();
  await trx.updateTable('audit_heads').set(head).where('account_id', '=', row.account_id).execute();
}
