import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import { redactPassword } from '../config-values.js';
import { createPostgresPool } from './postgres-pool.js';
import type { DB } from './schema.js';
import { SqliteServerDialect } from './sqlite-driver.js';

/** A database handle or an open transaction: repositories accept either. */
export type Db = Kysely<DB>;

export type Dialect = 'sqlite' | 'postgres';

export interface PoolStats {
  /** Connections open, idle, and requests waiting for one (PostgreSQL). */
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Db;
  dialect: Dialect;
  /** Whether the database answers a trivial query within `timeoutMs` (readiness); never waits longer. */
  ping(timeoutMs: number): Promise<boolean>;
  /** The connection pool's figures (PostgreSQL; SQLite has no pool). */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
}

/** Which SQL dialect a handle (or transaction) speaks, for the few queries that differ. */
export function dialectOf(db: { getExecutor(): { adapter: unknown } }): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export interface DatabaseOptions {
  /** The longest a request waits for a connection or for SQLite's write lock (default 2 s). */
  waitMs?: number;
  /** The longest one statement may run on PostgreSQL (default 5 s; 0: no limit, for migrations). */
  statementTimeoutMs?: number;
  /** PostgreSQL connections at most (default 10; the server's is `PG_POOL_MAX`). */
  poolMax?: number;
  /** Told about a PostgreSQL connection that failed (it is replaced; the process carries on). */
  onConnectionError?: (err: Error) => void;
}

export const DEFAULT_DB_WAIT_MS = 2000;
export const DEFAULT_DB_STATEMENT_TIMEOUT_MS = 5000;

/** Resolves true when `probe` succeeds within `timeoutMs`, false on failure or timeout. */
function within(timeoutMs: number, probe: () => Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    probe().then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

function openSqlite(path: string, options: DatabaseOptions): Database {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new Kysely<DB>({
    dialect: new SqliteServerDialect({ path, waitMs: options.waitMs ?? DEFAULT_DB_WAIT_MS }),
  });
  return {
    db,
    dialect: 'sqlite',
    ping: (timeoutMs) => within(timeoutMs, () => sql`select 1`.execute(db)),
    poolStats: () => undefined,
    close: () => db.destroy(),
  };
}

function openPostgres(url: string, options: DatabaseOptions): Database {
  const onConnectionError = options.onConnectionError ?? (() => {});
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_DB_STATEMENT_TIMEOUT_MS;
  const main = createPostgresPool({
    url,
    max: options.poolMax ?? 10,
    waitMs: options.waitMs ?? DEFAULT_DB_WAIT_MS,
    statementTimeoutMs,
    onConnectionError,
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: main }) });
  // Readiness asks on a connection of its own, so a pool busy with stuck requests cannot make
  // it wait, and it never waits for more than its own deadline.
  let probe: Db | undefined;
  const probeDb = () => {
    probe ??= new Kysely<DB>({
      dialect: new PostgresDialect({
        pool: createPostgresPool({ url, max: 1, waitMs: 900, statementTimeoutMs: 400, onConnectionError }),
      }),
    });
    return probe;
  };
  return {
    db,
    dialect: 'postgres',
    ping: (timeoutMs) => within(timeoutMs, () => sql`select 1`.execute(probeDb())),
    poolStats: () => ({
      total: main.pool.totalCount,
      idle: main.pool.idleCount,
      waiting: main.pool.waitingCount,
    }),
    close: async () => {
      await probe?.destroy();
      await db.destroy();
    },
  };
}

/** The file a `sqlite:PATH` URL names, absolute (`:memory:` when none); undefined for PostgreSQL. */
export function sqliteFile(url: string): string | undefined {
  if (!url.startsWith('sqlite:')) return undefined;
  const path = url.slice('sqlite:'.length) || ':memory:';
  return path === ':memory:' ? path : resolve(path);
}

/** A database as shown to people: SQLite by its absolute path, PostgreSQL without its password. */
export function describeDatabase(url: string): string {
  const file = sqliteFile(url);
  return file === undefined ? redactPassword(url) : `sqlite:${file}`;
}

/** Opens the database named by a `sqlite:PATH` or `postgres://…` URL. */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length) || ':memory:', options);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}
