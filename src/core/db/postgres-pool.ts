import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';

/**
 * pg's pool, made safe for a server that must outlive its database:
 *
 * - every connection has an error listener for its whole life: pg emits `error` on a client
 *   whose socket dies, and a checked-out client has none of the pool's, which crashed the process;
 * - every wait is bounded: a free connection (`waitMs`), a statement on the server
 *   (`statement_timeout`), an answer on the wire (a frozen network or server: the client gives up
 *   shortly after the server would have), an idle transaction;
 * - a connection that lost its server or timed out on the wire refuses its next statements at
 *   once (a transaction's rollback), and goes back to the pool as broken (closed), never to be
 *   handed to the next request with a query still stuck on it;
 * - statements registered as hot (`prepared()` queries) run as named prepared statements, parsed
 *   and planned once per connection.
 */

export interface PostgresOptions {
  url: string;
  max: number;
  /** The longest a request waits for a connection (or to open one). */
  waitMs: number;
  /** The longest one statement may run (0: no limit, for migrations). */
  statementTimeoutMs: number;
  /** Reports a connection's error once (the pool replaces the connection). */
  onConnectionError: (err: Error) => void;
}

// int8 (bigint ids, epoch-ms timestamps, count(*)) as JS numbers: every value we store is
// below 2^53. Set on a private type registry, not pg's global one.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** SQL texts that run as named prepared statements (their names derive from the text). */
const namedStatements = new Map<string, string>();

/** Marks a statement as hot: on PostgreSQL it is prepared once per connection and reused. */
export function registerNamedStatement(sql: string): void {
  if (!namedStatements.has(sql)) {
    namedStatements.set(sql, `v_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`);
  }
}

/** A pooled client as Kysely sees it: remembers whether its connection can be trusted again. */
class Lease implements PostgresPoolClient {
  broken: Error | undefined;
  constructor(readonly client: pg.PoolClient) {}

  // biome-ignore lint/suspicious/noExplicitAny: Kysely calls this with SQL and parameters or a cursor.
  query(sqlOrCursor: any, parameters?: ReadonlyArray<unknown>): any {
    if (typeof sqlOrCursor !== 'string') return this.client.query(sqlOrCursor);
    // A connection that lost its server or timed out on the wire answers nothing more: the next
    // statement (a transaction's rollback) fails at once instead of queueing behind the stuck one.
    if (this.broken) return Promise.reject(this.broken);
    const name = namedStatements.get(sqlOrCursor);
    const values = parameters as unknown[];
    const running = name
      ? this.client.query({ name, text: sqlOrCursor, values })
      : this.client.query(sqlOrCursor, values);
    return running.catch((err: Error) => {
      if (isDatabaseUnavailable(err)) this.broken ??= err;
      throw err;
    }) as Promise<PostgresQueryResult<unknown>>;
  }

  release(): void {
    const broken = this.broken;
    this.broken = undefined;
    // A truthy argument makes the pool close the connection instead of reusing it.
    this.client.release(broken ?? undefined);
  }
}

export function createPostgresPool(options: PostgresOptions): PostgresPool & { pool: pg.Pool } {
  const statementTimeout = options.statementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max,
    connectionTimeoutMillis: options.waitMs,
    keepAlive: true,
    types: pgTypes,
    // Server side: a statement, a lock wait or an idle transaction never outlasts these.
    ...(statementTimeout > 0
      ? {
          statement_timeout: statementTimeout,
          idle_in_transaction_session_timeout: statementTimeout * 2,
          // Client side: the server did not answer at all (a frozen network): give up a little
          // after the server would have cancelled the statement itself.
          query_timeout: statementTimeout + 500,
        }
      : {}),
  });
  const leases = new WeakMap<pg.PoolClient, Lease>();
  pool.on('connect', (client) => {
    client.on('error', (err) => options.onConnectionError(err));
  });
  // An idle connection losing its server: the pool drops it (and the listener above reports it).
  pool.on('error', () => {});
  return {
    pool,
    async connect() {
      const client = await pool.connect();
      let lease = leases.get(client);
      if (!lease) {
        lease = new Lease(client);
        leases.set(client, lease);
      }
      return lease;
    },
    end: () => pool.end(),
  };
}
