import type { Insertable } from 'kysely';
import { type Db, dialectOf } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';

/** The genesis of every chain: the "previous hash" of its first row. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The head of an account's chain, locked until the transaction ends (PostgreSQL: the row lock;
 * SQLite: its one writer), so concurrent writers of one account take turns.
 */
export async function lockChainHead(trx: Db, accountId: number): Promise<{ seq: number; hash: string }> {
  await trx
    .insertInto('audit_heads')
    .values({ account_id: accountId, seq: 0, hash: GENESIS_HASH })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  const head = await trx
    .selectFrom('audit_heads')
    .select(['seq', 'hash'])
    .where('account_id', '=', accountId)
    .$if(dialectOf(trx) === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
  return { seq: Number(head.seq), hash: head.hash };
}

/** Appends a row and moves the chain's head to it. */
export async function appendAuditRow(trx: Db, row: Insertable<AuditLogTable>): Promise<void> {
  await trx.insertInto('audit_log').values(row).execute();
  await trx
    .updateTable('audit_heads')
    .set({ seq: row.seq, hash: row.hash })
    .where('account_id', '=', row.account_id)
    .execute();
}
