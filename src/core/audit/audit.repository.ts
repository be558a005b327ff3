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

/** Every chain the log has (an account's id; 0: the service's own), by id. */
export async function auditChainIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('audit_heads')
    .select('account_id')
    .union(db.selectFrom('audit_log').select('account_id').distinct())
    .execute();
  return [...new Set(rows.map((r) => Number(r.account_id)))].sort((a, b) => a - b);
}

/** A chain's head and anchor (where its kept rows begin), or undefined when it has none. */
export async function findChainHead(db: Db, accountId: number) {
  const head = await db
    .selectFrom('audit_heads')
    .select(['seq', 'hash', 'anchor_seq', 'anchor_hash'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return (
    head && {
      seq: Number(head.seq),
      hash: head.hash,
      anchorSeq: Number(head.anchor_seq),
      anchorHash: head.anchor_hash,
    }
  );
}

/** Up to `limit` rows of a chain after `afterSeq`, in chain order (verification reads them all, a page at a time). */
export async function chainRowsAfter(db: Db, accountId: number, afterSeq: number, limit: number) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** Each chain with its account's audit retention in days (null: the default). */
export async function chainRetentions(db: Db): Promise<{ accountId: number; days: number | null }[]> {
  const rows = await db
    .selectFrom('audit_heads as h')
    .leftJoin('account_security as s', 's.account_id', 'h.account_id')
    .select(['h.account_id', 's.audit_retention_days'])
    .execute();
  return rows.map((r) => ({ accountId: Number(r.account_id), days: r.audit_retention_days ?? null }));
}

/** The first row of a chain at or after `at` (in chain order), or undefined when every row is older. */
export async function firstChainRowSince(db: Db, accountId: number, at: number) {
  return db
    .selectFrom('audit_log')
    .select(['seq', 'prev_hash'])
    .where('account_id', '=', accountId)
    .where('at', '>=', at)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Retention, the one deletion of audit rows there is: the chain's rows before `seq` go, and its
 * anchor moves to `seq` and `prevHash` (the first kept row's), in the caller's transaction.
 * Returns how many rows went.
 */
export async function pruneChainBefore(
  trx: Db,
  accountId: number,
  seq: number,
  prevHash: string,
): Promise<number> {
  const deleted = await trx
    .deleteFrom('audit_log')
    .where('account_id', '=', accountId)
    .where('seq', '<', seq)
    .executeTakeFirst();
  await trx
    .updateTable('audit_heads')
    .set({ anchor_seq: seq, anchor_hash: prevHash })
    .where('account_id', '=', accountId)
    .where('anchor_seq', '<', seq)
    .execute();
  return Number(deleted.numDeletedRows);
}

/** Whether a chain holds a row older than `at` (the time index answers it). */
export async function chainHasRowBefore(db: Db, accountId: number, at: number): Promise<boolean> {
  const row = await db
    .selectFrom('audit_log')
    .select('id')
    .where('account_id', '=', accountId)
    .where('at', '<', at)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
