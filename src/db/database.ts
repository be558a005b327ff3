import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

/** A database handle or an open transaction: repositories accept either. */
export type Db = Kysely<DB>;

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Which SQL dialect a handle (or transaction) speaks, for the few queries that differ. */
export function dialectOf(db: { getExecutor(): { adapter: unknown } }): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

// int8 (bigint ids, epoch-ms timestamps, count(*)) as JS numbers: every value we store is
// below 2^53. Set on a private type registry, not pg's global one.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, and SQLite's parse and plan cost more than most of our
 * queries take to run: keep the prepared statements, keyed by their SQL text (values travel as
 * parameters, so the texts are few), least recently used dropped first.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL + synchronous=NORMAL: a committed transaction survives the process being killed
  // (kill -9); only an operating-system crash or power loss can lose the last commits.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.PG_POOL_MAX) || 10,
    connectionTimeoutMillis: 5000,
    types: pgTypes,
  });
  // An idle client losing its connection (server restart) must not crash the process;
  // the pool replaces it and requests in the meantime answer 503.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Opens the database named by a `sqlite:PATH` or `postgres://…` URL. */
export function openDatabase(url: string): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length) || ':memory:');
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}
