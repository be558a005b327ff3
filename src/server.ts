import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

/** Starts the server: configuration, migrations, listen; closes gracefully on SIGTERM/SIGINT. */
async function start(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  const applied = await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');

  // Requests already received finish and are answered; then the database closes.
  closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ port: config.port, host: config.host });
  const where = database.dialect === 'sqlite' ? config.databaseUrl : 'postgres (DATABASE_URL)';
  app.log.info(
    `Vigil is ready: http://${config.host}:${config.port}${app.apiPrefix}/docs (database: ${where})`,
  );
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
