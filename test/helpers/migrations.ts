import { Migrator } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { type Database, type Db, openDatabase } from '../../src/core/db/database.js';
import { migrations } from '../../src/core/db/migration-list.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/**
 * A new empty database of the dialect under test, migrated only as far as a test asks
 * (`migrateTo('0013_scim')`): for migrations run on data that an earlier version stored.
 * Closed and dropped after the file's tests. `migrateTo` goes down as well as up.
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

/** An account made the way an earlier version stored one, for a migration to find: its id. */
export async function accountBefore(db: Db): Promise<number> {
  const now = Date.now();
  const account = await db
    .insertInto('accounts')
    .values({ name: 'Before', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return account.id;
}
