import { setTimeout as sleep } from 'node:timers/promises';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Database, type Db, openDatabase } from './db/database.js';
import { isDatabaseUnavailable } from './db/errors.js';
import { migrateToLatest } from './db/migrate.js';
import { createLogger } from './http/logging.js';
import { hasOperator } from './modules/admins/admins.service.js';
import { createSetupLink } from './modules/invitations/invitations.service.js';
import { type BackgroundWork, startBackgroundWork } from './workers/background.js';

/** The database as the server uses it: bounded waits, connection failures logged, never fatal. */
function openServerDatabase(
  config: Config,
  log: Logger,
  statementTimeoutMs = config.database.statementTimeoutMs,
): Database {
  return openDatabase(config.databaseUrl, {
    waitMs: config.database.waitMs,
    statementTimeoutMs,
    onConnectionError: (err) => log.warn({ err: { message: err.message } }, 'database connection lost'),
  });
}

/**
 * Applies pending migrations once the database answers: a server started while its database is
 * unreachable waits and retries (logging why, backing off to 10 s) instead of exiting.
 * Migrations run without a statement timeout (building an index on a large table may take long).
 */
async function migrateWhenReachable(config: Config, log: Logger, stopping: () => boolean): Promise<string[]> {
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

/** Starts the server: configuration, migrations, listen; closes gracefully on SIGTERM/SIGINT. */
async function start(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  let app: FastifyInstance | undefined;
  let background: BackgroundWork | undefined;
  let stopping = false;
  // The workers stop first (mail being sent finishes), then requests already received finish
  // and are answered (readiness says 503 meanwhile); then the database closes.
  closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
    stopping = true;
    if (err) log.error({ err }, 'shutting down after an uncaught error');
    else log.info({ signal }, 'shutting down');
    if (app) app.readiness.draining = true;
    await background?.stop();
    await app?.close();
    log.flush();
  });

  const applied = await migrateWhenReachable(config, log, () => stopping);
  if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');
  if (stopping) return;
  const database = openServerDatabase(config, log);
  app = await buildApp({ config, database, logger: log });

  await app.listen({ port: config.port, host: config.host });
  const where = database.dialect === 'sqlite' ? config.databaseUrl : 'postgres (DATABASE_URL)';
  const base = baseUrl(config.host, app.server.address());
  log.info(`Vigil is ready: ${base}/admin/ and ${base}${app.apiPrefix}/docs (database: ${where})`);
  if (config.workers.enabled) {
    background = startBackgroundWork({ db: database.db, config, baseUrl: config.publicUrl ?? base, log });
  }
  await printSetupLink(log, database.db, base).catch((err) =>
    log.warn({ err: { message: (err as Error).message } }, 'could not check for a first operator'),
  );
  log.flush();
}

/** Where this server is reached from this machine (a wildcard address is reached as localhost). */
function baseUrl(host: string, address: ReturnType<FastifyInstance['server']['address']>): string {
  const port = typeof address === 'object' && address ? address.port : 8080;
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * First run: with no operator yet, print a one-time link that lets the first one choose a
 * password: as a plain banner on a terminal, as a JSON log line otherwise (log collectors).
 * `npx vigil admin setup-link` prints a fresh one at any time.
 */
async function printSetupLink(log: Logger, db: Db, base: string): Promise<void> {
  if (await hasOperator(db)) return;
  const { token } = await createSetupLink(db);
  const url = `${base}/admin/setup/${token}`;
  if (process.stdout.isTTY) {
    process.stdout.write(
      `\nFirst run: there is no operator yet. Open this one-time link to create one (valid 24 hours):\n\n  ${url}\n\n`,
    );
  } else {
    log.info({ setup_url: url }, 'first run: open setup_url to create the operator (valid once, 24 hours)');
  }
}

start().catch((err) => {
  const message =
    err instanceof ConfigError
      ? err.message
      : err?.code === 'EADDRINUSE'
        ? `port already in use: ${err.message}`
        : err;
  console.error('vigil: could not start:', message);
  process.exit(1);
});
