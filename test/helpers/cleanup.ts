import { afterAll } from 'vitest';

/**
 * Work to do after a test file's tests: closing apps and servers, dropping throwaway
 * databases. Vitest ignores `afterAll` registered inside `beforeAll`, where helpers such as
 * `buildTestApp` are called, so helpers register here instead; this module's own `afterAll`
 * is registered when a test file first imports it (once per file: files run isolated).
 */
const pending: (() => Promise<void>)[] = [];

afterAll(async () => {
  // Last made, first undone: a server closes before its database is dropped.
  for (const cleanup of pending.splice(0).reverse()) await cleanup();
});

export function afterFile(cleanup: () => Promise<void>): void {
  pending.push(cleanup);
}
