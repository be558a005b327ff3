import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { runPrimary, SHUTDOWN_MESSAGE } from './cluster.js';
import { settleAuditLog } from './core/audit/audit.js';
import type { Config } from './core/config.js';
import { describeDatabase } from './core/db/database.js';
import { listeningUrl } from './core/http/links.js';
import { createLogger } from './core/http/logging.js';
import { loadPasskeyCode } from './modules/access/mfa/mfa.service.js';
import { loadSamlCode } from './modules/access/sso/sso.saml.service.js';
import { type ReportsByMail, startReportsByMail } from './modules/phishing/mailbox/mailbox.intake.service.js';
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
  let reports: ReportsByMail | undefined;
  let stopping = false;
  // The workers and the reporting address stop first (mail being sent or received finishes),
  // then requests already received finish and are answered (readiness says 503 meanwhile); then
  // the database closes.
  const grace = closeWithGrace(
    { delay: 30_000, onSecondSignal: worker ? () => {} : undefined },
    async ({ signal, err }) => {
      stopping = true;
      if (err) log.error({ err }, 'shutting down after an uncaught error');
      else log.info({ signal }, 'shutting down');
      if (app) app.readiness.draining = true;
      await Promise.all([background?.stop(), reports?.close()]);
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
  // Loaded on first use elsewhere (the `vigil` command), read here before any request can wait for them.
  // What a process stopped before its audit rows were chained left in the journal, in batches,
  // before any request's audit write would have to move it all at once.
  await Promise.all([loadSamlCode(), loadPasskeyCode(), worker ? undefined : settleAuditLog(database.db)]);
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
  // The reporting address (REPORT_SMTP_PORT), with the app's intake; a cluster's primary runs it instead.
  reports =
    (await startReportsByMail({ config, db: database.db, log, intake: app.reportIntake })) ?? undefined;
  await printSetupLink(log, database.db, linkBase(config, port));
}

/** Runs the server with a checked configuration: one process, or a cluster's primary (WEB_CONCURRENCY > 1). */
export async function startServer(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  if (config.webConcurrency > 1 && cluster.isPrimary) await runPrimary(config, log);
  else await serve(config, log);
}
