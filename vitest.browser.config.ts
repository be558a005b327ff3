import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the web interface in Debian's Chromium against the built server.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    setupFiles: ['test/setup/after-file.ts'],
    // One browser and one server per file, two files at a time: a file's browser, server and test
    // wait on each other, and a second file fills those waits (quiet 2-core machine, all 22
    // files: 886 s one at a time, 776 s two at a time). In CI the suite runs beside others and is
    // the last to end: the two cores stay busy to the end instead of one.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    // A page settles when it settles: on a busy machine a re-render can take seconds, and
    // expect.poll's default of 1 s failed a check that a page already met moments later.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});
