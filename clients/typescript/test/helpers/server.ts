import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../../../../test/helpers/app.js';

/**
 * The real app on a throwaway database of the dialect under test (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL), listening on an ephemeral port, as the client's users reach it.
 */
export async function listeningApp(): Promise<TestApp & { baseUrl: string }> {
  const t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  // buildTestApp closes the app (and so this listener) after the file's tests.
  const { port } = t.app.server.address() as AddressInfo;
  return { ...t, baseUrl: `http://127.0.0.1:${port}` };
}
