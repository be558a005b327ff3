import { existsSync, readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { Command, CommanderError } from 'commander';
import { type AuditActor, withAuditScope } from '../core/audit/audit.js';
import { type Config, ConfigError, DEFAULT_DATABASE_URL, loadConfig } from '../core/config.js';
import { type Database, describeDatabase, openDatabase, sqliteFile } from '../core/db/database.js';
import { hasBeenMigrated, migrateToLatest } from '../core/db/migrate.js';
import { AppError } from '../core/errors.js';
import { fromProjectRoot } from '../core/paths.js';
import { loadSubscriptions } from '../subscriptions.js';
import { accountCommands } from './accounts.js';
import { adminCommands } from './admins.js';
import { auditCommands } from './audit.js';
import { flagLine, flagMessage } from './body-options.js';
import { campaignCommands } from './campaigns.js';
import { groupCommands } from './groups.js';
import { keyCommands } from './keys.js';
import type { CliContext, Io } from './output.js';
import { Failed, NoDatabaseError, print, UsageError } from './output.js';
import { phishingCommands } from './phishing.js';
import { workerCommands } from './worker.js';

/** The operator running `vigil`, as the audit log names them: the machine's user. */
function cliActor(): AuditActor {
  let user = '';
  try {
    user = userInfo().username;
  } catch {}
  return { kind: 'cli', id: null, label: `vigil CLI (${user || 'unknown user'}@${hostname()})` };
}

/** The version in package.json. */
function version(): string {
  return JSON.parse(readFileSync(fromProjectRoot('package.json'), 'utf8')).version;
}

const MORE_HELP = `
The database is DATABASE_URL's (default ${DEFAULT_DATABASE_URL}, relative to the current folder),
as for the server. Every command names the one it used: on stderr, as "database" with --json,
in its log for the worker. Only migrate, worker, account create and admin create --operator
start a new database; the other commands refuse one that does not exist. Pending migrations are
applied first.

With --json every command prints exactly one JSON object on stdout; errors, argument errors
included, are one JSON object {"error": …} on stderr. Exit codes: 0 success, 1 failure,
2 a mistake in the command or the environment.`;

/** Why a command found no database, in one line that says where it looked. */
function noDatabase(config: Config, env: NodeJS.ProcessEnv, file: string): NoDatabaseError {
  const where = env.DATABASE_URL
    ? `(DATABASE_URL=${describeDatabase(config.databaseUrl)})`
    : `(DATABASE_URL is unset: the default ${DEFAULT_DATABASE_URL}, relative to this folder)`;
  return new NoDatabaseError(
    `no database at ${file} ${where}; run this where the server runs or set DATABASE_URL to its database (vigil migrate creates a new one)`,
  );
}

/**
 * `vigil`: the operator command. It works on the database named by DATABASE_URL (the
 * server's default when unset), applies pending migrations first, and calls the same
 * services as the API. With --json every command prints exactly one JSON object.
 */
export async function main(argv: string[], io: Io = defaultIo()): Promise<number> {
  loadSubscriptions(); // its commands call the same services as the API, events and all
  let database: Database | undefined;
  let shown: string | undefined;
  let applied: string[] = [];
  const json = argv.includes('--json');
  const context: CliContext = {
    io,
    async db({ create = false, announce = true } = {}) {
      if (!database) {
        const config = loadConfig(io.env);
        shown = describeDatabase(config.databaseUrl);
        const file = sqliteFile(config.databaseUrl);
        // Opening a SQLite file creates it: look first.
        if (!create && file && file !== ':memory:' && !existsSync(file)) {
          throw noDatabase(config, io.env, file);
        }
        const opened = openDatabase(config.databaseUrl, {
          waitMs: config.database.waitMs,
          statementTimeoutMs: config.database.statementTimeoutMs,
          poolMax: config.database.poolMax,
        });
        database = opened;
        const fresh = !(await hasBeenMigrated(opened.db));
        if (fresh && !create) {
          throw new NoDatabaseError(
            `the database ${shown} holds no Vigil data (it was never migrated); check DATABASE_URL, or run vigil migrate to set it up`,
          );
        }
        applied = await migrateToLatest(opened.db);
        if (!json && announce) io.stderr(`database: ${shown}${fresh ? ' (new: created now)' : ''}\n`);
      }
      return database.db;
    },
    applied: () => applied,
    database: () => shown,
  };

  // `vigil --version --json`: the version as JSON (commander would print the text alone).
  const versionFlags = ['--version', '-V'];
  if (
    json &&
    argv.some((arg) => versionFlags.includes(arg)) &&
    argv.every((arg) => arg === '--json' || versionFlags.includes(arg))
  ) {
    io.stdout(`${JSON.stringify({ version: version() })}\n`);
    return 0;
  }

  const program = vigilProgram(context, json);
  // The command being run: its errors name fields by its flags.
  let running: Command | undefined;
  program.hook('preAction', (_program, action) => {
    running = action;
  });

  try {
    // Every change a command makes is recorded in the audit log as the operator's, at this machine.
    await withAuditScope({ actor: cliActor(), address: null, requestId: null }, () =>
      program.parseAsync(argv, { from: 'user' }),
    );
    return 0;
  } catch (err) {
    if (err instanceof Failed) return 1;
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0)
        return 0;
      // Without --json commander has already written its message.
      if (json) reportError(io, new UsageError(usageMessage(err)), true, undefined);
      return 2;
    }
    return reportError(io, err, json, shown, running);
  } finally {
    await database?.close();
  }
}

/** Every command of `vigil`, acting through `context` (their options say which body fields they fill). */
export function vigilProgram(context: CliContext, json: boolean): Command {
  const { io } = context;
  const program = new Command('vigil')
    .description(
      'Vigil operator command: accounts, administrators, API keys, groups, campaigns, the audit log, migrations, workers.',
    )
    .version(version(), '-V, --version', 'print the version')
    .addHelpText('after', MORE_HELP)
    .exitOverride()
    // With --json, commander's own error text is replaced by the JSON error below.
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => (json ? undefined : io.stderr(s)),
    })
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('migrate')
    .description('apply pending database migrations (creates the database when there is none)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await context.db({ create: true });
      const done = context.applied();
      print(context, opts.json, { applied: done }, () =>
        done.length ? `applied: ${done.join(', ')}` : 'database is up to date',
      );
    });
  accountCommands(program, context);
  adminCommands(program, context);
  keyCommands(program, context);
  groupCommands(program, context);
  campaignCommands(program, context);
  phishingCommands(program, context);
  auditCommands(program, context);
  workerCommands(program, context);
  return program;
}

/** Commander's message without its "error: " prefix; help it would have shown, as a hint. */
function usageMessage(err: CommanderError): string {
  if (err.code === 'commander.help') {
    return 'a command is missing (run with --help for usage)';
  }
  return err.message.replace(/^error: /, '');
}

/**
 * Prints an error: with --json the API's body (fields named as the API names them, for
 * programs); else a line for people, each field named by the flag that sets it.
 */
function reportError(
  io: Io,
  err: unknown,
  json: boolean,
  database: string | undefined,
  command?: Command,
): number {
  let body: { error: string; status?: number; code?: string; details?: unknown; database?: string };
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
  if (json) io.stderr(`${JSON.stringify(database === undefined ? body : { ...body, database })}\n`);
  else {
    // Only a validation error's details are field → messages (others carry ids, checks…).
    const details =
      body.code === 'validation_failed' && body.details && typeof body.details === 'object'
        ? Object.entries(body.details).map(
            ([field, messages]) => `\n  ${flagLine(command, field, [messages].flat())}`,
          )
        : [];
    io.stderr(`vigil: ${flagMessage(command, body.error)}${details.join('')}\n`);
  }
  return code;
}

function defaultIo(): Io {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    stdin: async () => {
      let text = '';
      process.stdin.setEncoding('utf8');
      for await (const chunk of process.stdin) text += chunk;
      return text;
    },
  };
}
