import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import type { QueryResult } from 'kysely';
import { nameKey, SQLITE_NAME_KEY } from './name-key.js';

/**
 * The SQLite driver's parts (sqlite-driver.ts): connections with their prepared statements, the
 * writer's lock, the pool of snapshot readers, and retries while another process writes.
 */

type Statement = SQLite.Statement<unknown[], unknown>;

/** A connection with its prepared statements, kept by SQL text (values travel as parameters). */
export class Connection {
  private readonly statements = new Map<string, Statement>();
  constructor(
    readonly sqlite: SQLite.Database,
    private readonly cacheSize = 500,
  ) {}

  prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) return statement;
    statement = this.sqlite.prepare(sql);
    this.statements.set(sql, statement);
    // Least recently prepared first out: the texts are few (values are parameters), so this is a safety net.
    if (this.statements.size > this.cacheSize)
      this.statements.delete(this.statements.keys().next().value as string);
    return statement;
  }

  run(sql: string, parameters: readonly unknown[]): QueryResult<unknown> {
    const statement = this.prepare(sql);
    // `.all()` also for `insert … returning`: `.get()` would leave the statement open and keep the
    // WAL from being reset.
    if (statement.reader) return { rows: statement.all(parameters as unknown[]) as unknown[] };
    const { changes, lastInsertRowid } = statement.run(parameters as unknown[]);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }
}

function busyError(message: string): Error {
  return Object.assign(new Error(message), { code: 'SQLITE_BUSY' });
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

/** Runs `attempt` until it does not fail with SQLITE_BUSY or `deadline` passes (sleeping, not spinning). */
export async function retryWhileBusy<T>(deadline: number, attempt: () => T): Promise<T> {
  for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
    try {
      return attempt();
    } catch (err) {
      if (!isBusy(err) || Date.now() + pause > deadline) throw err;
    }
    await sleep(pause);
  }
}

/** An async lock whose waits end in a SQLITE_BUSY error after `waitMs`. */
export class Lock {
  private held = false;
  private readonly waiters: Array<{ grant: () => void }> = [];

  async acquire(waitMs: number): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(busyError(`database is busy: no write lock within ${waitMs} ms`));
      }, waitMs);
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.held = false;
  }
}

/** A pool of connections lent out whole (read-only transactions), with bounded waits. */
export class ReaderPool {
  private readonly idle: Connection[] = [];
  private readonly waiters: Array<(c: Connection) => void> = [];
  constructor(
    private readonly open: () => Connection,
    private size: number,
  ) {}

  async acquire(waitMs: number): Promise<Connection> {
    const free = this.idle.pop();
    if (free) return free;
    if (this.size > 0) {
      this.size--;
      return this.open();
    }
    return new Promise((resolve, reject) => {
      const waiter = (c: Connection) => {
        clearTimeout(timer);
        resolve(c);
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(busyError(`database is busy: no reader within ${waitMs} ms`));
      }, waitMs);
      this.waiters.push(waiter);
    });
  }

  release(connection: Connection): void {
    const next = this.waiters.shift();
    if (next) next(connection);
    else this.idle.push(connection);
  }

  close(): void {
    for (const c of this.idle.splice(0)) c.sqlite.close();
  }
}

/** Each connection's page cache, KiB. */
export const CACHE_KIB = 65_536;

export function openConnection(path: string, role: 'writer' | 'reader'): Connection {
  const sqlite = new SQLite(path);
  // WAL + synchronous=NORMAL: a committed transaction survives the process being killed
  // (kill -9); only an operating-system crash or power loss can lose the last commits.
  if (role === 'writer') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // The writer never sleeps inside SQLite (that would block the event loop): a busy write lock
  // is retried asynchronously. Readers in WAL mode wait only in rare recoveries, briefly.
  sqlite.pragma(`busy_timeout = ${role === 'writer' ? 0 : 50}`);
  // A page cache of up to 64 MiB per connection (SQLite's default is 2 MiB), filled only as pages
  // are read. With the default, the random entries of a large index (a campaign's 100,000 tokens,
  // the messages' due times) fall out between two uses, and every look-up or insert rereads its
  // pages from the WAL or the file: launches and tracking hits cost two to three times as much.
  sqlite.pragma(`cache_size = -${CACHE_KIB}`);
  // Names sorted as people read them (collation.ts): SQLite compares bytes only.
  sqlite.function(SQLITE_NAME_KEY, { deterministic: true }, nameKey);
  return new Connection(sqlite);
}
