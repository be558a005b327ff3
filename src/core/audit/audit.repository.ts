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

/**
 * PostgreSQL: one row on its own, in one statement. Locks the chain's head, moves it to the new
 * row (the hash computed by the database: SHA-256 over the previous hash, a newline and the
 * canonical form, `[account,seq,` + the tail, $13) and appends the row; $1 … $12 are the row's
 * fields in COLUMNS' order, less the chain's. Prepared once per connection.
 */
const APPEND_POSTGRES = `with h as (select seq, hash from audit_heads where account_id = $1 for update),
n as (
  update audit_heads set seq = h.seq + 1,
    hash = encode(sha256(convert_to(h.hash || E'\\n' || '[' || $1 || ',' || (h.seq + 1) || ',' || $13, 'UTF8')), 'hex')
  from h where audit_heads.account_id = $1
  returning audit_heads.seq, audit_heads.hash, h.hash as prev_hash),
a as (
  insert into audit_log (${COLUMNS})
  select $1, n.seq, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, n.prev_hash, n.hash
  from n
  returning 1)
select count(*) as appended from a`;
registerNamedStatement(APPEND_POSTGRES);

/** SQLite: the row from the head (the writer's lock is held), then the head moved to it. */
const APPEND_SQLITE = `insert into audit_log (${COLUMNS})
select ?, h.seq + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, h.hash,
  ${SQLITE_SHA256_HEX}(h.hash || char(10) || '[' || ? || ',' || (h.seq + 1) || ',' || ?)
from audit_heads h where h.account_id = ?
returning seq, hash`;
const MOVE_HEAD_SQLITE = 'update audit_heads set seq = ?, hash = ? where account_id = ?';
const MAKE_HEAD_SQLITE = `insert into audit_heads (account_id, seq, hash) values (?, 0, '${GENESIS_HASH}') on conflict (account_id) do nothing`;

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
    run(CompiledQuery.raw(MAKE_HEAD_SQLITE, [r.account_id]));
  }
  throw new Error(`the audit chain of account ${r.account_id} has no head`);
}

/**
 * The journal (migrations 0028, 0029): a recorded create's audit row is written in the insert's
 * own statement into `audit_pending`, not yet chained: the account and the row's canonical tail,
 * the object's id written in by the statement. On PostgreSQL the insert's CTE writes it; on
 * SQLite a temporary trigger of the writer's connection, reading the tail's two parts around the
 * id as the statement's context (together.ts withContext). PostgreSQL's also holds the row's
 * fields as columns. Moments later a mover (SQLite: here; PostgreSQL: a function in the database,
 * migration 0029) appends the journal's rows to their chains in order, in batches, and deletes
 * them; every other audit write of the chain moves them first (so the chain keeps the order of
 * the commits), and every reader of the log moves them before it reads (settleAuditLog). A create
 * then neither waits for its chain's head (PostgreSQL: a row lock held to the commit, so one
 * account's creates took turns) nor writes five b-trees in its commit (SQLite): the journal is one
 * b-tree appended at its end.
 */
const pendingTriggers = new Map<string, string>();
function pendingTrigger(table: string): string {
  let trigger = pendingTriggers.get(table);
  if (trigger === undefined) {
    if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
    const context = (i: number) => `${SQLITE_STATEMENT_CONTEXT}(${i})`;
    trigger = `create temp trigger if not exists vigil_audit_pending_${table} after insert on main.${table}
when ${context(0)} is not null
begin insert into main.audit_pending (account_id, record) values (${context(0)}, ${context(1)} || new.id || ${context(2)}); end`;
    pendingTriggers.set(table, trigger);
  }
  return trigger;
}

/** The row's fields a PostgreSQL journal row holds beside its text (migration 0029), in this order. */
const PENDING_FIELDS = [
  'at',
  'actor_kind',
  'actor_id',
  'actor_label',
  'address',
  'request_id',
  'action',
  'object_type',
  'object_label',
  'changes',
];

/** A row of SQLite's journal, as its mover reads it. */
interface PendingRow {
  id: number | string;
  account_id: number | string | null;
  record: string;
  object_id: string | number | null;
}

/** A journal row's chain, canonical tail, and fields (`at` … `changes`, the tail's members). */
interface Journaled {
  accountId: number;
  tail: string;
  fields: unknown[];
}

function readPending(pending: PendingRow): Journaled {
  if (pending.account_id !== null) {
    const tail = pending.record;
    return { accountId: Number(pending.account_id), tail, fields: JSON.parse(`[${tail}`) };
  }
  // Journaled before migration 0029 (SQLite): the row's fields as JSON, the object's id beside them.
  const row = JSON.parse(pending.record) as UnchainedAuditRow;
  row.object_id = pending.object_id === null ? null : String(pending.object_id);
  const tail = canonicalTail(row);
  return { accountId: Number(row.account_id), tail, fields: JSON.parse(`[${tail}`) };
}

/** Rows the mover takes in one transaction, and rows in one insert statement. */
const PENDING_BATCH = 1000;
const INSERT_ROWS = 50;

/**
 * One chain's journaled rows appended after its head: the parameters of the insert statements
 * (up to INSERT_ROWS rows each, COLUMNS' order) and the chain's new head.
 */
function chainPending(accountId: number, head: { seq: number; hash: string }, rows: Journaled[]) {
  let seq = Number(head.seq);
  let hash = head.hash;
  const inserts: unknown[][] = [];
  for (let from = 0; from < rows.length; from += INSERT_ROWS) {
    const values: unknown[] = [];
    for (const row of rows.slice(from, from + INSERT_ROWS)) {
      seq += 1;
      const prev = hash;
      hash = chainHash(prev, accountId, seq, row.tail);
      values.push(accountId, seq, ...row.fields, prev, hash);
    }
    inserts.push(values);
  }
  return { inserts, seq, hash };
}

const insertRowsStatements = new Map<number, string>();
/** SQLite: `insert into audit_log` of `rows` rows, COLUMNS' values each. */
function insertRowsStatement(rows: number): string {
  let statement = insertRowsStatements.get(rows);
  if (!statement) {
    const one = `(${Array.from({ length: 15 }, () => '?').join(', ')})`;
    statement = `insert into audit_log (${COLUMNS}) values ${Array.from({ length: rows }, () => one).join(', ')}`;
    insertRowsStatements.set(rows, statement);
  }
  return statement;
}

const READ_PENDING_SQLITE = 'select id, account_id, record, object_id from audit_pending order by id limit ?';
const CLEAR_PENDING_SQLITE = 'delete from audit_pending where id <= ?';
const READ_HEAD_SQLITE = 'select seq, hash from audit_heads where account_id = ?';

/**
 * SQLite, synchronously, the writer held: appends up to `limit` of the journal's rows to their
 * chains, in the order they were written (hashing each row's text as it is, inserting its fields
 * 50 rows to a statement), and deletes them. Returns how many it moved.
 */
function movePending(run: RunNow, limit: number): number {
  const pending = run<PendingRow>(CompiledQuery.raw(READ_PENDING_SQLITE, [limit])).rows;
  const last = pending[pending.length - 1];
  if (!last) return 0;
  const chains = new Map<number, Journaled[]>();
  for (const row of pending.map(readPending)) {
    const chain = chains.get(row.accountId) ?? [];
    chains.set(row.accountId, chain);
    chain.push(row);
  }
  for (const [accountId, rows] of chains) {
    let head = run<{ seq: number; hash: string }>(CompiledQuery.raw(READ_HEAD_SQLITE, [accountId])).rows[0];
    if (!head) {
      run(CompiledQuery.raw(MAKE_HEAD_SQLITE, [accountId]));
      head = { seq: 0, hash: GENESIS_HASH };
    }
    const moved = chainPending(accountId, head, rows);
    for (const values of moved.inserts) {
      run(CompiledQuery.raw(insertRowsStatement(values.length / 15), values));
    }
    run(CompiledQuery.raw(MOVE_HEAD_SQLITE, [moved.seq, moved.hash, accountId]));
  }
  // All of it read (nothing can be added while the writer is held): emptied whole, which SQLite
  // does without visiting each row; else up to the last row read.
  if (pending.length < limit) run(CompiledQuery.raw('delete from audit_pending', []));
  else run(CompiledQuery.raw(CLEAR_PENDING_SQLITE, [last.id]));
  return pending.length;
}

/**
 * PostgreSQL, in one statement (its own transaction, or the caller's): appends up to `limit` of
 * the chain's journaled rows to it, in order, and deletes them, in the database (migration 0029,
 * `vigil_audit_move`: the head locked first, the rows read after). Returns how many it moved.
 */
const MOVE_POSTGRES = 'select vigil_audit_move($1, $2) as moved';
registerNamedStatement(MOVE_POSTGRES);
async function movePendingPostgres(db: Db, accountId: number, limit: number): Promise<number> {
  const result = await db.executeQuery<{ moved: number }>(
    CompiledQuery.raw(MOVE_POSTGRES, [accountId, limit]),
  );
  return Number(result.rows[0]?.moved ?? 0);
}

/**
 * SQLite, in a transaction (which holds the writer): runs `work` synchronously on that writer,
 * nothing between its statements (together.ts followedBy, after a no-op).
 */
async function onWriter<T>(trx: Db, work: (run: RunNow) => T): Promise<T> {
  let result: T | undefined;
  await trx.executeQuery(
    followedBy(CompiledQuery.raw('select 1', []), (_r, run) => {
      result = work(run);
    }),
  );
  return result as T;
}

/** Runs `move` (one batch, returning how many rows it moved) until a batch is not full. */
async function inBatches(move: () => Promise<number>): Promise<void> {
  while ((await move()) === PENDING_BATCH) {}
}

/**
 * Moves every row of the journal (or of one account's chain: PostgreSQL's movers take one chain
 * at a time, SQLite's the whole journal) into its chain: what a reader of the log (a page, an
 * export, verification, retention) does first, so that it sees every change committed before it
 * asked. A read when the journal is empty.
 */
export async function settleAuditLog(db: Db, accountId?: number): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    if (!db.isTransaction) {
      const any = await db.selectFrom('audit_pending').select('id').limit(1).executeTakeFirst();
      if (!any) return;
    }
    const move = (trx: Db) => onWriter(trx, (run) => movePending(run, PENDING_BATCH));
    await inBatches(() => (db.isTransaction ? move(db) : db.transaction().execute(move)));
    return;
  }
  // PostgreSQL: each chain in a statement (a transaction) of its own, so that no mover holds two
  // chains' heads at once.
  const chains =
    accountId === undefined
      ? (
          await db
            .selectFrom('audit_pending')
            .select('account_id')
            .distinct()
            .where('account_id', 'is not', null)
            .execute()
        ).map((c) => Number(c.account_id))
      : [accountId];
  await settleChains(db, chains);
}

/** PostgreSQL: moves these chains' journaled rows, each chain in a statement of its own. */
async function settleChains(db: Db, accountIds: Iterable<number>): Promise<void> {
  for (const accountId of accountIds) {
    await inBatches(() => movePendingPostgres(db, accountId, PENDING_BATCH));
  }
}

/** How long the journal's first row waits for its batch (the mover's pause), ms. */
const SETTLE_AFTER_MS = 50;
/** Per database handle, the chains this process journaled rows of since its mover last ran. */
const settling = new WeakMap<Db, Set<number>>();

/**
 * Moves the journal's rows a moment from now, with those written meanwhile (one batch): on
 * SQLite the whole journal, on PostgreSQL the chains this process wrote to (no scan of the
 * journal for them).
 */
function settleSoon(db: Db, accountId: number): void {
  const chains = settling.get(db);
  if (chains) {
    chains.add(accountId);
    return;
  }
  settling.set(db, new Set([accountId]));
  setTimeout(() => {
    const these = settling.get(db) ?? new Set<number>();
    settling.delete(db);
    // A failure (the database gone, say) leaves the rows in the journal: the next reader or
    // audit write of the chain moves them, and reports the error to its caller.
    (dialectOf(db) === 'sqlite' ? settleAuditLog(db) : settleChains(db, these)).catch(() => {});
  }, SETTLE_AFTER_MS).unref();
}

/**
 * Appends a row to its account's chain, in the caller's transaction, after the chain's journaled
 * rows (moved first). PostgreSQL: two statements (the move makes a missing head); SQLite: two,
 * on its writer (a chain's first row makes its head first). Concurrent writers of one account take turns on the
 * head's row lock (PostgreSQL) or the writer (SQLite).
 */
export async function appendAuditRow(trx: Db, row: UnchainedAuditRow): Promise<void> {
  if (dialectOf(trx) === 'sqlite') {
    await onWriter(trx, (run) => {
      while (movePending(run, PENDING_BATCH) === PENDING_BATCH) {}
      appendSqlite(run, row);
    });
    return;
  }
  // The chain's journaled rows first, its head locked (and made when missing) by the move.
  await inBatches(() => movePendingPostgres(trx, row.account_id, PENDING_BATCH));
  const r = row;
  const parameters = [
    ...[r.account_id, r.at, r.actor_kind, r.actor_id, r.actor_label, r.address, r.request_id],
    ...[r.action, r.object_type, r.object_id, r.object_label, r.changes, canonicalTail(r)],
  ];
  const appended = await trx.executeQuery<{ appended: string }>(
    CompiledQuery.raw(APPEND_POSTGRES, parameters),
  );
  if (Number(appended.rows[0]?.appended) > 0) return;
  throw new Error(`the audit chain of account ${row.account_id} has no head`);
}

/**
 * Runs `insert` (one row into `table`, `returning` its `id` among others) and records `row`, whose
 * object is the inserted row: one statement, atomic, without a transaction of its own. The row
 * goes to the journal with the insert (PostgreSQL: in its CTE; SQLite: by its trigger,
 * pendingTrigger), and into its chain a moment later. The hot path of recorded creates.
 */
export async function insertRecorded<R extends { id: number }>(
  db: Db,
  table: string,
  insert: CompiledQuery<R>,
  row: UnchainedAuditRow,
): Promise<R> {
  const { before, after } = canonicalAround(row);
  // The canonical tail's parts around the object's id, its quotes included: `…,"` and `",…`.
  const around = [`${before}"`, `"${after}`];
  let created: R | undefined;
  if (dialectOf(db) === 'sqlite') {
    const setUp = pendingTrigger(table);
    const result = await db.executeQuery(
      withContext(insert, { setUp, context: [row.account_id, ...around] }),
    );
    created = result.rows[0] as R | undefined;
  } else {
    // With the row's fields as columns, which its mover copies (migration 0029).
    const k = insert.parameters.length;
    const p = (i: number) => `$${k + i}`;
    const statement = `with e as (${insert.sql}),
j as (
  insert into audit_pending (account_id, record, object_id, ${PENDING_FIELDS.join(', ')})
  select ${p(1)}::bigint, ${p(2)}::text || e.id || ${p(3)}::text, e.id::text, ${PENDING_FIELDS.map((_, i) => p(4 + i)).join(', ')}
  from e)
select e.* from e`;
    registerNamedStatement(statement);
    const r = row;
    const fields = [r.at, r.actor_kind, r.actor_id, r.actor_label, r.address, r.request_id, r.action];
    fields.push(r.object_type, r.object_label, r.changes);
    const parameters = [...insert.parameters, row.account_id, ...around, ...fields];
    created = (await db.executeQuery<R>(CompiledQuery.raw(statement, parameters))).rows[0];
  }
  if (!created) throw new Error('the insert returned no row');
  settleSoon(db, row.account_id);
  return created;
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
