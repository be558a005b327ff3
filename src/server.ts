import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { type Db, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { hasOperator } from './modules/admins/admins.service.js';
import { createSetupLink } from './modules/invitations/invitations.service.js';
import { type BackgroundWork, startBackgroundWork } from './workers/background.js';

/** Starts the server: configuration, migrations, listen; closes gracefully on SIGTERM/SIGINT. */
async function start(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  const applied = await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');

  let background: BackgroundWork | undefined;
  // The workers stop first (mail being sent finishes), then requests already received finish
  // and are answered; then the database closes.
  closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await background?.stop();
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  const where = database.dialect === 'sqlite' ? config.databaseUrl : 'postgres (DATABASE_URL)';
  const base = baseUrl(config.host, app.server.address());
  app.log.info(`Vigil is ready: ${base}/admin/ and ${base}${app.apiPrefix}/docs (database: ${where})`);
  if (config.workers.enabled) {
    background = startBackgroundWork({
      db: database.db,
      config,
      baseUrl: config.publicUrl ?? base,
      log: app.log,
    });
  }
  await printSetupLink(app, database.db, base);
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
async function printSetupLink(app: FastifyInstance, db: Db, base: string): Promise<void> {
  if (await hasOperator(db)) return;
  const { token } = await createSetupLink(db);
  const url = `${base}/admin/setup/${token}`;
  if (process.stdout.isTTY) {
    process.stdout.write(
      `\nFirst run: there is no operator yet. Open this one-time link to create one (valid 24 hours):\n\n  ${url}\n\n`,
    );
  } else {
    app.log.info(
      { setup_url: url },
      'first run: open setup_url to create the operator (valid once, 24 hours)',
    );
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
