/**
 * Work to do after a test file's tests: closing apps and servers, dropping throwaway
 * databases. Vitest ignores `afterAll` registered inside `beforeAll`, where helpers such as
 * `buildTestApp` are called, so helpers register here instead, and the setup file
 * (test/setup/after-file.ts, run for every test file) does the work after each file's tests.
 * Registering the `afterAll` here, once on import, would do it after the first file only where
 * files share a process (the `files` project runs them without isolation).
 */
const pending: (() => Promise<void>)[] = [];

export function afterFile(cleanup: () => Promise<void>): void {
  pending.push(cleanup);
}

/** Undoes what this file's tests made, last made first: a server closes before its database is dropped. */
export async function cleanUpAfterFile(): Promise<void> {
  for (const cleanup of pending.splice(0).reverse()) await cleanup();
}
