import { ConfigError, loadConfig } from './core/config.js';

/**
 * `node dist/server.js`: reads and checks the settings first, then loads the server (serve.ts)
 * and runs it. A bad setting is refused before the application's modules load: at once, in one
 * line, even where loading them takes a second.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { startServer } = await import('./serve.js');
  await startServer(config);
}

/**
 * Why the server could not start, as one line: a bad setting, or what the system refused
 * (a port in use, an address this machine does not have, a database file it cannot open). Only
 * an error nobody foresaw (a defect) is printed with its stack.
 */
function startFailure(err: unknown): string {
  if (err instanceof ConfigError) return err.message;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string')
    return err instanceof Error ? (err.stack ?? String(err)) : String(err);
  if (code === 'EADDRINUSE') return `port already in use: ${message}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `cannot listen on HOST (${message}): give an address of this machine, or 0.0.0.0`;
  }
  return `${message} (${code})`;
}

main().catch((err) => {
  console.error(`vigil: could not start: ${startFailure(err)}`);
  process.exit(1);
});
