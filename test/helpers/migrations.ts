import { Migrator } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migration-list.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/**
 * A new empty database of the dialect under test, migrated only as far as a test asks
 * (`migrateTo('0013_scim')`): for migrations run on data that an earlier version stored.
 * Closed and dropped after the file's tests.
 */
export function migratingDatabase(): {
  database: () => Database;
  migrateTo: (name: string) => Promise<void>;
} {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = openDatabase(testDb.url);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });
  return {
    database: () => database,
    async migrateTo(name) {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(name);
      if (error) throw error;
    },
  };
}
