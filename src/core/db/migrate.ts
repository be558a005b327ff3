import { DEFAULT_MIGRATION_TABLE, Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migration-list.js';

/** Applies every pending migration; returns the names applied. Safe to run concurrently. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether migrations were ever applied here (a Vigil database, not an empty one). */
export async function hasBeenMigrated(db: Db): Promise<boolean> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  return tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE);
}
