import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/core/config.js';
import { afterFile } from './cleanup.js';
import { createMigratedTestDatabase, openMigrated, TEST_REDIS_URL } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  /** DATABASE_URL of this app's throwaway database. */
  databaseUrl: string;
  /** Every log line the app wrote, as text. */
  logs: string[];
}

/** Environment for an app or server under test: a throwaway database, Redis when testing with it, a private rate-limit namespace. */
export function testEnv(databaseUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {}),
    RATE_LIMIT_PREFIX: `vigil-test:${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/**
 * The real app (same buildApp, configuration from the environment) on a fresh migrated
 * database of the dialect under test (a copy of the run's template; openMigrated then finds
 * nothing to run); closed and dropped after the file's tests.
 */
export async function buildTestApp(
  extraEnv: NodeJS.ProcessEnv = {},
  hooks: Pick<AppOptions, 'onRoute'> = {},
): Promise<TestApp> {
  const testDb = await createMigratedTestDatabase();
  const config = loadConfig(testEnv(testDb.url, extraEnv));
  const database = await openMigrated(testDb.url);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({ config, database, logStream, ...hooks });
  await app.ready();
  afterFile(async () => {
    await app.close();
    await testDb.drop();
  });
  return { app, databaseUrl: testDb.url, logs };
}
