import { CompiledQuery, type QueryResult } from 'kysely';
import { type Db, dialectOf } from '../db/database.js';
import { registerNamedStatement } from '../db/postgres-pool.js';
import { type CommitBatch, followedBy, withCommitWork } from '../db/together.js';
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

const MOVE_HEAD_SQLITE = 'update audit_heads set seq = ?, hash = ? where account_id = ?';
const MAKE_HEAD_SQLITE = `insert into audit_heads (account_id, seq, hash) values (?, 0, '${GENESIS_HASH}') on conflict (account_id) do nothing`;

type RunNow = <R>(query: CompiledQuery<R>) => QueryResult<R>;

/**
 * The journal (migrations 0028, 0029), PostgreSQL's: a recorded create's audit row is written in
 * the insert's own statement (its CTE) into `audit_pending`, not yet chained: the account, the
 * row's canonical tail (the object's id written in by the statement) and its fields as columns.
 * Moments later a mover (a function in the database, migration 0029) appends the journal's rows
 * to their chains in order, in batches, and deletes them; every other audit write of the chain
 * moves them first (so the chain keeps the order of the commits), and every reader of the log
 * moves them before it reads (settleAuditLog). A create then does not wait for its chain's head,
 * a row lock held to the commit, under which one account's creates took turns.
 *
 * SQLite has one writer, and commits single writes in groups (sqlite-driver.ts): the rows of a
 * group's recorded creates that succeeded are one journal row, written just before the group
 * commits (journaledAtCommit), a line each. The service's mover, moments later, hashes each
 * line as it is and appends the rows 50 to a statement, SQLite reading their columns from the
 * lines. A create then writes one b-tree's end per commit, not five (the log and its indexes).
 * Rows an earlier build journaled (one a row) are moved alike.
 */

/**
 * SQLite, synchronously, the writer held: appends `rows` to their chains, in order, after the
 * journal's rows (moved first).
 */
function appendSqlite(run: RunNow, rows: readonly UnchainedAuditRow[]): void {
  while (movePending(run)) {}
  const chains = new Map<number, Journaled[]>();
  for (const row of rows) addToChain(chains, journaled(row.account_id, canonicalTail(row)));
  appendChains(run, chains);
}

/**
 * SQLite: the audit rows of a commit's recorded creates, journaled in that commit as one row
 * (together.ts withCommitWork): a line a row, its canonical form less `seq`, `[account_id,` and
 * the tail.
 */
const journaledAtCommit: CommitBatch<UnchainedAuditRow> = {
  run: (rows, run) => {
    const lines = rows.map((row) => journaled(row.account_id, canonicalTail(row)).line);
    run(CompiledQuery.raw(JOURNAL_SQLITE, [lines.join('\n')]));
  },
};
const JOURNAL_SQLITE = 'insert into audit_pending (record) values (?)';

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

/** A journaled row: its chain, and its canonical form less `seq`: `[account_id,` and the tail. */
interface Journaled {
  accountId: number;
  line: string;
}

function journaled(accountId: number, tail: string): Journaled {
  return { accountId, line: `[${accountId},${tail}` };
}

/** Adds a journaled row to its chain's list, in order (a chain's first row starts the list). */
function addToChain(chains: Map<number, Journaled[]>, row: Journaled): void {
  const chain = chains.get(row.accountId);
  if (chain) chain.push(row);
  else chains.set(row.accountId, [row]);
}

function readPending(pending: PendingRow): Journaled[] {
  const { record } = pending;
  // One row (PostgreSQL; SQLite before this build): the account, the canonical tail.
  if (pending.account_id !== null) return [journaled(Number(pending.account_id), record)];
  if (record.startsWith('{')) {
    // Journaled before migration 0029 (SQLite): the row's fields as JSON, the object's id beside them.
    const row = JSON.parse(record) as UnchainedAuditRow;
    row.object_id = pending.object_id === null ? null : String(pending.object_id);
    return [journaled(Number(row.account_id), canonicalTail(row))];
  }
  // A commit's rows (SQLite, journaledAtCommit): a line each. JSON text holds no raw newline.
  return record.split('\n').map((line) => ({ accountId: Number(line.slice(1, line.indexOf(','))), line }));
}

/** Journal rows a mover reads at most in one transaction (PostgreSQL's moves as many). */
const PENDING_BATCH = 1000;
/** Audit rows SQLite's mover appends at most in one transaction (about 10 ms of work). */
const MOVE_LINES = 1000;
/** Audit rows in one of SQLite's insert statements. */
const INSERT_ROWS = 50;

/**
 * One chain's journaled rows appended after its head: the parameters of the insert statements
 * (up to INSERT_ROWS rows each: account, seq, line, previous hash, hash) and the chain's new head.
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
      hash = chainHash(prev, accountId, seq, row.line.slice(row.line.indexOf(',') + 1));
      values.push(accountId, seq, row.line, prev, hash);
    }
    inserts.push(values);
  }
  return { inserts, seq, hash };
}

const insertRowsStatements = new Map<number, string>();
/**
 * SQLite: `insert into audit_log` of `rows` rows, each from five values (chainPending): the
 * row's fields are read by SQLite from its line (`->> i`, the line parsed once), not bound one
 * by one.
 */
function insertRowsStatement(rows: number): string {
  let statement = insertRowsStatements.get(rows);
  if (!statement) {
    const fields = Array.from({ length: 11 }, (_, i) => `column3 ->> ${i + 1}`).join(', ');
    const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ');
    statement = `insert into audit_log (${COLUMNS})
select column1, column2, ${fields}, column4, column5 from (values ${values})`;
    insertRowsStatements.set(rows, statement);
  }
  return statement;
}

/**
 * SQLite, the writer held: appends each chain's rows after its head (made when missing), 50 rows
 * to a statement, and moves the head to the last.
 */
function appendChains(run: RunNow, chains: Map<number, Journaled[]>): void {
  for (const [accountId, rows] of chains) {
    let head = run<{ seq: number; hash: string }>(CompiledQuery.raw(READ_HEAD_SQLITE, [accountId])).rows[0];
    if (!head) {
      run(CompiledQuery.raw(MAKE_HEAD_SQLITE, [accountId]));
      head = { seq: 0, hash: GENESIS_HASH };
    }
    const moved = chainPending(accountId, head, rows);
    for (const values of moved.inserts) {
      run(CompiledQuery.raw(insertRowsStatement(values.length / 5), values));
    }
    run(CompiledQuery.raw(MOVE_HEAD_SQLITE, [moved.seq, moved.hash, accountId]));
  }
}

const READ_PENDING_SQLITE = 'select id, account_id, record, object_id from audit_pending order by id limit ?';
const CLEAR_PENDING_SQLITE = 'delete from audit_pending where id <= ?';
const READ_HEAD_SQLITE = 'select seq, hash from audit_heads where account_id = ?';

/**
 * SQLite, synchronously, the writer held: appends the journal's first rows (up to PENDING_BATCH
 * of them, and only as many as hold MOVE_LINES audit rows: a commit's row holds several) to their
 * chains, in the order they were written, and deletes them. Returns whether it left rows behind.
 */
function movePending(run: RunNow): boolean {
  const pending = run<PendingRow>(CompiledQuery.raw(READ_PENDING_SQLITE, [PENDING_BATCH])).rows;
  const chains = new Map<number, Journaled[]>();
  let taken = 0;
  let lines = 0;
  for (const row of pending) {
    if (lines >= MOVE_LINES) break;
    taken += 1;
    for (const line of readPending(row)) {
      lines += 1;
      addToChain(chains, line);
    }
  }
  const last = pending[taken - 1];
  if (!last) return false;
  appendChains(run, chains);
  // All of it read (nothing can be added while the writer is held): emptied whole, which SQLite
  // does without visiting each row; else up to the last row moved.
  if (taken === pending.length && pending.length < PENDING_BATCH) {
    run(CompiledQuery.raw('delete from audit_pending', []));
    return false;
  }
  run(CompiledQuery.raw(CLEAR_PENDING_SQLITE, [last.id]));
  return true;
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
    const move = (trx: Db) => onWriter(trx, movePending);
    while (await (db.isTransaction ? move(db) : db.transaction().execute(move))) {}
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
 * rows (moved first). PostgreSQL: two statements (the move makes a missing head); SQLite: on its
 * writer (appendSqlite). Concurrent writers of one account take turns on the head's row lock
 * (PostgreSQL) or the writer (SQLite).
 */
export async function appendAuditRow(trx: Db, row: UnchainedAuditRow): Promise<void> {
  if (dialectOf(trx) === 'sqlite') {
    await onWriter(trx, (run) => appendSqlite(run, [row]));
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
 * Runs `insert` (one row into the table, `returning` its `id` among others) and records `row`,
 * whose object is the inserted row, atomically, without a transaction of its own. PostgreSQL: one
 * statement, the row going to the journal in its CTE and into its chain a moment later; SQLite:
 * the row journaled in the insert's commit (journaledAtCommit). The hot path of recorded creates.
 */
export async function insertRecorded<R extends { id: number }>(
  db: Db,
  insert: CompiledQuery<R>,
  row: UnchainedAuditRow,
): Promise<R> {
  if (dialectOf(db) === 'sqlite') {
    const result = await db.executeQuery(
      withCommitWork(insert, {
        batch: journaledAtCommit,
        item: (inserted) => {
          const id = (inserted.rows[0] as { id?: unknown } | undefined)?.id;
          return id === undefined ? undefined : { ...row, object_id: String(id) };
        },
      }),
    );
    const created = result.rows[0] as R | undefined;
    if (!created) throw new Error('the insert returned no row');
    settleSoon(db, row.account_id);
    return created;
  }
  const { before, after } = canonicalAround(row);
  // The canonical tail's parts around the object's id, its quotes included: `…,"` and `",…`.
  const around = [`${before}"`, `"${after}`];
  const statement = journaledInsertPostgres(insert);
  const r = row;
  const fields = [r.at, r.actor_kind, r.actor_id, r.actor_label, r.address, r.request_id, r.action];
  fields.push(r.object_type, r.object_label, r.changes);
  const parameters = [...insert.parameters, row.account_id, ...around, ...fields];
  const created = (await db.executeQuery<R>(CompiledQuery.raw(statement, parameters))).rows[0];
  if (!created) throw new Error('the insert returned no row');
  settleSoon(db, row.account_id);
  return created;
}

/** Per insert's text, the statement that journals its audit row (insertRecorded); a few texts. */
const journaledInserts = new Map<string, string>();

/**
 * PostgreSQL: `insert` with its audit row journaled in its CTE, the row's fields as columns,
 * which its mover copies (migration 0029); the parameters after the insert's: the account, the
 * canonical tail's parts around the object's id, PENDING_FIELDS. Registered as a named statement
 * when first made.
 */
function journaledInsertPostgres(insert: CompiledQuery): string {
  let statement = journaledInserts.get(insert.sql);
  if (statement) return statement;
  const k = insert.parameters.length;
  const p = (i: number) => `$${k + i}`;
  statement = `with e as (${insert.sql}),
j as (
  insert into audit_pending (account_id, record, object_id, ${PENDING_FIELDS.join(', ')})
  select ${p(1)}::bigint, ${p(2)}::text || e.id || ${p(3)}::text, e.id::text, ${PENDING_FIELDS.map((_, i) => p(4 + i)).join(', ')}
  from e)
select e.* from e`;
  registerNamedStatement(statement);
  // A safety net: the texts are few (values are parameters).
  if (journaledInserts.size >= 100) journaledInserts.clear();
  journaledInserts.set(insert.sql, statement);
  return statement;
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
