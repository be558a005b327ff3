import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

/**
 * A server secret by name, generated on first use and kept with the data, so the service
 * starts with no configuration and every instance sharing the database agrees on it.
 * Concurrent first starts race on the primary key; the first one wins and all read it back.
 */
export async function getOrCreateSecret(db: Db, name: string): Promise<string> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: randomBytes(32).toString('base64url'), created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
