import type { Command } from 'commander';
import type { Db } from '../core/db/database.js';
import { listEnvelope } from '../core/http/page-envelope.js';
import { parseId } from '../core/ids.js';
import {
  LIST_MAX_PAGE_SIZE,
  LIST_PAGE_SIZE,
  type ListPage,
  type ListWindow,
  listWindow,
} from '../core/pagination.js';

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

/** The command printed its answer, which is a failure (exit code 1, nothing more printed). */
export class Failed extends Error {}

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

/** `--page` and `--page-size` of a list command, as the admin API's lists take them. */
export function pageOptions(command: Command): Command {
  return command
    .option('--page <n>', 'which page, from 1 (default 1)')
    .option('--page-size <n>', `items a page (default ${LIST_PAGE_SIZE}, at most ${LIST_MAX_PAGE_SIZE})`);
}

export interface PageOpts {
  page?: string;
  pageSize?: string;
  json?: boolean;
}

/** The rows `--page` and `--page-size` ask for (a larger page size is clamped to the maximum). */
export function pageWindow(opts: PageOpts): ListWindow {
  return listWindow({
    page: opts.page === undefined ? undefined : positiveInteger('page', opts.page),
    page_size: opts.pageSize === undefined ? undefined : positiveInteger('page-size', opts.pageSize),
  });
}

/**
 * Prints one page of a list: with --json the admin API's `{count, results}` with `page`,
 * `page_size` and `pages` (and `about`'s fields); else a line an item, then which page of how
 * many, or `empty` when the list has nothing at all.
 */
export function printPage<T, R>(
  ctx: CliContext,
  opts: PageOpts,
  window: ListWindow,
  list: ListPage<T>,
  present: (item: T) => R,
  human: { item: (shown: R) => string; noun: [one: string, many: string]; empty: string; about?: object },
): void {
  const page = Math.floor(window.offset / window.limit) + 1;
  const pages = Math.max(1, Math.ceil(list.count / window.limit));
  const envelope = listEnvelope(list, present);
  const shown = { ...human.about, ...envelope, page, page_size: window.limit, pages };
  print(ctx, opts.json, shown, () => {
    if (list.count === 0) return human.empty;
    const total = `${list.count} ${human.noun[list.count === 1 ? 0 : 1]}`;
    const lines = envelope.results.map(human.item);
    return [...lines, `page ${page} of ${pages} (${total})${lines.length ? '' : ': none on this page'}`].join(
      '\n',
    );
  });
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
