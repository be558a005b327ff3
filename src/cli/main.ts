import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { AppError } from '../errors.js';
import { accountCommands } from './accounts.js';
import { adminCommands } from './admins.js';
import { campaignCommands } from './campaigns.js';
import { groupCommands } from './groups.js';
import { keyCommands } from './keys.js';
import type { CliContext, Io } from './output.js';
import { UsageError } from './output.js';
import { workerCommands } from './worker.js';

/**
 * `vigil`: the operator command. It works on the database named by DATABASE_URL (the
 * server's default when unset), applies pending migrations first, and calls the same
 * services as the API. With --json every command prints exactly one JSON object.
 */
export async function main(argv: string[], io: Io = defaultIo()): Promise<number> {
  let database: Database | undefined;
  let json = argv.includes('--json');
  const context: CliContext = {
    io,
    async db() {
      if (!database) {
        const config = loadConfig(io.env);
        database = openDatabase(config.databaseUrl);
        await migrateToLatest(database.db);
      }
      return database.db;
    },
  };

  const program = new Command('vigil')
    .description(
      'Vigil operator command: accounts, administrators, API keys, groups, campaigns, migrations, workers.',
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig(io.env);
      database = openDatabase(config.databaseUrl);
      const applied = await migrateToLatest(database.db);
      if (opts.json) io.stdout(`${JSON.stringify({ applied })}\n`);
      else io.stdout(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    });
  accountCommands(program, context);
  adminCommands(program, context);
  keyCommands(program, context);
  groupCommands(program, context);
  campaignCommands(program, context);
  workerCommands(program, context);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0)
        return 0;
      json = false; // commander has already written its message
      return 2;
    }
    return reportError(io, err, json);
  } finally {
    await database?.close();
  }
}

function reportError(io: Io, err: unknown, json: boolean): number {
  let body: { error: string; status?: number; code?: string; details?: unknown };
  let code = 1;
  if (err instanceof AppError) {
    body = {
      error: err.message,
      status: err.status,
      code: err.code,
      ...(err.details ? { details: err.details } : {}),
    };
  } else if (err instanceof UsageError || err instanceof ConfigError) {
    body = { error: err.message };
    code = 2;
  } else {
    body = { error: err instanceof Error ? err.message : String(err) };
  }
  if (json) io.stderr(`${JSON.stringify(body)}\n`);
  else {
    const details =
      body.details && typeof body.details === 'object'
        ? Object.entries(body.details).map(
            ([field, messages]) => `\n  ${field}: ${[messages].flat().join('; ')}`,
          )
        : [];
    io.stderr(`vigil: ${body.error}${details.join('')}\n`);
  }
  return code;
}

function defaultIo(): Io {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
  };
}
