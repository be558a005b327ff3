import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

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

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new empty database of the dialect under test, never shared with another test file or run. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_POSTGRES_URL) {
    const name = `vigil_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: () => adminQuery(`drop database if exists ${name} with (force)`),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
  return {
    url: `sqlite:${join(dir, 'vigil.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Opens and migrates a database. */
export async function openMigrated(url: string): Promise<Database> {
  const database = openDatabase(url);
  await migrateToLatest(database.db);
  return database;
}
