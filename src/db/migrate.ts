import { Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

/** Applies every pending migration; returns the names applied. Safe to run concurrently. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
