import type { Db } from '../db/database.js';
import { parseId } from '../ids.js';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Everything on standard input, for `--password-stdin` (none when absent). */
  stdin?(): Promise<string>;
}

export interface OpenOptions {
  /**
   * Whether this command may start a new database: create the SQLite file, or apply the first
   * migrations to an empty PostgreSQL database. Commands that read, or act on what must already
   * exist, may not: run from the wrong folder they would find nothing in a database of their own.
   */
  create?: boolean;
  /** Name the database on stderr (without --json); `vigil worker` logs it in its JSON log instead. */
  announce?: boolean;
}

export interface CliContext {
  io: Io;
  /** Opens the database on first use (printing which one) and applies pending migrations. */
  db(options?: OpenOptions): Promise<Db>;
  /** The migrations the first `db()` applied. */
  applied(): string[];
  /** The database the command works on, as shown to people, once `db()` was called. */
  database(): string | undefined;
}

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {}

/** The database a command needs does not exist (or was never migrated); nothing was created. */
export class NoDatabaseError extends Error {}

export function idOption(name: string, value: string | undefined): number {
  const id = value === undefined ? null : parseId(value);
  if (id === null) throw new UsageError(`--${name} must be a positive integer id, got "${value ?? ''}"`);
  return id;
}

export function positiveInteger(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return Number(value);
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Prints one JSON object with --json (with the database the command used, `database`), else
 * the human lines (the database was named on stderr when it was opened).
 */
export function print(ctx: CliContext, json: boolean | undefined, object: object, human: () => string): void {
  const database = ctx.database();
  ctx.io.stdout(
    json ? `${JSON.stringify(database === undefined ? object : { ...object, database })}\n` : `${human()}\n`,
  );
}

/**
 * The password of a command: `--password P`, or with `--password-stdin` one line read from
 * standard input (so that it stays out of the shell's history and the process list).
 */
export async function passwordOption(
  io: Io,
  opts: { password?: string; passwordStdin?: boolean },
): Promise<string> {
  if ((opts.password !== undefined) === Boolean(opts.passwordStdin)) {
    throw new UsageError('give exactly one of --password or --password-stdin');
  }
  if (opts.password !== undefined) return opts.password;
  const text = io.stdin ? await io.stdin() : '';
  const password = text.replace(/\r?\n$/, '');
  if (password === '') throw new UsageError('--password-stdin: standard input held no password');
  if (/[\r\n]/.test(password)) {
    throw new UsageError('--password-stdin: give the password as one line on standard input');
  }
  return password;
}
