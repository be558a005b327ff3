import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import type { TestProject } from 'vitest/node';
import { dialectOf, openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { createThrowawayDatabase, type MigratedTemplate, TEST_POSTGRES_URL } from '../helpers/database.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** A database every migration has run on, for test apps to copy (createMigratedTestDatabase). */
    migratedTemplate: MigratedTemplate;
  }
}

/**
 * Vitest's global setup (vitest.config.ts): one database of the dialect under test with every
 * migration run, made once per run of a project and dropped after it. Each test app copies it
 * instead of migrating an empty database of its own (PostgreSQL: `create database … template`;
 * SQLite: a copy of the file). Tests of the migrations themselves still start from empty
 * databases (createTestDatabase).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createThrowawayDatabase({
    postgresUrl: TEST_POSTGRES_URL,
    prefix: 'vigil_template',
    parentDir: tmpdir(),
  });
  const database = openDatabase(template.url);
  try {
    await migrateToLatest(database.db);
    // SQLite: everything into the file itself, which is what is copied.
    if (dialectOf(database.db) === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(database.db);
  } finally {
    // PostgreSQL copies a template only while nobody is connected to it.
    await database.close();
  }
  project.provide(
    'migratedTemplate',
    TEST_POSTGRES_URL
      ? { postgresDatabase: new URL(template.url).pathname.slice(1) }
      : { sqliteFile: template.url.slice('sqlite:'.length) },
  );
  return () => template.drop();
}
