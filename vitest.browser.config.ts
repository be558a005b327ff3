import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the web interface in Debian's Chromium against the built server.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    setupFiles: ['test/setup/after-file.ts'],
    // One browser and one server per file; files in parallel would just contend for 2 cores.
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    // A page settles when it settles: on a busy machine a re-render can take seconds, and
    // expect.poll's default of 1 s failed a check that a page already met moments later.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});
