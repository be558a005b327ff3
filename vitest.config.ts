import { defineConfig } from 'vitest/config';
import { filesIndependentOfTheDialect } from './test/helpers/dialect-files.js';

// `npm test` runs every suite on SQLite with in-memory rate limits; `npm run test:pg` runs the
// same suites on PostgreSQL with Redis (TEST_DATABASE_URL, TEST_REDIS_URL), less the files that
// read neither variable, directly or through their imports: those run the same either way, and
// `npm test` has run them.
const browser = 'test/browser';
const underTestServices = Boolean(process.env.TEST_DATABASE_URL || process.env.TEST_REDIS_URL);

/**
 * Files that bound how long the server takes to answer under faults, or race kills against the
 * mail worker's batches: they run one at a time, after the others, so that no other test file
 * competes with them for the CPU (however many files run at once before them).
 */
const ALONE = [
  'test/durability.test.ts',
  'test/faults.test.ts',
  'test/hostile-input.test.ts',
  'test/mail-durability.test.ts',
  'test/metrics.test.ts',
  'test/operations.test.ts',
  'test/phishing-durability.test.ts',
  'test/phishing-reports-hostile.test.ts',
  'test/webhook-durability.test.ts',
];

/**
 * Files that change what every later file in their process would see: test subscribers and
 * campaign kinds left registered, a module mocked. They run isolated, each in a process of its
 * own; the other files share their workers' processes (importing the app once per process, not
 * once per file, which was half of `npm test`'s time), each cleaning up after itself
 * (test/setup/after-file.ts).
 */
const ISOLATED = [
  'src/core/events.test.ts',
  'src/modules/campaigns/campaigns.scheduling.test.ts',
  'test/admin-openapi.test.ts',
];

export default defineConfig({
  test: {
    // The browser suite has its own command (`npm run test:browser`, vitest.browser.config.ts).
    exclude: [
      `${browser}/**`,
      'node_modules/**',
      ...(underTestServices
        ? filesIndependentOfTheDialect(
            import.meta.dirname,
            ['src', 'test', 'clients/typescript/test'],
            [browser],
          )
        : []),
    ],
    pool: 'forks',
    // One migrated database a run, which each test app copies (createMigratedTestDatabase).
    globalSetup: ['test/setup/migrated-template.ts'],
    setupFiles: ['test/setup/after-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'files',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'clients/typescript/test/**/*.test.ts'],
          exclude: [...ALONE, ...ISOLATED],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false } },
    ],
  },
});
