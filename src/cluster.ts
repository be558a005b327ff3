import cluster, { type Worker } from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';
import { countBudgetsForWorkers } from './core/auth/cluster-budgets.js';
import type { Config } from './core/config.js';
import type { Database } from './core/db/database.js';
import { listeningUrl } from './core/http/links.js';
import { serveInstanceMetrics } from './metrics/cluster.js';
import { type ReportsByMail, startReportsByMail } from './modules/phishing/mailbox/mailbox.intake.service.js';
import { builtInPhishingTemplates } from './modules/phishing/templates/templates.library.service.js';
import { linkBase, migrateWhenReachable, openServerDatabase, printSetupLink } from './startup.js';
import { type BackgroundWork, startBackgroundWork } from './workers/background.js';

/**
 * WEB_CONCURRENCY > 1: this process supervises that many HTTP worker processes sharing the
 * port (node:cluster), so the server uses every core. The primary migrates the database before
 * any worker starts, runs the background work (mail, scheduler) and the reporting address once, counts the instance's
 * rate-limit budgets for its workers when there is no Redis (exact across them), starts a
 * worker again if one dies, and on SIGTERM/SIGINT asks each to drain and waits for them.
 */

/** The message a worker takes as its signal to drain and exit (a second signal would kill it). */
export const SHUTDOWN_MESSAGE = 'vigil:shutdown';

const RESTART_DELAY_MS = { first: 500, max: 30_000 };

export async function runPrimary(config: Config, log: Logger): Promise<void> {
  // Checked here too: a broken built-in template stops the start once, not each worker forever.
  builtInPhishingTemplates();
  let stopping = false;
  let database: Database | undefined;
  let background: BackgroundWork | undefined;
  let reports: ReportsByMail | undefined;

  const exited = (worker: Worker) =>
    new Promise<void>((resolve) => {
      if (worker.isDead()) resolve();
      else worker.once('exit', () => resolve());
    });

  closeWithGrace({ delay: 35_000 }, async ({ signal, err }) => {
    stopping = true;
    if (err) log.error({ err }, 'shutting down after an uncaught error');
    else log.info({ signal }, 'shutting down');
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    for (const worker of workers) if (worker.isConnected()) worker.send(SHUTDOWN_MESSAGE);
    await Promise.all([...workers.map(exited), reports?.close()]);
    await background?.stop();
    await database?.close();
    log.flush();
  });

  const applied = await migrateWhenReachable(config, log, () => stopping);
  if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');
  if (stopping) return;
  // Without Redis, the workers' budgets are counted here (rate-limit.ts): one budget per instance.
  if (!config.redisUrl) countBudgetsForWorkers();
  // GET /metrics, whichever worker it reaches, answers for the whole instance (metrics/cluster.ts).
  if (config.metricsToken) {
    serveInstanceMetrics({ database: () => database, postgres: !config.databaseUrl.startsWith('sqlite:') });
  }

  let restartDelay = RESTART_DELAY_MS.first;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log.error(
      { worker: worker.id, code, signal, restart_in_ms: restartDelay },
      'worker exited; starting another',
    );
    setTimeout(() => !stopping && cluster.fork(), restartDelay);
    restartDelay = Math.min(restartDelay * 2, RESTART_DELAY_MS.max);
  });
  // A worker that stays up a minute resets the back-off.
  cluster.on('listening', () => {
    setTimeout(() => {
      restartDelay = RESTART_DELAY_MS.first;
    }, 60_000).unref();
  });

  const listening = new Promise<{ port: number }>((resolve) =>
    cluster.once('listening', (_worker, address) => resolve(address)),
  );
  for (let i = 0; i < config.webConcurrency; i++) cluster.fork();
  const address = await listening;
  if (stopping) return;

  const base = listeningUrl(config.host, address.port);
  log.info(
    { processes: config.webConcurrency },
    `Vigil is ready: ${base}/admin/ and ${base}/api/api_gateway/docs (${config.webConcurrency} worker processes)`,
  );
  database = openServerDatabase(config, log);
  if (config.workers.enabled) {
    background = startBackgroundWork({
      db: database.db,
      config,
      baseUrl: linkBase(config, address.port),
      log,
    });
  }
  // The reporting address (REPORT_SMTP_PORT) runs here, once for the instance, with an intake of its own.
  reports =
    (await startReportsByMail({ config, db: database.db, log, baseUrl: linkBase(config, address.port) })) ??
    undefined;
  await printSetupLink(log, database.db, linkBase(config, address.port));
}
