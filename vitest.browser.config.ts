import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the web interface in Debian's Chromium against the built server.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    // One browser and one server per file; files in parallel would just contend for 2 cores.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
