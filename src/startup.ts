import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Config } from './core/config.js';
import { type Database, type Db, openDatabase } from './core/db/database.js';
import { isDatabaseUnavailable } from './core/db/errors.js';
import { migrateToLatest } from './core/db/migrate.js';
import { linkTo, listeningUrl } from './core/http/links.js';
import { hasOperator } from './modules/access/admins/admins.service.js';
import { createSetupLink } from './modules/access/invitations/invitations.service.js';

/** What starting a server process involves besides listening, shared by one process and a cluster. */

/** The database as a server uses it: bounded waits, connection failures logged, never fatal. */
export function openServerDatabase(
  config: Config,
  log: Logger,
  statementTimeoutMs = config.database.statementTimeoutMs,
): Database {
  return openDatabase(config.databaseUrl, {
    waitMs: config.database.waitMs,
    statementTimeoutMs,
    poolMax: config.database.poolMax,
    onConnectionError: (err) => log.warn({ err: { message: err.message } }, 'database connection lost'),
  });
}

/**
 * Applies pending migrations once the database answers: a server started while its database is
 * unreachable waits and retries (logging why, backing off to 10 s) instead of exiting.
 * Migrations run without a statement timeout (building an index on a large table may take long).
 */
export async function migrateWhenReachable(
  config: Config,
  log: Logger,
  stopping: () => boolean,
): Promise<string[]> {
  for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
    const database = openServerDatabase(config, log, 0);
    try {
      return await migrateToLatest(database.db);
    } catch (err) {
      if (!isDatabaseUnavailable(err) || stopping()) throw err;
      log.warn(
        { reason: (err as Error).message, retry_in_ms: delay },
        'database unavailable at start; waiting for it',
      );
      log.flush();
    } finally {
      await database.close().catch(() => {});
    }
    await sleep(delay);
  }
}

/**
 * The base of the links people open (setup links, links in mail): PUBLIC_URL, else where this
 * server listens (the configured HOST and PORT unless told the address it got).
 */
export function linkBase(config: Config, port: number = config.port): string {
  return config.publicUrl ?? listeningUrl(config.host, port);
}

/**
 * First run: with no operator yet, print a one-time link that lets the first one choose a
 * password: as a plain banner on a terminal, as a JSON log line otherwise (log collectors). This
 * is the one line meant to show a credential; the request that opens the link is logged with its
 * token redacted. `base` is PUBLIC_URL or the listening address, never a request's Host.
 * `npx vigil admin setup-link` prints a fresh one at any time. A database gone meanwhile is
 * logged, not fatal (the command prints one later).
 */
export async function printSetupLink(log: Logger, db: Db, base: string): Promise<void> {
  try {
    if (await hasOperator(db)) return;
    const { token } = await createSetupLink(db);
    const url = linkTo(base, `/admin/setup/${token}`);
    if (process.stdout.isTTY) {
      process.stdout.write(
        `\nFirst run: there is no operator yet. Open this one-time link to create one (valid 24 hours):\n\n  ${url}\n\n`,
      );
    } else {
      log.info({ setup_url: url }, 'first run: open setup_url to create the operator (valid once, 24 hours)');
    }
  } catch (err) {
    log.warn({ err: { message: (err as Error).message } }, 'could not check for a first operator');
  } finally {
    log.flush();
  }
}
