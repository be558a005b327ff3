import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../app.js';
import { loadConfig } from '../core/config.js';
import { openDatabase } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';

/**
 * The Customer API's OpenAPI document without a running server: the whole app built on a
 * throwaway SQLite file (no request is served, nothing is logged), its document taken, all of it
 * removed again. `npm run openapi` writes it to a file, which CI lints; a test checks it equals
 * the served one.
 */
export async function buildCustomerOpenApiDocument(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-openapi-'));
  const url = `sqlite:${join(dir, 'vigil.sqlite')}`;
  const database = openDatabase(url);
  try {
    await migrateToLatest(database.db);
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const app = await buildApp({
      config: loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'error' }),
      database,
      logStream: silent,
    });
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
