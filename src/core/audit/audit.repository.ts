import { CompiledQuery, type QueryResult } from 'kysely';
import { type Db, dialectOf } from '../db/database.js';
import { registerNamedStatement } from '../db/postgres-pool.js';
import { SQLITE_SHA256_HEX, SQLITE_STATEMENT_CONTEXT } from '../db/sqlite-connections.js';
import { followedBy, withContext } from '../db/together.js';
import { canonicalAround, canonicalTail, chainHash, type UnchainedAuditRow } from './audit-canonical.js';

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

const COLUMNS =
  'account_id, seq, at, actor_kind, actor_id, actor_label, address, request_id, action, object_type, object_id, object_label, changes, prev_hash, hash';

/** The row's fields as parameters $k+1 … $k+11 (PostgreSQL): COLUMNS less the chain's and object_id. */
const fieldsOf = (row: UnchainedAuditRow) => [
  row.account_id,
  row.at,
  row.actor_kind,
  row.actor_id,
  row.actor_label,
  row.address,
  row.request_id,
  row.action,
  row.object_type,
  row.object_label,
  row.changes,
];

/**
 * PostgreSQL: locks the chain's head, moves it to the new row (the hash computed by the database:
 * SHA-256 over the previous hash, a newline and the canonical form, `[account,seq,` + the tail)
 * and appends the row. $k+1 … $k+11 are the row's fields (fieldsOf); `objectId` and `tail` are
 * SQL expressions; `from` joins what they read. Constant text for each use, prepared once per
 * connection.
 */
function appendPostgres(k: number, objectId: string, tail: string, from = '') {
  const p = (i: number) => `$${k + i}`;
  const account = p(1);
  return `h as (select seq, hash from audit_heads where account_id = ${account} for update),
n as (
  update audit_heads set seq = h.seq + 1,
    hash = encode(sha256(convert_to(h.hash || E'\n' || '[' || ${account} || ',' || (h.seq + 1) || ',' || ${tail}, 'UTF8')), 'hex')
  from h${from} where audit_heads.account_id = ${account}
  returning audit_heads.seq, audit_heads.hash, h.hash as prev_hash),
a as (
  insert into audit_log (${COLUMNS})
  select ${account}, n.seq, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${objectId}, ${p(10)}, ${p(11)}, n.prev_hash, n.hash
  from n${from}
  returning 1)`;
}

/** One row, on its own: its fields, then its object's id ($12) and its canonical tail ($13). */
const APPEND_POSTGRES = `with ${appendPostgres(0, '$12', '$13')} select count(*) as appended from a`;
registerNamedStatement(APPEND_POSTGRES);

/** SQLite: the row from the head (the writer's lock is held), then the head moved to it. */
const APPEND_SQLITE = `insert into audit_log (${COLUMNS})
select ?, h.seq + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, h.hash,
  ${SQLITE_SHA256_HEX}(h.hash || char(10) || '[' || ? || ',' || (h.seq + 1) || ',' || ?)
from audit_heads h where h.account_id = ?
returning seq, hash`;
const MOVE_HEAD_SQLITE = 'update audit_heads set seq = ?, hash = ? where account_id = ?';
const MAKE_HEAD = (placeholder: string) =>
  `insert into audit_heads (account_id, seq, hash) values (${placeholder}, 0, '${GENESIS_HASH}') on conflict (account_id) do nothing`;

type RunNow = <R>(query: CompiledQuery<R>) => QueryResult<R>;

/**
 * SQLite, synchronously (the writer is held, nothing runs between the statements): appends the
 * row from the chain's head (made first when the chain has none) and moves the head to it.
 */
function appendSqlite(run: RunNow, row: UnchainedAuditRow): void {
  const r = row;
  // better-sqlite3 binds `?` by position only, so the account again where it appears (as text in
  // the canonical form: a number would be bound as a real, `7.0`).
  const parameters = [
    ...[r.account_id, r.at, r.actor_kind, r.actor_id, r.actor_label, r.address, r.request_id],
    ...[r.action, r.object_type, r.object_id, r.object_label, r.changes],
    ...[String(r.account_id), canonicalTail(r), r.account_id],
  ];
  for (let attempt = 0; attempt < 2; attempt++) {
    const head = run<{ seq: number; hash: string }>(CompiledQuery.raw(APPEND_SQLITE, parameters)).rows[0];
    if (head) {
      run(CompiledQuery.raw(MOVE_HEAD_SQLITE, [head.seq, head.hash, r.account_id]));
      return;
    }
    run(CompiledQuery.raw(MAKE_HEAD('?'), [r.account_id]));
  }
  throw new Error(`the audit chain of account ${r.account_id} has no head`);
}

/**
 * SQLite's journal (migration 0028): a recorded create's audit row is written by a temporary
 * trigger of the writer's connection, in the insert's own statement, into `audit_pending` (one
 * b-tree, appended at its end), with the row's fields as the statement's context
 * (together.ts withContext). Moments later `movePending` appends the journal's rows to their
 * chains in order, in batches, and deletes them; every other audit write moves them first (so
 * the chain keeps the order of the commits), and every reader of the log moves them before it
 * reads (settleAuditLog). On SQLite a row in its own commit costs five b-trees' pages and a
 * transaction; in the journal, one page shared by the commits of a moment.
 */
const pendingTriggers = new Map<string, string>();
function pendingTrigger(table: string): string {
  let trigger = pendingTriggers.get(table);
  if (trigger === undefined) {
    if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
    trigger = `create temp trigger if not exists vigil_audit_pending_${table} after insert on main.${table}
when ${SQLITE_STATEMENT_CONTEXT}() is not null
begin insert into main.audit_pending (record, object_id) values (${SQLITE_STATEMENT_CONTEXT}(), new.id); end`;
    pendingTriggers.set(table, trigger);
  }
  return trigger;
}

const READ_PENDING = 'select id, record, object_id from audit_pending order by id limit ?';
const CLEAR_PENDING = 'delete from audit_pending where id <= ?';
const READ_HEAD_SQLITE = 'select seq, hash from audit_heads where account_id = ?';
/** Rows the mover takes in one transaction, and rows in one insert statement. */
const PENDING_BATCH = 1000;
const INSERT_ROWS = 50;
const insertRowsSqlite = new Map<number, string>();
function insertRowsStatement(rows: number): string {
  let statement = insertRowsSqlite.get(rows);
  if (!statement) {
    const one = `(${Array.from({ length: 15 }, () => '?').join(', ')})`;
    statement = `insert into audit_log (${COLUMNS}) values ${Array.from({ length: rows }, () => one).join(', ')}`;
    insertRowsSqlite.set(rows, statement);
  }
  return statement;
}

/**
 * SQLite, synchronously, the writer held: appends up to `limit` of the journal's rows to their
 * chains, in the order they were written, and deletes them. Returns how many it moved.
 */
function movePending(run: RunNow, limit: number): number {
  const pending = run<{ id: number; record: string; object_id: string | number | null }>(
    CompiledQuery.raw(READ_PENDING, [limit]),
  ).rows;
  const last = pending[pending.length - 1];
  if (!last) return 0;
  const chains = new Map<number, UnchainedAuditRow[]>();
  for (const { record, object_id } of pending) {
    const row = JSON.parse(record) as UnchainedAuditRow;
    row.object_id = object_id === null ? null : String(object_id);
    const chain = chains.get(row.account_id) ?? [];
    chains.set(row.account_id, chain);
    chain.push(row);
  }
  for (const [accountId, rows] of chains) {
    let head = run<{ seq: number; hash: string }>(CompiledQuery.raw(READ_HEAD_SQLITE, [accountId])).rows[0];
    if (!head) {
      run(CompiledQuery.raw(MAKE_HEAD('?'), [accountId]));
      head = { seq: 0, hash: GENESIS_HASH };
    }
    let seq = Number(head.seq);
    let hash = head.hash;
    for (let from = 0; from < rows.length; from += INSERT_ROWS) {
      const some = rows.slice(from, from + INSERT_ROWS);
      const values: unknown[] = [];
      for (const r of some) {
        seq += 1;
        const prev = hash;
        hash = chainHash(prev, accountId, seq, canonicalTail(r));
        values.push(r.account_id, seq, r.at, r.actor_kind, r.actor_id, r.actor_label, r.address);
        values.push(r.request_id, r.action, r.object_type, r.object_id, r.object_label, r.changes);
        values.push(prev, hash);
      }
      run(CompiledQuery.raw(insertRowsStatement(some.length), values));
    }
    run(CompiledQuery.raw(MOVE_HEAD_SQLITE, [seq, hash, accountId]));
  }
  run(CompiledQuery.raw(CLEAR_PENDING, [last.id]));
  return pending.length;
}

/** Whether `db` is SQLite's, whose journal may hold rows not yet in their chains. */
const journaled = (db: Db) => dialectOf(db) === 'sqlite';

/**
 * SQLite, in a transaction (which holds the writer): runs `work` synchronously on that writer,
 * nothing between its statements (together.ts followedBy, after a no-op).
 */
async function onWriter(trx: Db, work: (run: RunNow) => void): Promise<void> {
  await trx.executeQuery(followedBy(CompiledQuery.raw('select 1', []), (_r, run) => work(run)));
}

/**
 * Moves every row of SQLite's journal into its chain (nothing to do on PostgreSQL): what a reader
 * of the log (a page, an export, verification, retention) does first, so that it sees every
 * change committed before it asked. A read when the journal is empty.
 */
export async function settleAuditLog(db: Db): Promise<void> {
  if (!journaled(db)) return;
  for (;;) {
    if (!db.isTransaction) {
      const any = await db.selectFrom('audit_pending').select('id').limit(1).executeTakeFirst();
      if (!any) return;
    }
    let moved = 0;
    const move = (trx: Db) =>
      onWriter(trx, (run) => {
        moved = movePending(run, PENDING_BATCH);
      });
    await (db.isTransaction ? move(db) : db.transaction().execute(move));
    if (moved < PENDING_BATCH) return;
  }
}

/** How long the journal's first row waits for its batch (the mover's pause), ms. */
const SETTLE_AFTER_MS = 50;
const settling = new WeakSet<Db>();

/** Moves the journal's rows a moment from now, with those written meanwhile (one batch). */
function settleSoon(db: Db): void {
  if (settling.has(db)) return;
  settling.add(db);
  setTimeout(() => {
    // A failure (the database gone, say) leaves the rows in the journal: the next reader or
    // audit write moves them, and reports the error to its caller.
    settleAuditLog(db)
      .catch(() => {})
      .finally(() => settling.delete(db));
  }, SETTLE_AFTER_MS).unref();
}

/**
 * Appends a row to its account's chain, in the caller's transaction: one statement on PostgreSQL,
 * two on SQLite (after the journal's rows, moved first). A chain's first row makes its head
 * first. Concurrent writers of one account take turns on the head's row lock (PostgreSQL) or the
 * writer (SQLite).
 */
export async function appendAuditRow(trx: Db, row: UnchainedAuditRow): Promise<void> {
  if (journaled(trx)) {
    await onWriter(trx, (run) => {
      while (movePending(run, PENDING_BATCH) === PENDING_BATCH) {}
      appendSqlite(run, row);
    });
    return;
  }
  const parameters = [...fieldsOf(row), row.object_id, canonicalTail(row)];
  for (let attempt = 0; attempt < 2; attempt++) {
    const appended = await trx.executeQuery<{ appended: string }>(
      CompiledQuery.raw(APPEND_POSTGRES, parameters),
    );
    if (Number(appended.rows[0]?.appended) > 0) return;
    await trx.executeQuery(CompiledQuery.raw(MAKE_HEAD('$1'), [row.account_id]));
  }
  throw new Error(`the audit chain of account ${row.account_id} has no head`);
}

const NO_HEAD = 'the audit chain has no head';

/** Chains known to have a head, per database handle (a head, once made, stays). */
const knownHeads = new WeakMap<Db, Set<number>>();

/**
 * Runs `insert` (one row into `table`, `returning` its `id` among others) and records `row`, whose
 * object is the inserted row: one statement, atomic, without a transaction of its own.
 * PostgreSQL: the insert in a CTE that appends the row to its chain. SQLite: the insert, whose
 * trigger writes the row to the journal (pendingTrigger), moved into its chain a moment later.
 * The hot path of recorded creates.
 */
export async function insertRecorded<R extends { id: number }>(
  db: Db,
  table: string,
  insert: CompiledQuery<R>,
  row: UnchainedAuditRow,
): Promise<R> {
  if (journaled(db)) {
    const result = await db.executeQuery(
      withContext(insert, { setUp: pendingTrigger(table), context: JSON.stringify(row) }),
    );
    settleSoon(db);
    return result.rows[0] as R;
  }
  const known = knownHeads.get(db) ?? new Set<number>();
  knownHeads.set(db, known);
  const k = insert.parameters.length;
  const { before, after } = canonicalAround(row);
  // Should the head be missing, the cast fails the statement, and the insert with it: nothing is
  // written unrecorded. The head is then made, and the write tried again.
  const statement = `with e as (${insert.sql}),
${appendPostgres(k, 'e.id::text', `$${k + 12} || '"' || e.id || '"' || $${k + 13}`, ', e')}
select e.*, cast(case when (select count(*) from a) = 1 then '1' else '${NO_HEAD}' end as integer) as recorded
from e`;
  registerNamedStatement(statement);
  for (let attempt = 0; ; attempt++) {
    if (!known.has(row.account_id)) {
      await db.executeQuery(CompiledQuery.raw(MAKE_HEAD('$1'), [row.account_id]));
      known.add(row.account_id);
    }
    try {
      const result = await db.executeQuery<R & { recorded?: number }>(
        CompiledQuery.raw(statement, [...insert.parameters, ...fieldsOf(row), before, after]),
      );
      const created = result.rows[0];
      if (!created) throw new Error('the insert returned no row');
      delete created.recorded;
      return created;
    } catch (err) {
      if (attempt > 0 || !String((err as Error)?.message).includes(NO_HEAD)) throw err;
      known.delete(row.account_id);
    }
  }
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
