import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type Dialect as KyselyDialect,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type TransactionSettings,
} from 'kysely';
import { type Connection, Lock, openConnection, ReaderPool, retryWhileBusy } from './sqlite-connections.js';
import {
  AT_COMMIT,
  type AtCommitQuery,
  type CommitBatch,
  type CommitWork,
  FOLLOWED_BY,
  type FollowedQuery,
  type Followers,
} from './together.js';

/**
 * SQLite for a server: better-sqlite3 runs every statement synchronously on the event loop, and
 * one connection serializes everything behind whatever transaction holds it. So:
 *
 * - one **writer** connection, behind an async lock, runs write transactions (`begin immediate`,
 *   so the write lock is taken at once and never upgraded) and single write statements;
 * - **readers** (WAL lets them read while the writer writes) run single reads on a shared
 *   connection, and read-only transactions (snapshots) each on a connection of their own;
 * - waits are bounded and never block the event loop: the writer's lock is awaited, and when
 *   another process holds SQLite's write lock (`SQLITE_BUSY`) the attempt is retried after
 *   short sleeps, up to `waitMs`, then fails as `SQLITE_BUSY` (the API answers 503);
 * - single write statements commit in groups (groupCommit), and so do write transactions: each
 *   runs in a savepoint of one open SQLite transaction, and waits for that transaction's commit,
 *   which comes as soon as no other transaction holds the writer (commitGroup).
 */

export interface SqliteOptions {
  path: string;
  /** The longest a statement or transaction waits for the write lock (ours or another process's). */
  waitMs: number;
  /** Connections kept for read-only transactions (snapshots). */
  snapshotReaders?: number;
}

/** The savepoint each write transaction runs in, inside the group's SQLite transaction. */
const TX = 'vigil_tx';

/**
 * A group's transaction open this long commits when its current transaction is done, not when
 * the writer is next free. Short transactions still share commits, but one that took longer (a
 * 100,000-member replacement: seconds) is answered at once instead of waiting for the next
 * writer's whole run, holding its answer meanwhile (four such PUTs peaked 15–25 MiB higher).
 */
const GROUP_WINDOW_MS = 10;

/** Statements that change rows, and can share a transaction with others (group commit). */
const DML = /^\s*(insert|update|delete)\b/i;
const PRAGMA = /^\s*pragma\b/i;

interface PendingWrite {
  sql: string;
  parameters: readonly unknown[];
  /** Statements that go with this one, in its savepoint (together.ts). */
  followers: Followers | undefined;
  /** The work its result adds to its commit's (together.ts withCommitWork). */
  work: CommitWork<unknown> | undefined;
  resolve: (result: QueryResult<unknown>) => void;
  reject: (err: unknown) => void;
}

/**
 * What a Kysely "connection" is here: a session that picks the real connection per statement
 * (outside a transaction) or holds one for the length of a transaction.
 */
class Session implements DatabaseConnection {
  /** The connection a transaction holds, and how it was taken. */
  transaction: { connection: Connection; mode: 'write' | 'read' } | undefined;
  constructor(private readonly driver: SqliteServerDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; Kysely's interface requires it.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported; read in pages');
  }
}

export class SqliteServerDriver implements Driver {
  private writer!: Connection;
  /** Single reads outside a transaction: synchronous, so one shared connection never interleaves. */
  private reader!: Connection;
  private snapshots!: ReaderPool;
  private readonly writeLock = new Lock();
  /** Whether a statement only reads, by SQL text. */
  private readonly readonly = new Map<string, boolean>();
  /** Single write statements waiting for the next group commit. */
  private pending: PendingWrite[] = [];
  private commitScheduled = false;
  /** Write transactions done (their savepoint released) that wait for the open transaction's commit. */
  private committers: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushScheduled = false;
  /** When the group's open transaction began (performance.now()). */
  private groupOpenedAt = 0;
  private readonly memory: boolean;

  constructor(private readonly options: SqliteOptions) {
    this.memory = options.path === ':memory:';
  }

  async init(): Promise<void> {
    this.writer = openConnection(this.options.path, 'writer');
    // An in-memory database exists on one connection only: everything goes through the writer.
    this.reader = this.memory ? this.writer : openConnection(this.options.path, 'reader');
    this.snapshots = new ReaderPool(
      () => openConnection(this.options.path, 'reader'),
      this.memory ? 0 : (this.options.snapshotReaders ?? 4),
    );
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const session = connection as Session;
    if (settings.accessMode === 'read only' && !this.memory) {
      const reader = await this.snapshots.acquire(this.options.waitMs);
      reader.run('begin', []);
      session.transaction = { connection: reader, mode: 'read' };
      return;
    }
    const deadline = Date.now() + this.options.waitMs;
    await this.writeLock.acquire(this.options.waitMs);
    try {
      // The group's transaction, if one is open, holds SQLite's write lock already.
      if (!this.writer.sqlite.inTransaction) {
        await retryWhileBusy(deadline, () => this.writer.run('begin immediate', []));
        this.groupOpenedAt = performance.now();
      }
      this.writer.run(`savepoint ${TX}`, []);
    } catch (err) {
      this.releaseWriter();
      throw err;
    }
    session.transaction = { connection: this.writer, mode: 'write' };
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const session = connection as Session;
    const held = session.transaction;
    if (!held) return;
    session.transaction = undefined;
    if (held.mode === 'read') {
      try {
        held.connection.run('commit', []);
      } finally {
        this.snapshots.release(held.connection);
      }
      return;
    }
    // Done: its changes join the group's transaction, and it is answered once that commits.
    let committed: Promise<void>;
    try {
      // A failed statement may have ended the whole transaction (SQLite rolls back on some errors).
      if (!this.writer.sqlite.inTransaction) throw new Error('the transaction was rolled back by SQLite');
      this.writer.run(`release ${TX}`, []);
      committed = new Promise((resolve, reject) => this.committers.push({ resolve, reject }));
      if (performance.now() - this.groupOpenedAt >= GROUP_WINDOW_MS) this.commitGroup();
    } finally {
      this.releaseWriter();
    }
    await committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.endTransaction(connection as Session);
  }

  /** Rolls a transaction back: its savepoint only (the group's others stand), or its snapshot. */
  private endTransaction(session: Session): void {
    const held = session.transaction;
    if (!held) return;
    session.transaction = undefined;
    try {
      if (held.connection.sqlite.inTransaction) {
        if (held.mode === 'write') {
          held.connection.run(`rollback to ${TX}`, []);
          held.connection.run(`release ${TX}`, []);
        } else held.connection.run('rollback', []);
      }
    } finally {
      if (held.mode === 'write') this.releaseWriter();
      else this.snapshots.release(held.connection);
    }
  }

  /** Releases the writer; the group's transaction, if open, commits once nobody else wants the writer. */
  private releaseWriter(): void {
    this.writeLock.release();
    if (this.writer.sqlite.inTransaction && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    }
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    try {
      await this.writeLock.acquire(this.options.waitMs);
    } catch {
      // Someone held the writer all that time: the next release schedules the commit again.
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
      return;
    }
    try {
      this.commitGroup();
    } finally {
      this.writeLock.release();
    }
  }

  /**
   * Commits the group's transaction (the writer's lock is held) and answers the transactions
   * waiting for it; when SQLite ended it on an error, or the commit fails, they fail too, and
   * the error is returned.
   */
  private commitGroup(): unknown {
    const waiting = this.committers;
    this.committers = [];
    let failure: unknown;
    if (!this.writer.sqlite.inTransaction) failure = new Error('the transaction was rolled back by SQLite');
    else {
      try {
        this.writer.run('commit', []);
      } catch (err) {
        failure = err;
        if (this.writer.sqlite.inTransaction) this.writer.run('rollback', []);
      }
    }
    for (const c of waiting) {
      if (failure) c.reject(failure);
      else c.resolve();
    }
    return failure;
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    (connection as Session).transaction?.connection.run(`savepoint "${name}"`, []);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    (connection as Session).transaction?.connection.run(`rollback to "${name}"`, []);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    (connection as Session).transaction?.connection.run(`release "${name}"`, []);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction Kysely could not end (it always commits or rolls back) must not keep its lock.
    const session = connection as Session;
    if (session.transaction) this.endTransaction(session);
  }

  async destroy(): Promise<void> {
    this.snapshots?.close();
    if (this.reader !== this.writer) this.reader?.sqlite.close();
    this.writer?.sqlite.close();
  }

  /** Runs one statement where it belongs: its transaction's connection, a reader, or the writer. */
  async execute(session: Session, query: CompiledQuery): Promise<QueryResult<unknown>> {
    const { sql, parameters } = query;
    const followers = (query as FollowedQuery<unknown>)[FOLLOWED_BY];
    const work = (query as AtCommitQuery<unknown>)[AT_COMMIT];
    if (session.transaction) {
      const { connection } = session.transaction;
      const result = runTogether(connection, sql, parameters, followers);
      // Inside a transaction the commit's work is done at once, in it.
      if (work) runCommitWork(connection, [[work, result]]);
      return result;
    }
    if (this.isReadOnly(sql)) return this.reader.run(sql, parameters);
    if (DML.test(sql)) {
      return new Promise((resolve, reject) => {
        this.pending.push({ sql, parameters, followers, work, resolve, reject });
        if (!this.commitScheduled) {
          this.commitScheduled = true;
          setImmediate(() => void this.groupCommit());
        }
      });
    }
    const deadline = Date.now() + this.options.waitMs;
    await this.writeLock.acquire(this.options.waitMs);
    try {
      // A statement of its own (a pragma, DDL) runs after the group's transaction, never inside it.
      if (this.writer.sqlite.inTransaction) this.commitGroup();
      return await retryWhileBusy(deadline, () => this.writer.run(sql, parameters));
    } finally {
      this.writeLock.release();
    }
  }

  /**
   * Group commit: the single write statements of one turn of the event loop (ten clients each
   * creating an employee, say) commit together in one transaction, each inside a savepoint of
   * its own so that one failing (a duplicate address) leaves the others be. Each is answered
   * only once the commit is done. A commit writes every page it changed to the WAL, and most of
   * a single insert's cost is that write: eight inserts in one commit cost about half as much each.
   */
  private async groupCommit(): Promise<void> {
    this.commitScheduled = false;
    const writes = this.pending;
    this.pending = [];
    const deadline = Date.now() + this.options.waitMs;
    try {
      await this.writeLock.acquire(this.options.waitMs);
    } catch (err) {
      for (const write of writes) write.reject(err);
      return;
    }
    try {
      const open = this.writer.sqlite.inTransaction;
      if (writes.length === 1 && !open && !writes[0]?.followers && !writes[0]?.work) {
        // Alone: one statement, committed by itself.
        const [write] = writes as [PendingWrite];
        write.resolve(
          await retryWhileBusy(deadline, () =>
            runTogether(this.writer, write.sql, write.parameters, undefined),
          ),
        );
        return;
      }
      if (!open) await retryWhileBusy(deadline, () => this.writer.run('begin immediate', []));
      const outcomes = writes.map((write) => this.runInSavepoint(write));
      // A failure that ended the whole transaction (disk full, I/O error) took every write with it.
      const ended = outcomes.find((o) => 'error' in o && !this.writer.sqlite.inTransaction);
      if (ended && 'error' in ended) throw ended.error;
      // The work the writes that succeeded bring for their commit, once per batch; when it
      // fails, the whole transaction is rolled back (below) and every write fails with it.
      runCommitWork(
        this.writer,
        writes.flatMap((write, i) => {
          const outcome = outcomes[i];
          return write.work && outcome && 'result' in outcome ? [[write.work, outcome.result] as const] : [];
        }),
      );
      // The writes commit with the transactions of the group waiting for it.
      const failure = this.commitGroup();
      outcomes.forEach((outcome, i) => {
        const write = writes[i] as PendingWrite;
        if ('error' in outcome) write.reject(outcome.error);
        else if (failure) write.reject(failure);
        else write.resolve(outcome.result);
      });
    } catch (err) {
      if (this.writer.sqlite.inTransaction) this.writer.run('rollback', []);
      for (const write of writes) write.reject(err);
      const waiting = this.committers;
      this.committers = [];
      for (const c of waiting) c.reject(err);
    } finally {
      this.writeLock.release();
    }
  }

  private runInSavepoint(write: PendingWrite): { result: QueryResult<unknown> } | { error: unknown } {
    if (!this.writer.sqlite.inTransaction) return { error: new Error('transaction ended') };
    this.writer.run('savepoint w', []);
    try {
      const result = runTogether(this.writer, write.sql, write.parameters, write.followers);
      this.writer.run('release w', []);
      return { result };
    } catch (error) {
      if (this.writer.sqlite.inTransaction) {
        this.writer.run('rollback to w', []);
        this.writer.run('release w', []);
      }
      return { error };
    }
  }

  private isReadOnly(sql: string): boolean {
    let readonly = this.readonly.get(sql);
    if (readonly === undefined) {
      // SQLite calls every PRAGMA read-only, even one that sets the connection's state
      // (`foreign_keys = off`, migration 0007): pragmas belong to the writer, where migrations
      // and transactions run, not to a reader.
      readonly = !PRAGMA.test(sql) && this.writer.prepare(sql).readonly;
      if (this.readonly.size > 2000) this.readonly.clear();
      this.readonly.set(sql, readonly);
    }
    return readonly;
  }
}

/** A statement and those that follow it (together.ts), synchronously: nothing runs between them. */
function runTogether(
  connection: Connection,
  sql: string,
  parameters: readonly unknown[],
  followers: Followers | undefined,
): QueryResult<unknown> {
  const result = connection.run(sql, parameters);
  followers?.(result, (query) => connection.run(query.sql, query.parameters) as never);
  return result;
}

/**
 * The commit's work of these writes (together.ts withCommitWork): each batch run once, with the
 * items of its writes in their order, synchronously on `connection`, in its open transaction.
 */
function runCommitWork(
  connection: Connection,
  done: ReadonlyArray<readonly [CommitWork<unknown>, QueryResult<unknown>]>,
): void {
  if (done.length === 0) return;
  const batches = new Map<CommitBatch<unknown>, unknown[]>();
  for (const [work, result] of done) {
    const item = work.item(result);
    if (item === undefined) continue;
    const items = batches.get(work.batch);
    if (items) items.push(item);
    else batches.set(work.batch, [item]);
  }
  for (const [batch, items] of batches) {
    batch.run(items, (query) => connection.run(query.sql, query.parameters) as never);
  }
}

/** Kysely's SQLite dialect, with the driver above. */
export class SqliteServerDialect implements KyselyDialect {
  constructor(private readonly options: SqliteOptions) {}
  createDriver(): Driver {
    return new SqliteServerDriver(this.options);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector takes any database.
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
