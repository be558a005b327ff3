import { defineConfig } from 'vitest/config';

// `npm test` runs every suite on SQLite with in-memory rate limits; `npm run test:pg` runs the
// same suites on PostgreSQL with Redis (TEST_DATABASE_URL, TEST_REDIS_URL).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The browser suite has its own command (`npm run test:browser`, vitest.browser.config.ts).
    exclude: ['test/browser/**', 'node_modules/**'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
