import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { runPrimary, SHUTDOWN_MESSAGE } from './cluster.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { describeDatabase } from './db/database.js';
import { listeningUrl } from './http/links.js';
import { createLogger } from './http/logging.js';
import { linkBase, migrateWhenReachable, openServerDatabase, printSetupLink } from './startup.js';
import { type BackgroundWork, startBackgroundWork } from './workers/background.js';

/**
 * One server process: waits for the database and migrates it, listens, runs the background
 * work, and closes gracefully on SIGTERM/SIGINT. With WEB_CONCURRENCY > 1 this process is a
 * cluster's primary (cluster.ts) and each of its workers runs this minus the migrations, the
 * background work and the setup link, which the primary does once.
 */
async function serve(config: Config, log: Logger): Promise<void> {
  const worker = cluster.isWorker;
  let app: FastifyInstance | undefined;
  let background: BackgroundWork | undefined;
  let stopping = false;
  // The workers stop first (mail being sent finishes), then requests already received finish
  // and are answered (readiness says 503 meanwhile); then the database closes.
  const grace = closeWithGrace(
    { delay: 30_000, onSecondSignal: worker ? () => {} : undefined },
    async ({ signal, err }) => {
      stopping = true;
      if (err) log.error({ err }, 'shutting down after an uncaught error');
      else log.info({ signal }, 'shutting down');
      if (app) app.readiness.draining = true;
      await background?.stop();
      await app?.close();
      log.flush();
    },
  );
  if (worker) {
    // The primary asks its workers to drain (a terminal's Ctrl-C also reaches them directly:
    // whichever comes first starts the one shutdown), and a worker whose primary is gone exits.
    const drain = () => !stopping && void grace.close();
    process.on('message', (message) => message === SHUTDOWN_MESSAGE && drain());
    process.on('disconnect', drain);
  }

  if (!worker) {
    const applied = await migrateWhenReachable(config, log, () => stopping);
    if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');
  }
  if (stopping) return;
  const database = openServerDatabase(config, log);
  app = await buildApp({ config, database, logger: log });
  await app.listen({ port: config.port, host: config.host });
  if (worker) return;

  // Shown as `vigil` commands show theirs, so the two can be compared.
  const where = describeDatabase(config.databaseUrl);
  const { port } = app.server.address() as AddressInfo;
  const base = listeningUrl(config.host, port);
  log.info(`Vigil is ready: ${base}/admin/ and ${base}${app.apiPrefix}/docs (database: ${where})`);
  if (config.workers.enabled) {
    background = startBackgroundWork({ db: database.db, config, baseUrl: linkBase(config, port), log });
  }
  await printSetupLink(log, database.db, linkBase(config, port));
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (config.webConcurrency > 1 && cluster.isPrimary) await runPrimary(config, log);
  else await serve(config, log);
}

/**
 * Why the server could not start, as one line: a bad setting, or what the system refused
 * (a port in use, an address this machine does not have, a database file it cannot open). Only
 * an error nobody foresaw (a defect) is printed with its stack.
 */
function startFailure(err: unknown): string {
  if (err instanceof ConfigError) return err.message;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string')
    return err instanceof Error ? (err.stack ?? String(err)) : String(err);
  if (code === 'EADDRINUSE') return `port already in use: ${message}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `cannot listen on HOST (${message}): give an address of this machine, or 0.0.0.0`;
  }
  return `${message} (${code})`;
}

main().catch((err) => {
  console.error(`vigil: could not start: ${startFailure(err)}`);
  process.exit(1);
});
