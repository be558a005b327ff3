import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the web interface in Debian's Chromium against the built server.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    setupFiles: ['test/setup/after-file.ts'],
    // One browser and one server per file, one file at a time. Two at a time end sooner on an
    // otherwise quiet machine (2 cores, all 22 files: 886 s one at a time, 776 s two at a time),
    // but not in CI, where the suite shares the cores with the others: fresh-clone runs of the
    // same day took 2,050 s (two at a time) and 2,070 s (one), as the CPU needed is the same.
    fileParallelism: false,
    // The files share one process, as `npm test`'s do (vitest.config.ts): Vitest, Playwright and
    // the harness are imported once, not once per file (~3 CPU-seconds a file). Each file still
    // starts and stops its own server and browser (test/setup/after-file.ts closes them), and no
    // browser file mocks a module or registers anything in the test process.
    isolate: false,
    testTimeout: 240_000,
    hookTimeout: 60_000,
    // A page settles when it settles: on a busy machine a re-render can take seconds, and
    // expect.poll's default of 1 s failed a check that a page already met moments later.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});
