import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { loadSubscriptions } from '../../src/subscriptions.js';

/** PostgreSQL server to make throwaway databases on, or undefined for SQLite. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL?.startsWith('postgres')
  ? process.env.TEST_DATABASE_URL
  : undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
export const dialectUnderTest = TEST_POSTGRES_URL ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** DATABASE_URL of the new, empty database. */
  url: string;
  /** Removes the database (call after everything using it has closed). */
  drop(): Promise<void>;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A new empty database: on the PostgreSQL server of `postgresUrl` (a `PREFIX_<time>_<random>`
 * database, dropped by `drop`), or without it a SQLite file in a new folder under `parentDir`.
 */
export async function createThrowawayDatabase(options: {
  postgresUrl?: string;
  prefix: string;
  parentDir: string;
  /** PostgreSQL: commits that do not wait for the disk (`synchronous_commit = off`). */
  asyncCommit?: boolean;
  /** PostgreSQL: a copy of this database (nobody may be connected to it), not an empty one. */
  template?: string;
}): Promise<TestDatabase> {
  const { postgresUrl, prefix, parentDir, asyncCommit = false, template } = options;
  if (postgresUrl) {
    const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
    await adminQuery(postgresUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
    if (asyncCommit) await adminQuery(postgresUrl, `alter database ${name} set synchronous_commit = off`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: () => adminQuery(postgresUrl, `drop database if exists ${name} with (force)`),
    };
  }
  mkdirSync(parentDir, { recursive: true });
  const dir = mkdtempSync(join(parentDir, `${prefix}-`));
  return {
    url: `sqlite:${join(dir, 'vigil.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A new database of the dialect under test, never shared with another test file or run: empty,
 * or on PostgreSQL a copy of `postgresTemplate`.
 */
export function createTestDatabase(options: { postgresTemplate?: string } = {}): Promise<TestDatabase> {
  return createThrowawayDatabase({
    postgresUrl: TEST_POSTGRES_URL,
    prefix: 'vigil_test',
    parentDir: tmpdir(),
    // A commit need not wait for the disk: what a test sees is the same, only a crash of the
    // PostgreSQL server itself (which no test causes) could lose the last commits. The benchmarks
    // (bench/seed.ts) keep the server's setting.
    asyncCommit: true,
    template: options.postgresTemplate,
  });
}

/** A database every migration has run on (test/setup/migrated-template.ts makes one a run). */
export type MigratedTemplate = { postgresDatabase: string } | { sqliteFile: string };

/**
 * A new database with every migration run, never shared: a copy of the run's migrated template.
 * Measured on the 26 training and directory files on PostgreSQL, twice each way in turns: the
 * database's CPU 15–19 s against 23–27 s with each file migrating its own, and the run's CPU in
 * all 57–68 s against 70–71 s. Where Vitest's global setup made no template (the browser
 * suite), an empty one, to migrate.
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const template = inject('migratedTemplate');
  if (template === undefined) return createTestDatabase();
  if ('postgresDatabase' in template) {
    if (!TEST_POSTGRES_URL) throw new Error('a PostgreSQL template, but no TEST_DATABASE_URL');
    return createTestDatabase({ postgresTemplate: template.postgresDatabase });
  }
  const database = await createTestDatabase();
  copyFileSync(template.sqliteFile, database.url.slice('sqlite:'.length));
  return database;
}

/** Opens and migrates a database; the event subscribers are loaded, as every entry point does. */
export async function openMigrated(url: string): Promise<Database> {
  loadSubscriptions();
  const database = openDatabase(url);
  await migrateToLatest(database.db);
  return database;
}
